import { SplitMap } from "../core/split-map";
import type { CachedNote, CopyPart, HistoryCacheStore, PartRows } from "./history-cache";
import { noChanges, sameDigests, wholeListings } from "./history-changes";
import type { HistoryChanges } from "./history-changes";
import { listingDigest, visitedDigest } from "./history-digest";
import { indexFolder, paused, walkFolder } from "./history-folder-pass";
import type { HistoryIndexing } from "./history-folder-pass";

// The history (archives, dead letters) indexed from the device-local copy of an earlier start
// (src/router/history-cache.ts): a note is taken from the copy while its file is the one it was read
// from, and read again otherwise, so that nothing differs from a full read.
//
// Each folder is indexed as src/router/history-folder-pass.ts tells. Where the copy is split by
// folder (both hosts' copies are: src/router/parted-history-copy.ts), a start with notes waiting
// reads first only what decisions about them can ask for (`readFor`): the saved notes that share a
// key (message id, trace id, in_reply_to) with them, and every note the copy no longer vouches for.
// A folder whose listing has the digest its part was saved with is vouched for whole, and its part
// is read only when its key filter may hold one of those keys; so a start on a history that did not
// change reads no part at all (a folder's digest is taken from the file facts the adapter holds where
// it holds them, `eachFileIn`, as Obsidian does; else from the folder's listing). While only that is
// read, `decide` stops any decision that asks the index about another key (before it did anything:
// decisions are pure), reads the rest, and makes it again: decisions are the same as on the whole
// history, by construction. The rest (`readAll`) follows once the waiting notes are routed.

/** The copy as far as it is loaded: its rows by path, with the notes read since in place of theirs. */
interface LoadedCopy {
	/** Split (src/core/split-map.ts) where the store is split by folder: parts are added to it one by one, between yields, and none makes a table of the whole history be copied at once. A store's copy that is not split comes as one Map. */
	rows: Map<string, CachedNote> | SplitMap<CachedNote>;
	/** A copy split by folder: its parts, and the folders whose part was loaded (or found unusable). */
	parts: ReadonlyMap<string, CopyPart> | null;
	loaded: Set<string>;
	/** False when there was no usable copy. */
	existed: boolean;
}

/** The copy as last saved or found up to date: its rows, the digests of its folders (null: a store not split by folder), and when. */
interface CurrentCopy {
	/** As loaded, or as a save kept them (always split: src/core/split-map.ts). */
	rows: Map<string, CachedNote> | SplitMap<CachedNote>;
	digests: ReadonlyMap<string, string | null> | null;
	at: number;
}

/** How long the copy may lag behind the history while a router runs (its next start reads what it lacks). */
const REFRESH_MS = 10 * 60_000;

/** The history read for some keys only (readFor), until the rest is read. */
interface PartialHistory {
	copy: LoadedCopy;
	keys: ReadonlySet<string>;
	reads: number;
}

/** Thrown by a decision that asks the partly read history about a key it was not read for. */
class HistoryNeeded extends Error {
	constructor(key: string) {
		super(`the history is not read yet for ${key}`);
	}
}

export class HistoryFromCopy {
	private partial: PartialHistory | null = null;
	/** The saving of the copy, once started. */
	private copySaving: Promise<void> = Promise.resolve();
	/** The saving of the copy that `readAll` left for `saved` to start (after the pass routed its notes). */
	private pendingSave: (() => Promise<void>) | null = null;
	/** The copy `readFor` found missing or unusable, for `readAll` (which reads every note then). */
	private unusable: LoadedCopy | null = null;
	/** The copy as last saved or found up to date, once the whole history is read. */
	private current: CurrentCopy | null = null;

	constructor(
		private readonly sync: HistoryIndexing,
		private readonly cache: HistoryCacheStore,
	) {}

	get isPartial(): boolean {
		return this.partial !== null;
	}

	clear(): void {
		this.partial = null;
		this.pendingSave = null;
		this.unusable = null;
		this.current = null;
	}

	/** Saves the copy `readAll` left to save, if any, and waits for it. Never fails: a store reports its own problems. */
	saved(): Promise<void> {
		const save = this.pendingSave;
		if (save) {
			this.pendingSave = null;
			this.copySaving = this.copySaving.then(save).catch(() => undefined);
		}
		return this.copySaving;
	}

	/** Indexes the whole history (after `readFor`, the rest of it); with `saveLater` the copy is saved by `saved`, not now. */
	async readAll(options: { saveLater?: boolean }): Promise<void> {
		const partial = this.partial;
		this.partial = null;
		// The whole copy is saved below when it changed: the parts `readFor` found changed are among it.
		this.pendingSave = null;
		const copy = partial?.copy ?? this.unusable ?? (await this.loadCopy());
		this.unusable = null;
		const changes = noChanges(partial?.reads ?? 0);
		const folders = await this.sync.historyFolders();
		for (const folder of folders) {
			await this.loadPart(copy, folder);
			await indexFolder(this.sync, folder, copy.rows, changes, true);
		}
		const digests = copy.parts ? new Map([...copy.parts].map(([folder, part]) => [folder, part.digest])) : null;
		await this.settle({ rows: copy.rows, digests, at: this.sync.now() }, changes, copy.existed, folders, options);
	}

	/**
	 * Brings the copy up to date with the history once REFRESH_MS have passed since it was last
	 * saved or found up to date (after `readAll`): the notes archived since and those changed are
	 * read, so that the next start need not read them before its first delivery. Saves as `readAll`.
	 */
	async refresh(options: { saveLater?: boolean }): Promise<void> {
		const current = this.current;
		if (!current || this.partial || this.sync.now() - current.at < REFRESH_MS) return;
		current.at = this.sync.now();
		const changes = noChanges(0);
		const folders = await this.sync.historyFolders();
		for (const folder of folders) await indexFolder(this.sync, folder, current.rows, changes, false);
		await this.settle(current, changes, true, folders, options);
	}

	/** Saves the copy as `changes` leave it (unless it is up to date), and keeps it as the copy to refresh later. */
	private async settle(copy: CurrentCopy, changes: HistoryChanges, existed: boolean, folders: readonly string[], options: { saveLater?: boolean }): Promise<void> {
		this.current = copy;
		if (changes.reads === 0 && existed && changes.used === copy.rows.size && sameDigests(copy.digests, changes.digests, folders)) return;
		this.pendingSave = async () => {
			const kept = await this.keptFrom(copy.rows, changes);
			const digests = wholeListings(kept, changes.digests);
			this.current = { rows: kept, digests, at: this.sync.now() };
			return this.cache.save(kept, digests);
		};
		if (!options.saveLater) await this.saved();
	}

	/**
	 * Indexes of the history only what decisions about notes with these keys can ask for (see above).
	 * False, having indexed nothing, where it cannot: no copy, or an adapter that cannot list a
	 * folder's files with their facts (`listInfo`).
	 */
	async readFor(keys: ReadonlySet<string>): Promise<boolean> {
		const { port } = this.sync;
		const listInfo = port.listInfo?.bind(port);
		if (!listInfo) return false;
		const copy = await this.loadCopy();
		// Without a copy every note is read anyway (by readAll, which takes this one as it is).
		if (!copy.existed) {
			this.unusable = copy;
			return false;
		}
		const { index } = this.sync;
		const layout = this.sync.layout();
		const shares = (e: { messageId?: string; traceId?: string; inReplyTo?: string }) =>
			(e.messageId !== undefined && keys.has(e.messageId)) || (e.traceId !== undefined && keys.has(e.traceId)) || (e.inReplyTo !== undefined && keys.has(e.inReplyTo));
		let reads = 0;
		const walkedParts = new Map<string, PartRows>();
		const folders = await this.sync.historyFolders();
		// The part of a folder that is gone (a month folder someone removed) is dropped at the pass's end.
		const listed = new Set(folders);
		for (const folder of copy.parts?.keys() ?? []) if (!listed.has(folder)) walkedParts.set(folder, { rows: [], digest: null });
		for (const folder of folders) {
			const location = layout.locate(`${folder}/note.md`);
			const part = copy.parts?.get(folder);
			// Most folders did not change. Where the adapter holds its files' facts, a folder's digest is
			// taken without a FileInfo made per file; elsewhere from its listing, which is then checked below.
			const listing = port.eachFileIn ? null : await listInfo(folder);
			if (part?.digest && part.digest === (listing ? listingDigest(folder, listing) : visitedDigest((visit) => port.eachFileIn?.(folder, visit)))) {
				// Vouched for whole: only a part that may hold a key is read, and of it only the notes that do.
				await paused(this.sync);
				if (![...keys].some((key) => part.filter.mayHold(key))) continue;
				const rows = await this.loadPart(copy, folder);
				if (rows) {
					for (const note of rows.values()) {
						if (!shares(note.entry)) continue;
						note.entry.location = location;
						index.set(note.entry);
					}
					continue;
				}
			} else if (part) await this.loadPart(copy, folder);
			const infos = listing ?? (await listInfo(folder));
			// The folder's part as this walk finds it, and whether the copy may vouch for its listing.
			const walked: PartRows = { rows: [], digest: null };
			const readsBefore = reads;
			const whole = await walkFolder(this.sync, folder, infos, infos.map((info) => info.path), {
				saved: (path) => copy.rows.get(path),
				same(path, cached) {
					walked.rows.push([path, cached]);
					if (shares(cached.entry)) {
						cached.entry.location = location;
						index.set(cached.entry);
					}
				},
				read(path, note) {
					reads++;
					// readAll takes this note as read now (or reads it again when its times are too recent).
					if (note) {
						copy.rows.set(path, note);
						walked.rows.push([path, note]);
					}
				},
			});
			if (whole && walked.rows.length > 0) walked.digest = listingDigest(folder, infos);
			// A folder whose part is not as the walk found it gets it at the pass's end (a pass that reads the rest saves the whole copy instead).
			if (reads > readsBefore || (part?.digest ?? null) !== walked.digest || (!part && walked.rows.length > 0)) walkedParts.set(folder, walked);
		}
		this.partial = { copy, keys, reads };
		const saveParts = this.cache.saveParts?.bind(this.cache);
		if (walkedParts.size > 0 && saveParts) this.pendingSave = () => saveParts(walkedParts);
		return true;
	}

	/** Runs a decision on the partly read history; `readRest` reads the rest when the decision asks about another key. */
	async decide<T>(decision: () => T, readRest: () => Promise<void>): Promise<T> {
		const partial = this.partial;
		if (partial) {
			this.sync.index.lookupGuard = (_kind, key) => {
				if (!partial.keys.has(key)) throw new HistoryNeeded(key);
			};
			try {
				return decision();
			} catch (error) {
				if (!(error instanceof HistoryNeeded)) throw error;
			} finally {
				this.sync.index.lookupGuard = null;
			}
			await readRest();
		}
		return decision();
	}

	/** The copy as the store has it: split by folder (its summary now, its parts as `loadPart` asks for them) or whole. */
	private async loadCopy(): Promise<LoadedCopy> {
		if (this.cache.loadSummary) {
			const parts = await this.cache.loadSummary();
			return { rows: new SplitMap<CachedNote>(), parts, loaded: new Set(), existed: parts !== null };
		}
		const rows = await this.cache.load();
		return { rows: rows ?? new Map<string, CachedNote>(), parts: null, loaded: new Set(), existed: rows !== null };
	}

	/** Adds a folder's part to the loaded copy (once): its rows, or null when it has none or it cannot be used. */
	private async loadPart(copy: LoadedCopy, folder: string): Promise<Map<string, CachedNote> | null> {
		if (!copy.parts?.has(folder) || copy.loaded.has(folder) || !this.cache.loadPart) return null;
		copy.loaded.add(folder);
		const rows = await this.cache.loadPart(folder);
		if (rows) for (const [path, note] of rows) if (!copy.rows.has(path)) copy.rows.set(path, note);
		return rows;
	}

	/** What the copy keeps: the saved notes still indexed and not read again, and the notes read. */
	private async keptFrom(saved: ReadonlyMap<string, CachedNote>, changes: HistoryChanges): Promise<SplitMap<CachedNote>> {
		const kept = new SplitMap<CachedNote>();
		let visited = 0;
		for (const [path, note] of saved) {
			if (!changes.replaced.has(path) && this.sync.index.has(path)) kept.set(path, note);
			if ((++visited & 1023) === 0 && this.sync.dueToYield()) await this.sync.yieldNow();
		}
		for (const [path, note] of changes.read) kept.set(path, note);
		return kept;
	}
}
