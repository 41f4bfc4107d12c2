import { ACTION_NAMES, STATE_WORDS, VIEW_TEXT } from "../strings";
import { noteLink } from "../note-links";
import { clockTime, relativeTime, absoluteTime } from "../time-format";
import type { DeadLetterRow, DecisionRow } from "./flow-state";

// The two lists of the message flow: the dead letters (each with its error in words, not only on
// hover, and an inline Retry…) and the latest routing decisions (time, outcome, the note, the
// route and reason in words, and the message's state now). Every link is resolved when used.

/** A button that the view's one delegated listener runs (`data-a2a-action`). */
export function actionButton(parent: HTMLElement, action: string, text: string, cls = ""): HTMLButtonElement {
	return parent.createEl("button", { cls: `a2a-action-button ${cls}`.trim(), text, attr: { type: "button", "data-a2a-action": action } });
}

export function renderDeadLetters(list: HTMLElement, count: number, rows: readonly DeadLetterRow[], now: number): void {
	list.empty();
	if (count === 0) {
		list.createDiv({ cls: "a2a-empty", text: VIEW_TEXT.noDeadLetters });
		return;
	}
	for (const row of rows) {
		const name = row.path.slice(row.path.lastIndexOf("/") + 1);
		const item = list.createDiv({ cls: "a2a-dead-item a2a-link-row", attr: { "data-path": row.path } });
		const head = item.createDiv({ cls: "a2a-dead-head" });
		noteLink(head, { messageId: row.messageId, path: row.path, name }, name, "a2a-dead-link");
		head.createSpan({ cls: "a2a-error-code", text: row.errorCode ?? VIEW_TEXT.noErrorCode });
		actionButton(head, "retry", ACTION_NAMES.retry, "a2a-retry-button").setAttr("aria-label", `${ACTION_NAMES.retry} ${name}`);
		if (row.errorMessage) item.createDiv({ cls: "a2a-dead-reason", text: row.errorMessage });
		if (row.deadAt !== null) item.createEl("time", { cls: "a2a-time a2a-dead-time", text: relativeTime(row.deadAt, now), attr: { datetime: new Date(row.deadAt).toISOString(), title: absoluteTime(row.deadAt) } });
	}
	if (count > rows.length) list.createDiv({ cls: "a2a-more", text: VIEW_TEXT.moreDeadLetters(count - rows.length) });
}

/** The decision rows a list shows, by what each shows: while messages flow, most rows only move down one place. */
const shownDecisions = new WeakMap<HTMLElement, Map<string, HTMLElement>>();

export function renderDecisions(list: HTMLElement, rows: readonly DecisionRow[], registryExists: boolean): void {
	const before = shownDecisions.get(list) ?? new Map<string, HTMLElement>();
	const after = new Map<string, HTMLElement>();
	list.empty();
	if (rows.length === 0) {
		list.createDiv({ cls: "a2a-empty", text: registryExists ? VIEW_TEXT.noDecisionsYet : VIEW_TEXT.routingStartsWithRegistry });
	}
	for (const d of rows) {
		const key = JSON.stringify(d);
		const kept = before.get(key);
		if (kept && !after.has(key)) {
			list.appendChild(kept);
			after.set(key, kept);
			continue;
		}
		const item = list.createDiv({ cls: "a2a-decision a2a-link-row", attr: { "data-outcome": d.outcome } });
		after.set(key, item);
		const head = item.createDiv({ cls: "a2a-decision-head" });
		head.createEl("time", { cls: "a2a-decision-time", text: clockTime(d.time), attr: { datetime: new Date(d.time).toISOString(), title: absoluteTime(d.time) } });
		head.createSpan({ cls: `a2a-outcome a2a-outcome-${d.outcome}`, text: STATE_WORDS[d.outcome] ?? d.outcome.replace("_", " ") });
		noteLink(head, { messageId: d.messageId, path: d.path, name: d.name }, d.name, "a2a-decision-link");
		if (d.errorCode) head.createSpan({ cls: "a2a-error-code", text: d.errorCode });
		if (d.now) head.createSpan({ cls: `a2a-chip a2a-state a2a-state-${d.now}`, text: STATE_WORDS[d.now] ?? d.now });
		if (d.late && d.outcome !== "late") head.createSpan({ cls: "a2a-chip a2a-mark a2a-mark-late", text: STATE_WORDS.late });
		const words = [d.route, d.reason].filter((t): t is string => !!t).join(": ");
		if (words) item.createDiv({ cls: "a2a-decision-detail", text: words });
	}
	shownDecisions.set(list, after);
}
