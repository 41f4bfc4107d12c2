import { Modal } from "obsidian";
import type { App } from "obsidian";
import type { Location } from "../../core/layout";
import type { IndexEntry } from "../../core/message-index";
import type { RelayState } from "../../obsidian/relay-state";

// Show trace: the messages of one trace in the order they happened (the index's timeline), one
// row each: sender -> target, type or status, state, times, processing time. A row opens its note
// on click, Enter or Space; the arrow keys move between rows.

function where(location: Location): string {
	if (location.area === "box") return `${location.box} of ${location.group}`;
	if (location.area === "dead-letter") return "dead letter";
	return location.area;
}

function time(value: string | undefined): string | null {
	if (!value) return null;
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) return value;
	return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

function duration(ms: number): string {
	if (ms < 1000) return `${ms} ms`;
	if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
	return `${Math.round(ms / 60_000)} min`;
}

/** The lines shown for one message (plain text; the modal renders them as text). */
function traceRowLines(entry: IndexEntry): { title: string; details: string[] } {
	const what = entry.kind === "response" ? `response: ${entry.status ?? "?"}` : entry.kind === "request" ? `${entry.requestType ?? "request"}` : "unreadable note";
	const title = `${entry.sourceGroup ?? "?"} -> ${entry.targetGroup ?? "?"} · ${what}`;
	const details: string[] = [];
	const state = entry.state ?? (entry.location.area === "box" && entry.location.box === "outbox" ? "pending" : undefined);
	details.push(`${state ? `${state}, ` : ""}${where(entry.location)}`);
	const times: [string, string | undefined][] = [
		["created", entry.created],
		["delivered", entry.deliveredAt],
		["answered", entry.answeredAt],
		["dead", entry.deadAt],
	];
	const shown = times.map(([label, value]) => {
		const t = time(value);
		return t ? `${label} ${t}` : null;
	});
	const timeLine = shown.filter((t): t is string => t !== null).join(" · ");
	if (timeLine) details.push(timeLine);
	if (entry.processingTimeMs !== undefined) details.push(`processing time ${duration(entry.processingTimeMs)}`);
	if (entry.hopCount !== undefined && entry.kind === "request") details.push(`hop ${entry.hopCount}${entry.attempt !== undefined ? `, attempt ${entry.attempt}` : ""}`);
	if (entry.errorCode) details.push(`${entry.errorCode}${entry.errorMessage ? `: ${entry.errorMessage}` : ""}`);
	return { title, details };
}

export class TraceModal extends Modal {
	private rows: HTMLElement[] = [];

	constructor(
		app: App,
		private readonly state: RelayState,
		private readonly traceId: string,
		private readonly currentPath: string,
	) {
		super(app);
	}

	onOpen(): void {
		this.modalEl.addClass("a2a-modal", "a2a-trace-modal");
		this.setTitle("Trace");
		const { contentEl } = this;
		contentEl.empty();
		const entries = this.state.index().traceTimeline(this.traceId);
		contentEl.createEl("p", { cls: "a2a-modal-summary", text: `Trace ${this.traceId}: ${entries.length} ${entries.length === 1 ? "message" : "messages"}.` });
		const list = contentEl.createEl("ol", { cls: "a2a-trace-list" });
		this.rows = [];
		let focus: HTMLElement | null = null;
		for (const entry of entries) {
			const { title, details } = traceRowLines(entry);
			const row = list.createEl("li", {
				cls: "a2a-trace-row",
				attr: { tabindex: "0", role: "button", "data-path": entry.path, "aria-label": `${title}. Open the note.` },
			});
			if (entry.path === this.currentPath) {
				row.addClass("is-current");
				focus = row;
			}
			row.createDiv({ cls: "a2a-trace-title", text: title });
			for (const line of details) row.createDiv({ cls: "a2a-trace-detail", text: line });
			row.addEventListener("click", () => this.openEntry(entry.path));
			row.addEventListener("keydown", (evt) => this.onRowKey(evt, row, entry.path));
			this.rows.push(row);
		}
		(focus ?? this.rows[0])?.focus();
	}

	onClose(): void {
		this.contentEl.empty();
	}

	private onRowKey(evt: KeyboardEvent, row: HTMLElement, path: string): void {
		if (evt.key === "Enter" || evt.key === " ") {
			evt.preventDefault();
			this.openEntry(path);
		} else if (evt.key === "ArrowDown" || evt.key === "ArrowUp") {
			evt.preventDefault();
			const i = this.rows.indexOf(row) + (evt.key === "ArrowDown" ? 1 : -1);
			this.rows[Math.max(0, Math.min(this.rows.length - 1, i))]?.focus();
		}
	}

	private openEntry(path: string): void {
		this.close();
		void this.app.workspace.openLinkText(path, "", false);
	}
}
