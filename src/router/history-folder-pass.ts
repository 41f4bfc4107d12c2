import { ignoreReason } from "../core/ignore";
import type { Location, VaultLayout } from "../core/layout";
import type { IndexEntry, MessageIndex } from "../core/message-index";
import { isMessagePath } from "../core/message-parse";
import { cacheable, stillTheSame } from "./history-cache";
import type { CachedNote } from "./history-cache";
import { addPath } from "./history-changes";
import type { HistoryChanges } from "./history-changes";
import { listingDigest } from "./history-digest";
import { sameFacts } from "./vault-port";
import type { FileInfo, ReadFile, VaultPort } from "./vault-port";

// One history folder indexed from the device-local copy (src/router/history-from-copy.ts): a note
// is taken from the copy while its file is the one the copy read, and read again otherwise. The
// facts a folder's listing gave stand for its files only until the pass reads a note or yields to
// the host: other writers may change files meanwhile, so each note is then asked about as it comes,
// as a full read would.

/** What reading the history needs of the index it fills (src/router/index-sync.ts). */
export interface HistoryIndexing {
	readonly index: MessageIndex;
	readonly port: VaultPort;
	layout(): VaultLayout;
	historyFolders(): Promise<string[]>;
	indexText(path: string, text: string, location?: Location): IndexEntry;
	dropGone(folder: string, listed: ReadonlySet<string>): void;
	dueToYield(): boolean;
	yieldNow(): Promise<void>;
	now(): number;
	/** A note's head; null when gone or unreadable, the index then already as it should be. */
	readHead(path: string): Promise<ReadFile | null>;
}

/** Yields to the host when indexing has kept it busy long enough; true when it did (other writers may have acted meanwhile). */
export async function paused(sync: HistoryIndexing): Promise<boolean> {
	if (!sync.dueToYield()) return false;
	await sync.yieldNow();
	return true;
}

/**
 * Reads a history note's head and indexes it; the entry as the copy may keep it, null when its
 * times are too recent to vouch for it, when it changed during every read (its facts may not be its
 * text's), or when the note is gone or cannot be read (IndexSync.readHead).
 */
export async function readHead(sync: HistoryIndexing, path: string, location: Location, readAt: number): Promise<CachedNote | null> {
	const read = await sync.readHead(path);
	if (!read) return null;
	const entry = sync.indexText(path, read.text, location);
	return read.unsettled ? null : cacheable(entry, read.info, readAt);
}

/** What a walk over a history folder (walkFolder) does with each of its notes. */
export interface FolderVisit {
	/** The copy's row for a path, when it has one. */
	saved(path: string): CachedNote | undefined;
	/** A note whose file is the one the copy read: its row stands for it. */
	same(path: string, cached: CachedNote, location: Location): void;
	/** A note read (its head), replacing `cached` when the copy had it; `note` is null when it is not to be kept (readHead). */
	read(path: string, note: CachedNote | null, cached: CachedNote | undefined): void;
}

/**
 * Walks a history folder's notes as listed (`infos`, the listing with its facts, else the paths of
 * `listed` alone): each is taken from the copy while its file is the one the copy read, else read.
 * True when the copy may vouch for the listing: every note was taken or read with the facts listed.
 */
export async function walkFolder(sync: HistoryIndexing, folder: string, infos: readonly FileInfo[] | null, listed: readonly string[], visit: FolderVisit): Promise<boolean> {
	const readAt = sync.now();
	// The notes directly in one history folder share one location.
	const location = sync.layout().locate(`${folder}/note.md`);
	let whole = infos !== null;
	let listingCurrent = infos !== null;
	for (let i = 0; i < listed.length; i++) {
		const path = listed[i];
		// A saved path passed the filters below when it was saved (they look at the path alone).
		const cached = visit.saved(path);
		if (!cached && (ignoreReason(path) || !isMessagePath(path))) continue;
		const info = cached ? (listingCurrent && infos ? infos[i] : await sync.port.stat(path)) : null;
		// A note found otherwise than listed leaves the copy without this listing.
		if (infos && !listingCurrent && cached && !(info && sameFacts(info, infos[i]))) whole = false;
		if (cached && info && stillTheSame(cached, info)) visit.same(path, cached, location);
		else {
			const note = await readHead(sync, path, location, readAt);
			listingCurrent = false;
			visit.read(path, note, cached);
			// A note read with other facts than listed (or too recent to keep) leaves the copy without this listing.
			if (!note || !infos || !stillTheSame(note, infos[i])) whole = false;
		}
		if (await paused(sync)) listingCurrent = false;
	}
	return whole;
}

/**
 * Indexes a history folder's notes, each from the saved copy when the note is the one the copy
 * was read from, else read (its head); counts in `changes` what it took and what it read, and
 * keeps the listing's digest when the copy will hold every note of it as listed. Without
 * `reindex` (the index holds the history already), a note taken from the copy is left as indexed.
 */
export async function indexFolder(sync: HistoryIndexing, folder: string, saved: ReadonlyMap<string, CachedNote>, changes: HistoryChanges, reindex: boolean): Promise<void> {
	const { index, port } = sync;
	const infos = port.listInfo ? await port.listInfo(folder) : null;
	const listed = infos ? infos.map((info) => info.path) : await port.list(folder);
	let rows = 0;
	let paths = 0;
	const whole = await walkFolder(sync, folder, infos, listed, {
		saved: (path) => saved.get(path),
		same(path, cached, location) {
			if (reindex) {
				cached.entry.location = location;
				index.set(cached.entry);
			}
			changes.used++;
			rows++;
			paths = addPath(paths, path);
		},
		read(path, note, cached) {
			if (cached) changes.replaced.add(path);
			changes.reads++;
			if (note) changes.read.set(path, note);
			rows++;
			paths = addPath(paths, path);
		},
	});
	// A folder without notes needs no part.
	if (whole && infos && rows > 0) changes.digests.set(folder, { digest: listingDigest(folder, infos), rows, paths });
	sync.dropGone(folder, new Set(listed));
}
