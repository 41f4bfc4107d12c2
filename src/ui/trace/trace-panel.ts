import { Component, MarkdownRenderer, Notice, setIcon } from "obsidian";
import type { App } from "obsidian";
import type { IndexEntry } from "../../core/message-index";
import { basename } from "../../core/paths";
import { traceMermaid, traceSteps } from "../../core/trace-diagram";
import { noteLink } from "../note-links";
import { STATE_WORDS, VIEW_TEXT } from "../strings";
import { absoluteTime, clockTime, noteTime, readableTimes } from "../time-format";

// The picture of one conversation: a sequence diagram (Mermaid, drawn by Obsidian's own renderer)
// at its natural size (scrolled sideways when the view is narrow) and below it one row per message,
// in order, with its clock time, each linking to its note where it is now. The heading shows a
// short id; a button copies the full one.

export class TracePanel {
	private diagram: Component | null = null;
	private signature = "";

	constructor(
		private readonly app: App,
		private readonly owner: Component,
		private readonly el: HTMLElement,
	) {}

	/** The next render draws again even when nothing changed (the theme did: Mermaid's colours follow it). */
	invalidate(): void {
		this.signature = "";
	}

	/** Draws the trace (nothing when it did not change since the last call). */
	async render(traceId: string | null, entries: readonly IndexEntry[], currentPath: string | null): Promise<void> {
		const signature = JSON.stringify([traceId, currentPath, entries]);
		if (signature === this.signature) return;
		this.signature = signature;
		this.el.empty();
		if (this.diagram) this.owner.removeChild(this.diagram);
		this.diagram = null;
		if (traceId === null) {
			this.el.createDiv({ cls: "a2a-empty", text: VIEW_TEXT.noTraceHere });
			return;
		}
		// A short id to read, the full one a click away (copied, for the CLI or a search).
		const summary = this.el.createDiv({ cls: "a2a-trace-summary" });
		summary.createSpan({ text: VIEW_TEXT.traceSummary(traceId.slice(0, 8), traceSteps(entries).length), attr: { title: traceId } });
		const copy = summary.createEl("button", { cls: "clickable-icon a2a-copy-trace", attr: { type: "button", "aria-label": VIEW_TEXT.copyTraceId } });
		setIcon(copy, "copy");
		copy.addEventListener("click", () => {
			void navigator.clipboard.writeText(traceId).then(
				() => new Notice(VIEW_TEXT.traceIdCopied(traceId)),
				() => new Notice(traceId),
			);
		});
		// The diagram at its natural size, scrolled sideways in a narrow sidebar (not shrunk to unreadable text).
		const picture = this.el.createDiv({ cls: "a2a-trace-diagram" });
		this.diagram = this.owner.addChild(new Component());
		const source = traceMermaid(entries, (iso) => {
			const ms = noteTime(iso);
			return ms === null ? iso : clockTime(ms);
		});
		await MarkdownRenderer.render(this.app, `\`\`\`mermaid\n${source}\n\`\`\``, picture, currentPath ?? "", this.diagram);
		const width = picture.querySelector("svg")?.viewBox?.baseVal?.width;
		if (width) picture.setCssProps({ "--a2a-diagram-width": `${Math.ceil(width)}px` });
		this.renderList(entries, currentPath);
	}

	private renderList(entries: readonly IndexEntry[], currentPath: string | null): void {
		const list = this.el.createEl("ol", { cls: "a2a-trace-list" });
		for (const step of traceSteps(entries)) {
			const e = step.entry;
			const row = list.createEl("li", { cls: "a2a-trace-row", attr: { "data-path": e.path, "data-kind": e.kind ?? "" } });
			if (e.path === currentPath) row.addClass("is-current");
			const head = row.createDiv({ cls: "a2a-trace-title" });
			head.createSpan({ cls: "a2a-trace-route", text: `${step.from} → ${step.to}` });
			head.createSpan({ cls: "a2a-trace-what", text: step.what });
			const state = e.state ?? (step.marks.includes("not routed yet") ? "pending" : "");
			if (state) head.createSpan({ cls: `a2a-chip a2a-state a2a-state-${state}`, text: STATE_WORDS[state] ?? state });
			for (const mark of step.marks) if (mark === "late" || mark.startsWith("attempt")) head.createSpan({ cls: `a2a-chip a2a-mark a2a-mark-${mark.split(" ")[0]}`, text: mark });
			const details = row.createDiv({ cls: "a2a-trace-detail" });
			const ms = noteTime(step.time);
			// Clock times: the rows of one conversation are seconds apart, "a few seconds ago" each would not tell them apart.
			if (ms !== null) details.createEl("time", { cls: "a2a-time", text: clockTime(ms), attr: { datetime: new Date(ms).toISOString(), title: absoluteTime(ms) } });
			noteLink(details, { messageId: e.messageId, path: e.path, name: basename(e.path) }, basename(e.path), "a2a-trace-link");
			if (e.errorCode) row.createDiv({ cls: "a2a-trace-error", text: `${e.errorCode}${e.errorMessage ? `: ${readableTimes(e.errorMessage)}` : ""}` });
		}
	}
}
