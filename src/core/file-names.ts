import { shortHash } from "./hash";
import { utf8Length } from "./text";

// The names the router gives the notes it writes (contract v2, rule 7). A file name that arrives in
// an outbox is data, never a path: whatever it holds, the note is written under a name that is one
// plain file name inside the folder the rules choose. Free names are tried in a fixed order derived
// from the message id, so that the copy of a note can be found again after an interruption.

/** The longest file name most file systems allow, in bytes. */
export const MAX_NAME_BYTES = 255;

/**
 * Characters a name the relay derives from outside text never holds (a delivered note's name, a saved
 * remote file's, a segment made of a message id): separators, control characters (Cc: C0, DEL, C1;
 * rule 7), format characters (Cf: bidirectional overrides and isolates, zero-width characters, the
 * BOM), which make a name show as another (`a\u202Egnp.md` shows as `amd.png`), the characters
 * Windows, macOS or phones refuse in names, and those that break a wiki-link to the note. Each becomes `-`.
 */
export const UNSAFE_NAME_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}/\\:*?"<>|#^[\]]/gu;

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
	const cleaned = stem.normalize("NFC").replace(UNSAFE_NAME_CHARACTERS, "-").trim().replace(/[.\s]+$/, "");
	if (cleaned.replace(/[.\s-]/g, "") === "") return `message-${shortHash(fileName, 8)}`;
	return cleaned.startsWith(".") ? cleaned.replace(/^[.\s]+/, "") || `message-${shortHash(fileName, 8)}` : cleaned;
}

/** How many names the first series has: the safe name, then the id's start (or a number) with a number. */
const FIRST_SERIES = 50;

/**
 * The name at `index` of a note's sequence: 0 the safe name; 1 to 49 the safe name with the id's
 * first letters and digits (and a number from 2), or with a number when there is no id; from 50 on,
 * the safe name with a hash of the whole id (and a number from 2), or with a number. Every name fits
 * in 255 bytes, and no two indexes give the same name (the suffix is never cut, only the stem).
 */
function nameAt(stem: string, messageId: string | undefined, index: number, ending = ".md"): string {
	let suffix: string;
	if (index === 0) suffix = "";
	else if (messageId === undefined) suffix = `-${index}`;
	else if (index < FIRST_SERIES) {
		const tag = messageId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8) || shortHash(messageId, 8);
		suffix = index === 1 ? `-${tag}` : `-${tag}-${index}`;
	} else {
		const key = shortHash(messageId, 16);
		suffix = index === FIRST_SERIES ? `-${key}` : `-${key}-${index - FIRST_SERIES + 1}`;
	}
	return `${fitBytes(stem, MAX_NAME_BYTES - utf8Length(`${suffix}${ending}`))}${suffix}${ending}`;
}

/**
 * How many names a note has. A bound only so that a vault adapter that wrongly calls every name
 * taken cannot spin for ever: it is never reached by notes, since a folder holding N files takes at
 * most N names of any sequence, and a million files of one name in one folder is not a vault.
 */
const MAX_CANDIDATES = 1_000_000;

/**
 * The names to try, in order, for a note named `fileName`: the safe name, then (with a message id)
 * the safe name with the id's start, numbered ones after it, then names carrying a hash of the
 * whole id with a counter (without an id: numbered ones). Notes of other ids that share a name and
 * the id's start fill at most the first series; after it only copies of this very id compete, and
 * the counter passes every one of them: a free name is always found, after at most one try per file
 * the folder holds. Every name ends with `ending` (`.md` unless told), whole. A generator: take
 * what you need, never spread it.
 */
export function* candidateNames(fileName: string, messageId?: string, ending = ".md"): Generator<string, void> {
	const stem = safeStem(fileName);
	for (let index = 0; index < MAX_CANDIDATES; index++) yield nameAt(stem, messageId, index, ending);
}

/** The first `count` names of `candidateNames`. */
export function firstCandidateNames(fileName: string, messageId: string | undefined, count: number, ending = ".md"): string[] {
	const names: string[] = [];
	for (const name of candidateNames(fileName, messageId, ending)) {
		if (names.length >= count) break;
		names.push(name);
	}
	return names;
}

/** True when `name` is one of the names `candidateNames(fileName, messageId)` yields. */
export function isCandidateName(fileName: string, messageId: string | undefined, name: string): boolean {
	const stem = safeStem(fileName);
	for (let index = 0; index <= FIRST_SERIES; index++) if (nameAt(stem, messageId, index) === name) return true;
	const counter = /-(\d{1,15})\.md$/.exec(name);
	if (counter === null) return false;
	const n = Number(counter[1]);
	const index = messageId === undefined ? n : n + FIRST_SERIES - 1;
	return index > FIRST_SERIES && index < MAX_CANDIDATES && nameAt(stem, messageId, index) === name;
}
