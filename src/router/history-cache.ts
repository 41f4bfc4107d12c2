import type { IndexEntry } from "../core/message-index";
import type { FileInfo } from "./vault-port";

// A device-local copy of what the index learnt from the history (archives and dead letters), so
// that a router starting on a vault with years of history reads only the notes that changed since.
// The copy is a cache, never a source: an entry is used only for a note whose size, modification
// time and identity are those it was read with, every other note is read again, and a missing,
// stale or unreadable copy only costs the reads it would have saved. It is kept outside the vault
// (the CLI's under the user's cache folder), where no agent writing into the vault can reach it.

/**
 * The format of a saved copy: a copy of another format is not used. It changes whenever what the
 * index reads from a note changes (the fields of IndexEntry, or how entryFromRaw reads them).
 */
export const HISTORY_CACHE_FORMAT = 3;

/** What the index holds of one note, with the file facts it was read from. */
export interface CachedNote {
	size: number;
	mtime: number;
	/** The file's identity when the adapter knows one (device and inode for Node). */
	id?: string;
	/** The file's ctime when the adapter knows it. */
	changed?: number;
	/** The entry as the index holds it (its location is set anew from its path when it is used). */
	entry: IndexEntry;
}

export interface HistoryCacheStore {
	/** The copy last saved, by vault path; null when there is none (or it cannot be used). Never throws. */
	load(): Promise<Map<string, CachedNote> | null>;
	/** Replaces the copy. Never throws: a copy that cannot be saved is the store's to report, and routing goes on. */
	save(notes: ReadonlyMap<string, CachedNote>): Promise<void>;
}

/** True when `cached` was read from the file `info` describes now. */
export function stillTheSame(cached: CachedNote | undefined, info: FileInfo): cached is CachedNote {
	return cached !== undefined && cached.size === info.size && cached.mtime === info.mtime && cached.id === info.id && cached.changed === info.changed;
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
