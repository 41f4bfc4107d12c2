import type { RoutingDecision } from "../../core/decision";
import { basename } from "../../core/paths";
import type { GroupQueue } from "../../core/queues";
import { setHidden, setTextIfChanged } from "./dom-text";
import type { DeadLetterRow, FlowState } from "./flow-state";

// The message flow section: per-group queues, dead letters, the latest routing decisions and the
// registry's problems. It is small, so it is rebuilt on each relay change; the collapsible parts
// keep their open or closed state.

const QUEUE_COLUMNS: { key: keyof Pick<GroupQueue, "inbox" | "outbox" | "inFlight" | "overdue">; label: string; count: string }[] = [
	{ key: "inbox", label: "Inbox", count: "inbox" },
	{ key: "outbox", label: "Outbox", count: "outbox" },
	{ key: "inFlight", label: "In flight", count: "in-flight" },
	{ key: "overdue", label: "Overdue", count: "overdue" },
];

function timeOfDay(time: number): string {
	const d = new Date(time);
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function noteLink(parent: HTMLElement, path: string, text: string, cls = ""): HTMLElement {
	return parent.createEl("a", {
		cls: `a2a-note-link ${cls}`.trim(),
		text,
		attr: { href: "#", "data-open-path": path, title: path },
	});
}

export class MessageFlowPanel {
	readonly el: HTMLElement;
	private readonly emptyEl: HTMLElement;
	private readonly errorsEl: HTMLElement;
	private readonly queuesEl: HTMLElement;
	private readonly deadEl: HTMLDetailsElement;
	private readonly deadTitleEl: HTMLElement;
	private readonly deadListEl: HTMLElement;
	private readonly recentEl: HTMLDetailsElement;
	private readonly recentListEl: HTMLElement;
	private signature = "";

	constructor(parent: HTMLElement) {
		this.el = parent.createDiv({ cls: "a2a-flow" });
		this.el.createEl("h4", { cls: "a2a-heading", text: "Message flow" });
		this.emptyEl = this.el.createDiv({ cls: "a2a-empty a2a-flow-empty a2a-hidden" });
		this.errorsEl = this.el.createDiv({ cls: "a2a-registry-errors a2a-hidden", attr: { role: "alert" } });
		this.queuesEl = this.el.createDiv({ cls: "a2a-queues" });
		this.deadEl = this.el.createEl("details", { cls: "a2a-dead-letters" });
		const deadSummary = this.deadEl.createEl("summary", { cls: "a2a-section-summary" });
		this.deadTitleEl = deadSummary.createSpan({ cls: "a2a-section-title", text: "Dead letters" });
		deadSummary.createSpan({ cls: "a2a-section-count a2a-dead-count" });
		this.deadListEl = this.deadEl.createDiv({ cls: "a2a-dead-list" });
		this.recentEl = this.el.createEl("details", { cls: "a2a-recent", attr: { open: "" } });
		const recentSummary = this.recentEl.createEl("summary", { cls: "a2a-section-summary" });
		recentSummary.createSpan({ cls: "a2a-section-title", text: "Latest routing decisions" });
		this.recentListEl = this.recentEl.createDiv({ cls: "a2a-recent-list" });
	}

	render(state: FlowState): void {
		const signature = JSON.stringify(state);
		if (signature === this.signature) return;
		this.signature = signature;
		if (!state.registryExists) {
			setTextIfChanged(this.emptyEl, 'No registry yet: run Initialize A2A vault. It creates registry.yaml with example groups and their folders.');
			setHidden(this.emptyEl, false);
		} else if (state.groups.length === 0) {
			setTextIfChanged(this.emptyEl, `No groups in the registry yet: add them under groups in ${state.registryPath}.`);
			setHidden(this.emptyEl, false);
		} else setHidden(this.emptyEl, true);
		this.renderErrors(state);
		this.renderQueues(state.groups);
		this.renderDeadLetters(state.deadLetterCount, state.deadLetters);
		this.renderRecent(state.recent, state.registryExists);
	}

	private renderErrors(state: FlowState): void {
		this.errorsEl.empty();
		setHidden(this.errorsEl, state.registryErrors.length === 0);
		if (state.registryErrors.length === 0) return;
		const head = this.errorsEl.createDiv({ cls: "a2a-registry-errors-title" });
		head.appendText(`The registry has ${state.registryErrors.length === 1 ? "a problem" : `${state.registryErrors.length} problems`}; fix `);
		noteLink(head, state.registryPath, state.registryPath);
		head.appendText(" and save it (the entries it names are ignored until then):");
		const list = this.errorsEl.createEl("ul", { cls: "a2a-registry-error-list" });
		for (const error of state.registryErrors) list.createEl("li", { text: error });
	}

	private renderQueues(groups: GroupQueue[]): void {
		this.queuesEl.empty();
		setHidden(this.queuesEl, groups.length === 0);
		if (groups.length === 0) return;
		const table = this.queuesEl.createEl("table", { cls: "a2a-queue-table" });
		const headRow = table.createEl("thead").createEl("tr");
		headRow.createEl("th", { text: "Group", attr: { scope: "col" } });
		for (const column of QUEUE_COLUMNS) headRow.createEl("th", { cls: "a2a-num", text: column.label, attr: { scope: "col" } });
		const body = table.createEl("tbody");
		for (const group of groups) {
			const tr = body.createEl("tr", { attr: { "data-group": group.group } });
			tr.createEl("th", { cls: "a2a-queue-group", text: group.group, attr: { scope: "row" } });
			for (const column of QUEUE_COLUMNS) {
				const value = group[column.key];
				const td = tr.createEl("td", { cls: "a2a-num", text: String(value), attr: { "data-count": column.count } });
				if (value === 0) td.addClass("a2a-zero");
				else if (column.key === "overdue") td.addClass("a2a-overdue");
			}
		}
	}

	private renderDeadLetters(count: number, entries: DeadLetterRow[]): void {
		this.deadEl.setAttr("data-count", String(count));
		this.deadEl.toggleClass("a2a-has-dead", count > 0);
		const countEl = this.deadEl.querySelector<HTMLElement>(".a2a-dead-count");
		if (countEl) setTextIfChanged(countEl, String(count));
		setTextIfChanged(this.deadTitleEl, "Dead letters");
		this.deadListEl.empty();
		if (count === 0) {
			this.deadListEl.createDiv({ cls: "a2a-empty", text: "No dead letters: every message found its way." });
			return;
		}
		for (const entry of entries) {
			const item = this.deadListEl.createDiv({ cls: "a2a-dead-item", attr: { "data-path": entry.path } });
			noteLink(item, entry.path, basename(entry.path), "a2a-dead-link");
			item.createSpan({ cls: "a2a-error-code", text: entry.errorCode ?? "no error code" });
			if (entry.errorMessage) item.setAttr("title", entry.errorMessage);
		}
		if (count > entries.length) this.deadListEl.createDiv({ cls: "a2a-more", text: `and ${count - entries.length} more in the dead-letter folder` });
	}

	private renderRecent(recent: RoutingDecision[], registryExists: boolean): void {
		this.recentListEl.empty();
		if (recent.length === 0) {
			this.recentListEl.createDiv({
				cls: "a2a-empty",
				text: registryExists
					? "No routing decisions yet: a note written to a group's outbox is routed and shows up here."
					: "Routing starts once the registry exists.",
			});
			return;
		}
		for (const d of recent) {
			const item = this.recentListEl.createDiv({ cls: "a2a-decision", attr: { "data-outcome": d.outcome } });
			item.createSpan({ cls: "a2a-decision-time", text: timeOfDay(d.time) });
			item.createSpan({ cls: `a2a-outcome a2a-outcome-${d.outcome}`, text: d.outcome.replace("_", " ") });
			noteLink(item, d.path, basename(d.path), "a2a-decision-link");
			if (d.error_code) item.createSpan({ cls: "a2a-error-code", text: d.error_code });
			const route = d.source_group || d.target_group ? `${d.source_group ?? "?"} → ${d.target_group ?? "?"}` : "";
			const title = [route, d.reason].filter((t) => t).join(": ");
			if (title) item.setAttr("title", title);
		}
	}
}
