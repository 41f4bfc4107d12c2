import type { Payload } from "./message";
import { setOwn } from "./text";

// The payload as a note body: one `## Heading` per field. A heading maps to its payload key in lower
// case with spaces as `_`; `## Artifacts` holds one path or [[wikilink]] per list item. A line of a
// value that would read as a level-two heading (outside a code fence) is written with a backslash
// before it, as Markdown escapes it (`\## Plan` shows as the text "## Plan"), and a line read with
// backslashes before `## ` loses one. A value that itself holds such a backslashed line (and any value
// a section cannot carry unchanged) goes to the frontmatter's `payload:` mapping instead, so notes
// written before this rule read as they did. The patterns are linear: a note of 100 KB is read in
// one pass whatever its lines hold.

const HEADING = /^## +(?=[^ ])(.*\S)[ \t]*$/;
/** A heading line escaped by one or more backslashes. */
const ESCAPED_HEADING = /^\\+## +(?=[^ ]).*\S[ \t]*$/;
const FENCE = /^(```|~~~)/;

/** Applies `edit` to every line of `text` outside code fences. */
function outsideFences(text: string, edit: (line: string) => string): string {
	let inFence = false;
	return text
		.split("\n")
		.map((line) => {
			if (FENCE.test(line)) {
				inFence = !inFence;
				return line;
			}
			return inFence ? line : edit(line);
		})
		.join("\n");
}

/** A value's text as a section writes it: heading lines escaped (see above). */
function escapeHeadings(text: string): string {
	if (!text.includes("## ")) return text;
	return outsideFences(text, (line) => (HEADING.test(line) ? `\\${line}` : line));
}

/** A section's text as the value it holds: one backslash fewer before each escaped heading line. */
function unescapeHeadings(text: string): string {
	if (!text.includes("\\#")) return text;
	return outsideFences(text, (line) => (ESCAPED_HEADING.test(line) ? line.slice(1) : line));
}
const LIST_ITEM = /^[ \t]*[-*+][ \t]+(?=[^ \t])(.*\S)[ \t]*$/s;
const BODY_KEY = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
export const LIST_KEYS: ReadonlySet<string> = new Set(["artifacts"]);

export function headingToKey(heading: string): string {
	return heading.trim().toLowerCase().replace(/\s+/g, "_");
}

export function keyToHeading(key: string): string {
	const words = key.replace(/_/g, " ");
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Reads the `## Heading` sections of a body. Text before the first heading is not payload. */
export function parseBodySections(body: string): Payload {
	const payload: Payload = {};
	const lines = (body.includes("\r") ? body.replace(/\r\n?/g, "\n") : body).split("\n");
	let key: string | null = null;
	let buffer: string[] = [];
	const flush = () => {
		if (key === null) return;
		const text = buffer.join("\n").replace(/^\n+/, "").trimEnd();
		if (LIST_KEYS.has(key)) {
			setOwn(payload, key, buffer.map((line) => LIST_ITEM.exec(line)?.[1]).filter((item): item is string => item !== undefined));
		} else {
			setOwn(payload, key, unescapeHeadings(text));
		}
	};
	let inFence = false;
	for (const line of lines) {
		if (FENCE.test(line)) inFence = !inFence;
		const match = inFence ? null : HEADING.exec(line);
		if (match) {
			flush();
			key = headingToKey(match[1]);
			buffer = [];
		} else if (key !== null) {
			buffer.push(line);
		}
	}
	flush();
	return payload;
}

/** True when `text` ends inside a code fence (as the section parser counts fences). */
export function endsInsideFence(text: string): boolean {
	let inFence = false;
	for (const line of text.split("\n")) {
		if (FENCE.test(line)) inFence = !inFence;
	}
	return inFence;
}

function isBodyText(value: string): boolean {
	if (value === "" || value !== value.trim() || value.includes("\r")) return false;
	let inFence = false;
	for (const line of value.split("\n")) {
		if (FENCE.test(line)) inFence = !inFence;
		// A backslashed heading of the value's own would lose its backslash on the way back.
		else if (!inFence && ESCAPED_HEADING.test(line)) return false;
	}
	// A value ending inside an open code fence would swallow the headings that follow it.
	return !inFence;
}

/** True when the value survives the trip through a body section unchanged. */
export function fitsInBody(key: string, value: unknown): boolean {
	if (!BODY_KEY.test(key)) return false;
	if (LIST_KEYS.has(key)) {
		return Array.isArray(value) && value.every((item) => typeof item === "string" && item !== "" && item === item.trim() && !/[\r\n]/.test(item));
	}
	return typeof value === "string" && isBodyText(value);
}

export function renderBodySections(payload: Payload): string {
	const parts: string[] = [];
	for (const [key, value] of Object.entries(payload)) {
		const text = LIST_KEYS.has(key) ? (value as string[]).map((item) => `- ${item}`).join("\n") : escapeHeadings(value as string);
		parts.push(text === "" ? `## ${keyToHeading(key)}\n` : `## ${keyToHeading(key)}\n\n${text}\n`);
	}
	return parts.join("\n");
}
