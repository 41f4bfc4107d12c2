import { readRawMessage } from "./message-parse";
import { FILLED_FIELDS, ROUTING_STAMPS } from "./router-fields";

// Recognising the copy the router made of a note. The router writes a note's stamped copy first and
// removes the note after; when it was interrupted in between, the next pass finds both, and must
// finish that delivery instead of taking the note for a second message.

/** Fields the router writes or fills in; every other field of the note must be in its copy unchanged. */
const ROUTER_FIELDS: ReadonlySet<string> = new Set([...ROUTING_STAMPS, ...FILLED_FIELDS]);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** True when `copyText` is what the router makes of `sourceText`: the same payload and sender fields. */
export function isCopyOf(copyText: string, copyPath: string, sourceText: string, sourcePath: string): boolean {
	const copy = readRawMessage(copyText, copyPath);
	const source = readRawMessage(sourceText, sourcePath);
	if (!copy.ok || !source.ok) return copyText === sourceText;
	if (!same(copy.raw.payload, source.raw.payload)) return false;
	for (const [key, value] of Object.entries(source.raw.fields)) {
		if (ROUTER_FIELDS.has(key) && copy.raw.fields[key] !== undefined) continue;
		if (!same(copy.raw.fields[key], value)) return false;
	}
	return true;
}

/** Router fields whose value is a time: they differ between two stamps of one note. */
const TIME_FIELDS = new Set(["created", "delivered_at", "expires_at", "answered_at", "dead_at", "processing_time_ms"]);

/** True when two texts the router wrote for one note differ at most in the times it stamped. */
export function sameApartFromTimes(a: string, b: string, path: string): boolean {
	if (a === b) return true;
	const x = readRawMessage(a, path);
	const y = readRawMessage(b, path);
	if (!x.ok || !y.ok) return false;
	if (!same(x.raw.payload, y.raw.payload)) return false;
	const keys = new Set([...Object.keys(x.raw.fields), ...Object.keys(y.raw.fields)]);
	for (const key of keys) if (!TIME_FIELDS.has(key) && !same(x.raw.fields[key], y.raw.fields[key])) return false;
	return true;
}

/** True when a note's frontmatter holds the router's delivery or dead-letter stamp. */
export function hasRouterStamps(text: string): boolean {
	const end = text.indexOf("\n---", 4);
	return /^(?:delivered_at|dead_at):/m.test(end > 0 ? text.slice(0, end) : text.slice(0, 8192));
}
