import { ACTION_NAMES, ROUTE_TEXT, STATE_WORDS, VIEW_TEXT } from "../strings";
import { noteLink } from "../note-links";
import { absoluteTime, readableTimes, relativeTime } from "../time-format";
import type { DeadLetterRow, DecisionRow } from "./flow-state";

// The two lists of the message flow: the undelivered messages (dead letters) and the recent
// messages (routing decisions). Each row leads with what it means: the route and the message's
// type ("10-backend-group → 40-security-group · query") as the link to the note, then one plain
// outcome and the time (relative, exact on hover); the note's file name and the error code are
// on hover, the reason in words below. A few rows show; "Show N more" shows the rest. Every link
// is resolved when used.

/** Rows a list shows before its "Show more" button. */
const FIRST_ROWS = 5;

/** A button that the view's one delegated listener runs (`data-a2a-action`). */
export function actionButton(parent: HTMLElement, action: string, text: string, cls = ""): HTMLButtonElement {
	return parent.createEl("button", { cls: `a2a-action-button ${cls}`.trim(), text, attr: { type: "button", "data-a2a-action": action } });
}

function timeAgo(parent: HTMLElement, ms: number, now: number, cls: string): void {
	parent.createEl("time", { cls: `a2a-time ${cls}`, text: relativeTime(ms, now), attr: { datetime: new Date(ms).toISOString(), title: absoluteTime(ms) } });
}

/** Hides the rows after the first few until "Show more" is pressed (the list remembers it). */
function limitRows(list: HTMLElement, rows: HTMLElement[]): void {
	const extra = rows.length - FIRST_ROWS;
	rows.forEach((row, i) => row.toggleClass("a2a-extra-row", i >= FIRST_ROWS));
	if (extra <= 0) return;
	const all = list.classList.contains("a2a-show-all");
	const more = list.createEl("button", { cls: "a2a-show-more", text: all ? VIEW_TEXT.showFewer : VIEW_TEXT.showMore(extra), attr: { type: "button", "aria-expanded": String(all) } });
	more.addEventListener("click", () => {
		const open = !list.classList.contains("a2a-show-all");
		list.toggleClass("a2a-show-all", open);
		more.setText(open ? VIEW_TEXT.showFewer : VIEW_TEXT.showMore(extra));
		more.setAttr("aria-expanded", String(open));
	});
}

export function renderDeadLetters(list: HTMLElement, count: number, rows: readonly DeadLetterRow[], now: number): void {
	list.empty();
	if (count === 0) {
		list.createDiv({ cls: "a2a-empty", text: VIEW_TEXT.noDeadLetters });
		return;
	}
	const items: HTMLElement[] = [];
	for (const row of rows) {
		const name = row.path.slice(row.path.lastIndexOf("/") + 1);
		const item = list.createDiv({ cls: "a2a-dead-item a2a-link-row", attr: { "data-path": row.path, "data-error-code": row.errorCode ?? "" } });
		items.push(item);
		const head = item.createDiv({ cls: "a2a-dead-head" });
		const link = noteLink(head, { messageId: row.messageId, path: row.path, name }, VIEW_TEXT.routeType(row.route || VIEW_TEXT.unknownRoute, row.type ?? ""), "a2a-dead-link");
		link.setAttr("title", VIEW_TEXT.fileAndCode(name, row.errorCode ?? VIEW_TEXT.noErrorCode));
		actionButton(head, "retry", ACTION_NAMES.retry, "a2a-retry-button").setAttr("aria-label", `${ACTION_NAMES.retry} ${name}`);
		const detail = item.createDiv({ cls: "a2a-dead-detail" });
		detail.createSpan({ cls: "a2a-dead-reason", text: row.errorMessage ? readableTimes(row.errorMessage) : (row.errorCode ?? VIEW_TEXT.noErrorCode) });
		if (row.deadAt !== null) timeAgo(detail, row.deadAt, now, "a2a-dead-time");
	}
	limitRows(list, items);
	if (count > rows.length) list.createDiv({ cls: "a2a-more", text: VIEW_TEXT.moreDeadLetters(count - rows.length) });
}

/** The decision rows a list shows, by what each shows: while messages flow, most rows only move down one place. */
const shownDecisions = new WeakMap<HTMLElement, Map<string, HTMLElement>>();

export function renderDecisions(list: HTMLElement, rows: readonly DecisionRow[], registryExists: boolean, now: number): void {
	const before = shownDecisions.get(list) ?? new Map<string, HTMLElement>();
	const after = new Map<string, HTMLElement>();
	const items: HTMLElement[] = [];
	list.empty();
	if (rows.length === 0) {
		list.createDiv({ cls: "a2a-empty", text: registryExists ? VIEW_TEXT.noDecisionsYet : VIEW_TEXT.routingStartsWithRegistry });
	}
	for (const d of rows) {
		// The minute is part of what a row shows (its age).
		const key = `${JSON.stringify(d)}@${Math.floor(now / 60_000)}`;
		const kept = before.get(key);
		if (kept && !after.has(key)) {
			list.appendChild(kept);
			after.set(key, kept);
			items.push(kept);
			continue;
		}
		const item = list.createDiv({ cls: "a2a-decision a2a-link-row", attr: { "data-outcome": d.outcome, "data-error-code": d.errorCode ?? "" } });
		after.set(key, item);
		items.push(item);
		const head = item.createDiv({ cls: "a2a-decision-head" });
		const link = noteLink(head, { messageId: d.messageId, path: d.path, name: d.name }, VIEW_TEXT.routeType(d.route || VIEW_TEXT.unknownRoute, d.type ?? ""), "a2a-decision-link");
		link.setAttr("title", VIEW_TEXT.fileAndCode(d.name, d.errorCode));
		// One outcome: where the message is now when that moved on (answered, taken), else the decision's.
		const state = d.now ?? d.outcome;
		const outcome = head.createSpan({ cls: `a2a-outcome a2a-outcome-${state} a2a-state a2a-state-${state}`, text: STATE_WORDS[state] ?? (ROUTE_TEXT.outcomes as Record<string, string>)[state] ?? state.replace("_", " ") });
		if (d.errorCode) outcome.setAttr("title", d.errorCode);
		if (d.late && d.outcome !== "late" && state !== "late") head.createSpan({ cls: "a2a-chip a2a-mark a2a-mark-late", text: STATE_WORDS.late });
		timeAgo(head, d.time, now, "a2a-decision-time");
		if (d.reason) item.createDiv({ cls: "a2a-decision-detail", text: readableTimes(d.reason) });
	}
	limitRows(list, items);
	shownDecisions.set(list, after);
}
