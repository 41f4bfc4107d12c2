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
