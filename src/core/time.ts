// Times in notes (contract v2, section 4): ISO 8601, and a time written without a timezone is UTC,
// whatever the zone of the machine that reads it. PyYAML writes `2026-01-15 23:59:00+00:00` (a space
// instead of the T), JavaScript's Date.parse reads a zone-less date-time as local time: every reader
// of a time in a note goes through parseTime, never Date.parse.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** True when `text` has the shape of an ISO 8601 date or date-time (a zone is optional). */
export function isIsoTime(text: unknown): text is string {
	return typeof text === "string" && !Number.isNaN(parseTime(text));
}

/** The last time read that is not in the router's own form, and what it read as. */
let lastParsedText: string | null = null;
let lastParsedMs = Number.NaN;

/** Epoch milliseconds of an ISO 8601 time (UTC when it has no zone), or NaN. Dates are taken as is. */
export function parseTime(value: unknown): number {
	if (value instanceof Date) return value.getTime();
	if (typeof value !== "string") return Number.NaN;
	const canonical = canonicalTime(value);
	if (!Number.isNaN(canonical)) return canonical;
	// A note's own times are read several times in a row (validation, ordering, indexing).
	if (value === lastParsedText) return lastParsedMs;
	const ms = parseOtherTime(value);
	lastParsedText = value;
	lastParsedMs = ms;
	return ms;
}

function parseOtherTime(value: string): number {
	const m = ISO.exec(value.trim());
	if (!m) return Number.NaN;
	const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone = "Z"] = m;
	// A fraction of any length is cut to milliseconds, never rounded: 23:59:59.9995 stays in its day.
	const ms = frac === "" ? 0 : Number(`${frac.slice(1)}00`.slice(0, 3));
	const offset = zoneOffsetMs(zone);
	if (Number.isNaN(offset)) return Number.NaN;
	const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
	if (!isValidCalendar(utc, Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s))) return Number.NaN;
	return utc - offset;
}

/**
 * The time of a string in the router's own form, `YYYY-MM-DDTHH:MM:SS.sssZ` (what toISOString
 * writes), or NaN: read digit by digit with the calendar checked, as the full rule would, without
 * a regular expression or a Date (the router reads these on every pass).
 */
function canonicalTime(value: string): number {
	if (value.length !== 24 || value.charCodeAt(23) !== 90 /* Z */ || value.charCodeAt(10) !== 84 /* T */) return Number.NaN;
	for (const [at, char] of SEPARATORS) if (value.charCodeAt(at) !== char) return Number.NaN;
	const y = digits(value, 0, 4);
	const mo = digits(value, 5, 2);
	const d = digits(value, 8, 2);
	const h = digits(value, 11, 2);
	const mi = digits(value, 14, 2);
	const s = digits(value, 17, 2);
	const ms = digits(value, 20, 3);
	if (Number.isNaN(y + mo + d + h + mi + s + ms) || y < 100 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return Number.NaN;
	return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/** Where `YYYY-MM-DDTHH:MM:SS.sssZ` has its separators (- - : : .). */
const SEPARATORS: readonly [number, number][] = [[4, 45], [7, 45], [13, 58], [16, 58], [19, 46]];

/** The number written by `length` ASCII digits from `start`, or NaN. */
function digits(text: string, start: number, length: number): number {
	let n = 0;
	for (let i = start; i < start + length; i++) {
		const c = text.charCodeAt(i) - 48;
		if (c < 0 || c > 9) return Number.NaN;
		n = n * 10 + c;
	}
	return n;
}

function daysInMonth(year: number, month: number): number {
	if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
	return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isValidCalendar(utc: number, y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
	if (h > 23 || mi > 59 || s > 59) return false;
	const date = new Date(utc);
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The offset of a zone in milliseconds, or NaN beyond ±23:59 (hours 00 to 23, minutes 00 to 59). */
function zoneOffsetMs(zone: string): number {
	if (zone === "Z" || zone === "z") return 0;
	const sign = zone.startsWith("-") ? -1 : 1;
	const digits = zone.slice(1).replace(":", "");
	const hours = Number(digits.slice(0, 2));
	const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
	if (hours > 23 || minutes > 59) return Number.NaN;
	return sign * (hours * 60 + minutes) * 60000;
}

/**
 * The last times written, as a ring of slots: a pass writes the same few instants over and over
 * (a delivery's now and its expiry, a note's own created).
 */
const ISO_SLOTS = 4;
const isoMs: number[] = new Array<number>(ISO_SLOTS).fill(Number.NaN);
const isoText: string[] = new Array<string>(ISO_SLOTS).fill("");
let isoNext = 0;

/** The ISO 8601 UTC form the router writes. */
export function iso(ms: number): string {
	for (let i = 0; i < ISO_SLOTS; i++) if (isoMs[i] === ms) return isoText[i];
	const text = new Date(ms).toISOString();
	isoMs[isoNext] = ms;
	isoText[isoNext] = text;
	isoNext = (isoNext + 1) % ISO_SLOTS;
	return text;
}

/** A time value of a note in the router's form (UTC, with Z), or undefined when it is not a time. */
export function normalTime(value: unknown): string | undefined {
	if (typeof value === "string" && !Number.isNaN(canonicalTime(value))) return value;
	const t = parseTime(value);
	return Number.isNaN(t) ? undefined : iso(t);
}
