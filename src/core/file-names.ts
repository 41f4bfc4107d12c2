import { shortHash } from "./hash";
import { utf8Length } from "./text";

// The names the router gives the notes it writes (contract v2, rule 7). A file name that arrives in
// an outbox is data, never a path: whatever it holds, the note is written under a name that is one
// plain file name inside the folder the rules choose. Free names are tried in a fixed order derived
// from the message id, so that the copy of a note can be found again after an interruption.

/** The longest file name most file systems allow, in bytes. */
export const MAX_NAME_BYTES = 255;

/**
 * Characters a delivered note's name never holds: separators and control characters (rule 7), the
 * characters Windows, macOS or phones refuse in names, and those that break a wiki-link to the note.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a safe name replaces
const UNSAFE = /[\u0000-\u001f\u007f-\u009f/\\:*?"<>|#^[\]]/g;

/** `text` cut to at most `max` bytes of UTF-8, between two characters. */
export function fitBytes(text: string, max: number): string {
	if (utf8Length(text) <= max) return text;
	let out = "";
	let bytes = 0;
	for (const char of text) {
		bytes += utf8Length(char);
		if (bytes > max) break;
		out += char;
	}
	return out;
}

/**
 * The stem (name without extension) a note is delivered under: separators and control characters
 * become `-`, edge whitespace and trailing dots go, and a name left empty or only dots is replaced
 * by one derived from the original bytes.
 */
export function safeStem(fileName: string): string {
	const dot = fileName.lastIndexOf(".");
	const ext = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : "";
	const stem = ext === "md" || ext === "yaml" || ext === "yml" ? fileName.slice(0, dot) : fileName;
	const cleaned = stem.normalize("NFC").replace(UNSAFE, "-").trim().replace(/[.\s]+$/, "");
	if (cleaned.replace(/[.\s-]/g, "") === "") return `message-${shortHash(fileName, 8)}`;
	return cleaned.startsWith(".") ? cleaned.replace(/^[.\s]+/, "") || `message-${shortHash(fileName, 8)}` : cleaned;
}

/** True when the router delivers a note named `fileName` under that very name. */
export function isSafeFileName(fileName: string): boolean {
	return `${safeStem(fileName)}.md` === fileName;
}

/**
 * The names to try, in order, for a note named `fileName`: the safe name, then (with a message id)
 * the safe name with the id's start and numbered ones after it, or (without) numbered ones. Each
 * fits in 255 bytes.
 */
export function candidateNames(fileName: string, messageId?: string, count = 50): string[] {
	const stem = safeStem(fileName);
	const tag = messageId === undefined ? null : messageId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8) || shortHash(messageId, 8);
	const names: string[] = [];
	for (let i = 0; i < count; i++) {
		const suffix = i === 0 ? "" : tag === null ? `-${i}` : i === 1 ? `-${tag}` : `-${tag}-${i}`;
		names.push(`${fitBytes(stem, MAX_NAME_BYTES - utf8Length(`${suffix}.md`))}${suffix}.md`);
	}
	return names;
}
