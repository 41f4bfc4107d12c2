import { DeferredEntry } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import type { KeyFilter } from "./history-digest";
import { sameFacts } from "./vault-port";
import type { FileInfo } from "./vault-port";

// A device-local copy of what the index learnt from the history (archives and dead letters), so
// that a router starting on a vault with years of history reads only the notes that changed since.
// The copy is a cache, never a source: an entry is used only for a note whose size, modification
// time and identity are those it was read with, every other note is read again, and a missing,
// stale or unreadable copy only costs the reads it would have saved. It is kept outside the vault
// (the CLI's under the user's cache folder), where no agent writing into the vault can reach it.
//
// The copy is one line per note (HISTORY_ROW below). A line's head (path, file facts and the three
// keys the router looks notes up by) is read at start; the rest of the entry, JSON, is parsed only
// when something asks for that note (src/core/message-index.ts, DeferredEntry): a start on a year of
// history costs a split per line, not a parse.

/**
 * The format of a saved copy: a copy of another format is not used. It changes whenever what the
 * index reads from a note changes (the fields of IndexEntry, or how entryFromRaw reads them), or
 * the layout of a row.
 */
export const HISTORY_CACHE_FORMAT = 4;

/** What the index holds of one note, with the file facts it was read from. */
export interface CachedNote {
	size: number;
	mtime: number;
	/** The file's identity when the adapter knows one (device and inode for Node). */
	id?: string;
	/** The file's ctime when the adapter knows it. */
	changed?: number;
	/** The entry as the index holds it, or its keys with the rest still as saved (its location is set anew from its path when it is used). */
	entry: IndexEntry | DeferredEntry;
}

/** What a copy split by folder tells of one history folder's part before its rows are read. */
export interface CopyPart {
	/**
	 * The digest (src/router/history-digest.ts) of the folder's listing at a moment when every note
	 * in it had its row in the part, with the facts listed; null when no such listing was seen (the
	 * part's rows are then checked one by one against the files).
	 */
	digest: string | null;
	/** The keys (message id, trace id, in_reply_to) of the part's rows. */
	filter: KeyFilter;
}

export interface HistoryCacheStore {
	/** The copy last saved, by vault path; null when there is none (or it cannot be used). Never throws. */
	load(): Promise<Map<string, CachedNote> | null>;
	/**
	 * Replaces the copy; `digests` has, for folders whose listing the notes all come from, that
	 * listing's digest. Never throws: a copy that cannot be saved is the store's to report, and
	 * routing goes on.
	 */
	save(notes: ReadonlyMap<string, CachedNote>, digests: ReadonlyMap<string, string>): Promise<void>;
	/** A copy split by folder: what it tells of each folder's part; null when there is no usable copy. Never throws. */
	loadSummary?(): Promise<ReadonlyMap<string, CopyPart> | null>;
	/** The rows of one folder's part (of the summary last loaded); null when they cannot be used (its notes are then read). Never throws. */
	loadPart?(folder: string): Promise<Map<string, CachedNote> | null>;
	/** Replaces the parts of these folders (of the summary last loaded), the others kept as they are. Never throws. */
	saveParts?(parts: ReadonlyMap<string, PartRows>): Promise<void>;
}

/** One folder's rows as a store saves them, with the digest of the listing they stand for (null: none). */
export interface PartRows {
	rows: [string, CachedNote][];
	digest: string | null;
}

/** True when `cached` was read from the file `info` describes now. */
export function stillTheSame(cached: CachedNote | undefined, info: FileInfo): cached is CachedNote {
	return cached !== undefined && sameFacts(cached, info);
}

/**
 * A note written within this long before it was read may be written again within the same tick of
 * its file system's clock (FAT counts in 2 s, HFS+ in 1 s) and show the same times: it is not kept
 * in the copy, so it is read again next time.
 */
const RACY_MS = 2500;

/** The note's entry as the copy keeps it, or null when its times are too recent to vouch for it. */
export function cacheable(entry: IndexEntry, info: Pick<FileInfo, "size" | "mtime" | "id" | "changed">, readAt: number): CachedNote | null {
	if (readAt - Math.max(info.mtime, info.changed ?? info.mtime) < RACY_MS) return null;
	return { size: info.size, mtime: info.mtime, id: info.id, changed: info.changed, entry };
}

// HISTORY_ROW: path, size, mtime, id, changed, message id, trace id, in_reply_to, and the rest of
// the entry as JSON, separated by tabs. A missing text or number is empty. A text is written as it
// is unless it is empty, starts with `"`, or holds a tab, a line break or a UTF-16 surrogate (half
// of a character, which UTF-8 cannot carry alone): then as a JSON string, which starts with `"`.
// JSON never holds a raw tab or line break, and escapes a lone surrogate, so the rest needs nothing.

const NEEDS_JSON = /^$|^"|[\t\n\r\uD800-\uDFFF]/;

function textField(value: string | undefined): string {
	if (value === undefined) return "";
	return NEEDS_JSON.test(value) ? JSON.stringify(value) : value;
}

function readText(field: string): string | undefined {
	if (field === "") return undefined;
	if (field.charCodeAt(0) !== 34 /* " */) return field;
	const value: unknown = JSON.parse(field);
	if (typeof value !== "string") throw new SyntaxError("not a text");
	return value;
}

function readNumber(field: string): number | undefined {
	if (field === "") return undefined;
	const n = Number(field);
	return Number.isFinite(n) ? n : Number.NaN;
}

/** A note of the copy as one line (no line break in it). */
export function encodeRow(path: string, note: CachedNote): string {
	const entry = note.entry;
	const rest = entry instanceof DeferredEntry ? entry.rest : restOf(entry);
	return [textField(path), String(note.size), String(note.mtime), textField(note.id), note.changed === undefined ? "" : String(note.changed), textField(entry.messageId), textField(entry.traceId), textField(entry.inReplyTo), rest].join("\t");
}

/** The JSON of an entry's fields other than its path, location and keys (which the row's head holds). */
function restOf(entry: IndexEntry): string {
	const { path: _path, location: _location, messageId: _id, traceId: _trace, inReplyTo: _reply, ...rest } = entry;
	return JSON.stringify(rest);
}

/** Fields in a row's head, before the rest. */
const HEAD_FIELDS = 8;

/**
 * Reads the line of the copy that `text` holds from `from` to `end` (the line break, or the text's
 * end) into its path and note, the entry deferred (its rest is parsed when first asked for); null
 * when the line is not one this format writes (the copy is then not used). Reads in place: a year
 * of history makes no string per line.
 */
export function decodeRow(text: string, from = 0, end = text.length): { path: string; note: CachedNote } | null {
	const head: string[] = new Array<string>(HEAD_FIELDS);
	let at = from;
	for (let i = 0; i < HEAD_FIELDS; i++) {
		const tab = text.indexOf("\t", at);
		if (tab < 0 || tab >= end) return null;
		head[i] = text.slice(at, tab);
		at = tab + 1;
	}
	if (text.charCodeAt(at) !== 123 /* { */ || text.charCodeAt(end - 1) !== 125 /* } */ || end - at < 2) return null;
	try {
		const path = readText(head[0]);
		const size = readNumber(head[1]);
		const mtime = readNumber(head[2]);
		const changed = readNumber(head[4]);
		if (path === undefined || size === undefined || mtime === undefined || Number.isNaN(size) || Number.isNaN(mtime) || Number.isNaN(changed)) return null;
		const entry = new DeferredEntry(path, readText(head[5]), readText(head[6]), readText(head[7]), text.slice(at, end));
		return { path, note: { size, mtime, id: readText(head[3]), changed, entry } };
	} catch {
		// A malformed JSON text.
		return null;
	}
}

/** The rows of a copy's text from `from` on, one a line; null in place of a line that is none (the copy is then not used). */
export function* decodeRows(text: string, from = 0): Generator<{ path: string; note: CachedNote } | null> {
	while (from < text.length) {
		const end = text.indexOf("\n", from);
		const stop = end < 0 ? text.length : end;
		yield decodeRow(text, from, stop);
		from = stop + 1;
	}
}
