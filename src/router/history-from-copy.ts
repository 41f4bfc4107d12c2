import { ignoreReason } from "../core/ignore";
import type { Location, VaultLayout } from "../core/layout";
import type { IndexEntry, MessageIndex } from "../core/message-index";
import { isMessagePath } from "../core/message-parse";
import { cacheable, stillTheSame } from "./history-cache";
import type { CachedNote, HistoryCacheStore } from "./history-cache";
import type { VaultPort } from "./vault-port";

// The history (archives, dead letters) indexed from the device-local copy of an earlier start
// (src/router/history-cache.ts): a note is taken from the copy while its file is the one it was read
// from, and read again otherwise, so that nothing differs from a full read.
//
// Where the adapter tells a whole folder's file facts at once (the plugin's: Obsidian keeps every
// file's size and mtime), a start with notes waiting reads first only what decisions about them
// can ask for (`readFor`): the saved notes that share a key (message id, trace id, in_reply_to)
// with them, and every note the copy no longer vouches for. While only that is read, `decide` stops
// any decision that asks the index about another key (before it did anything: decisions are pure),
// reads the rest, and makes it again: decisions are the same as on the whole history, by
// construction. The rest (`readAll`) follows once the waiting notes are routed.

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
	/** Bytes enough for a note's head. */
	readonly headBytes: number;
}

/** What a start took from the history copy, and what it read instead. */
interface HistoryChanges {
	/** Notes read (their heads), as the copy will keep them. */
	read: Map<string, CachedNote>;
	/** Saved notes that were read again (they changed). */
	replaced: Set<string>;
	/** Saved notes taken as they were. */
	used: number;
	reads: number;
}

/** The history read for some keys only (readFor), until the rest is read. */
interface PartialHistory {
	/** The copy as loaded, with the notes read since in place of their saved rows. */
	saved: Map<string, CachedNote>;
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
		const loaded = partial ? partial.saved : await this.cache.load();
		const saved = loaded ?? new Map<string, CachedNote>();
		const changes: HistoryChanges = { read: new Map(), replaced: new Set(), used: 0, reads: partial?.reads ?? 0 };
		for (const folder of await this.sync.historyFolders()) await this.indexFolder(folder, saved, changes);
		if (changes.reads === 0 && loaded !== null && changes.used === saved.size) return;
		this.pendingSave = () => this.cache.save(this.keptFrom(saved, changes));
		if (!options.saveLater) await this.saved();
	}

	/**
	 * Indexes of the history only what decisions about notes with these keys can ask for (see above).
	 * False, having indexed nothing, where it cannot: no copy, or an adapter without `listInfo`.
	 */
	async readFor(keys: ReadonlySet<string>): Promise<boolean> {
		const listInfo = this.sync.port.listInfo?.bind(this.sync.port);
		if (!listInfo) return false;
		const saved = await this.cache.load();
		// Without a copy every note is read anyway.
		if (saved === null) return false;
		const { index } = this.sync;
		const layout = this.sync.layout();
		const readAt = this.sync.now();
		const shares = (e: { messageId?: string; traceId?: string; inReplyTo?: string }) =>
			(e.messageId !== undefined && keys.has(e.messageId)) || (e.traceId !== undefined && keys.has(e.traceId)) || (e.inReplyTo !== undefined && keys.has(e.inReplyTo));
		let reads = 0;
		for (const folder of await this.sync.historyFolders()) {
			const location = layout.locate(`${folder}/note.md`);
			for (const info of await listInfo(folder)) {
				const path = info.path;
				const cached = saved.get(path);
				if (!cached && (ignoreReason(path) || !isMessagePath(path))) continue;
				if (cached && stillTheSame(cached, info)) {
					if (shares(cached.entry)) {
						cached.entry.location = location;
						index.set(cached.entry);
					}
				} else {
					reads++;
					const note = await this.readHead(path, location, readAt);
					// readAll takes this note as read now (or reads it again when its times are too recent).
					if (note) saved.set(path, note);
				}
				if (this.sync.dueToYield()) await this.sync.yieldNow();
			}
		}
		this.partial = { saved, keys, reads };
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

	/**
	 * Reads a history note's head and indexes it; the entry as the copy may keep it, null when its
	 * times are too recent to vouch for it or when the note is gone (its entry is then dropped).
	 */
	private async readHead(path: string, location: Location, readAt: number): Promise<CachedNote | null> {
		const read = await this.sync.port.read(path, { maxBytes: this.sync.headBytes });
		if (!read) {
			this.sync.index.remove(path);
			return null;
		}
		return cacheable(this.sync.indexText(path, read.text, location), read.info, readAt);
	}

	/** What the copy keeps: the saved notes still indexed and not read again, and the notes read. */
	private keptFrom(saved: ReadonlyMap<string, CachedNote>, changes: HistoryChanges): Map<string, CachedNote> {
		const kept = new Map<string, CachedNote>();
		for (const [path, note] of saved) if (!changes.replaced.has(path) && this.sync.index.has(path)) kept.set(path, note);
		for (const [path, note] of changes.read) kept.set(path, note);
		return kept;
	}

	/**
	 * Indexes a history folder's notes, each from the saved copy when the note is the one the copy
	 * was read from, else read (its head); counts in `changes` what it took and what it read.
	 */
	private async indexFolder(folder: string, saved: ReadonlyMap<string, CachedNote>, changes: HistoryChanges): Promise<void> {
		const { index, port } = this.sync;
		const readAt = this.sync.now();
		// The notes directly in one history folder share one location.
		const location = this.sync.layout().locate(`${folder}/note.md`);
		const infos = port.listInfo ? await port.listInfo(folder) : null;
		const listed = infos ? infos.map((info) => info.path) : await port.list(folder);
		for (let i = 0; i < listed.length; i++) {
			const path = listed[i];
			// A saved path passed the filters below when it was saved (they look at the path alone).
			const cached = saved.get(path);
			if (!cached && (ignoreReason(path) || !isMessagePath(path))) continue;
			const info = cached ? (infos ? infos[i] : await port.stat(path)) : null;
			if (info && stillTheSame(cached, info)) {
				cached.entry.location = location;
				index.set(cached.entry);
				changes.used++;
				if (this.sync.dueToYield()) await this.sync.yieldNow();
				continue;
			}
			if (cached) changes.replaced.add(path);
			changes.reads++;
			const note = await this.readHead(path, location, readAt);
			if (note) changes.read.set(path, note);
			if (this.sync.dueToYield()) await this.sync.yieldNow();
		}
		this.sync.dropGone(folder, new Set(listed));
	}
}
