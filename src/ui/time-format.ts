import { moment } from "obsidian";
import { parseTime } from "../core/time";

// One way to show a time in the UI: local and locale-aware (through Obsidian's moment), relative in
// the text ("3 minutes ago"), absolute on hover and for assistive technology. Notes and the log
// keep ISO UTC: this is for display only.

/** The part of moment used here (obsidian.d.ts types the export as a namespace, not as callable). */
type MomentAt = (ms: number) => { from(now: number): string; format(pattern: string): string };
const at = moment as unknown as MomentAt;

export function relativeTime(ms: number, now = Date.now()): string {
	return at(ms).from(now);
}

export function absoluteTime(ms: number): string {
	return at(ms).format("LLL");
}

/** The clock time of a moment today ("10:30:05 AM" or "10:30:05", as the locale writes it). */
export function clockTime(ms: number): string {
	return at(ms).format("LTS");
}

/** A time of a note (ISO, zone-less = UTC) as epoch ms, or null. */
export function noteTime(value: string | undefined): number | null {
	if (!value) return null;
	const ms = parseTime(value);
	return Number.isNaN(ms) ? null : ms;
}

/** A `<time>` element: the relative time as text, the absolute one as its title and datetime. */
export function timeEl(parent: HTMLElement, ms: number, now: number, cls = "a2a-time"): HTMLElement {
	return parent.createEl("time", { cls, text: relativeTime(ms, now), attr: { datetime: new Date(ms).toISOString(), title: absoluteTime(ms) } });
}

/** An ISO 8601 date-time as agents and the router write it (with or without zone, fraction). */
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;

/** The time of a finding heading: a time of day stays as written, an ISO time becomes relative (exact on hover). */
export function findingClock(timestamp: string, now: number): { text: string; title: string } {
	const ms = /T\d{2}:\d{2}/.test(timestamp) ? parseTime(timestamp) : NaN;
	if (Number.isNaN(ms)) return { text: timestamp, title: timestamp };
	return { text: relativeTime(ms, now), title: absoluteTime(ms) };
}

/** A text from the router or an agent with its ISO times written as local times ("Dec 3, 2026 9:16 AM"): the UI never shows raw ISO text. */
export function readableTimes(text: string): string {
	return text.replace(ISO_TIME, (iso) => {
		const ms = parseTime(iso);
		return Number.isNaN(ms) ? iso : absoluteTime(ms);
	});
}
