import type { IndexEntry } from "../core/message-index";
import type { HistoryCacheStore } from "./history-cache";
import { HistoryFromCopy } from "./history-from-copy";
import type { HistoryIndexing } from "./history-folder-pass";

// The history (archives and the dead-letter folder, which grow for ever) read into the message index
// only when a decision needs it: whole, or, from the device-local copy, only what decisions about
// some keys can ask for. A read that failed part way is never kept: no decision may take part of
// the history for all of it.

/** What reading the history uses of the index it fills (src/router/index-sync.ts). */
export interface HistoryHost extends HistoryIndexing {
	/** Indexes a folder's files; with `newOnly`, only files the index does not hold yet (and drops the gone). */
	indexFolder(folder: string, newOnly?: boolean): Promise<void>;
	/** Reads one note again and indexes it. */
	refreshOne(path: string): Promise<IndexEntry | undefined>;
}

export class HistoryOnDemand {
	private loaded = false;
	/** Set once the whole history was asked for (ensure): a read of it that failed is tried again by rescan. */
	private wanted = false;
	/** The history read from the device-local copy, when there is one. */
	private readonly fromCopy: HistoryFromCopy | null;

	constructor(
		private readonly sync: HistoryHost,
		historyCache: HistoryCacheStore | undefined,
	) {
		this.fromCopy = historyCache ? new HistoryFromCopy(sync, historyCache) : null;
	}

	/** True once the whole history is read. */
	get isLoaded(): boolean {
		return this.loaded;
	}

	/** True while only the notes of some keys are read of the history (ensureFor). */
	get isPartial(): boolean {
		return this.fromCopy?.isPartial ?? false;
	}

	/** Forgets that the history was read or asked for (the index itself is cleared by its owner). */
	clear(): void {
		this.loaded = false;
		this.wanted = false;
		this.fromCopy?.clear();
	}

	/**
	 * Reads the history (once; later changes come through `refresh`). With `saveLater`, the copy of
	 * what was read is saved after it returns (a router routes first): `copySaved` waits for it.
	 */
	async ensure(options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.loaded) return;
		this.loaded = true;
		this.wanted = true;
		try {
			if (this.fromCopy) await this.fromCopy.readAll(options);
			else for (const folder of await this.sync.historyFolders()) await this.sync.indexFolder(folder);
		} catch (error) {
			// A read that failed part way is not kept: no decision may take part of the history for all of it.
			this.forget();
			throw error;
		}
	}

	/**
	 * Reads of the history only what decisions about notes with these keys can ask for, where the
	 * copy and the adapter allow it (src/router/history-from-copy.ts), else the whole history.
	 */
	async ensureFor(keys: ReadonlySet<string>, options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.loaded || this.isPartial) return;
		let read: boolean | undefined;
		try {
			read = await this.fromCopy?.readFor(keys);
		} catch (error) {
			// What it indexed before it failed is not kept either: no event would keep it up to date.
			this.forget();
			throw error;
		}
		if (!read) await this.ensure(options);
	}

	/**
	 * Runs a (pure) decision. One that asks a partly read history about a key it was not read for is
	 * made again once the history is all read; one that met a damaged row of the copy is made again
	 * once those notes are read from the vault.
	 */
	async decide<T>(decision: () => T): Promise<T> {
		// After a read of the history failed (and was forgotten), the next decision reads it again first.
		if (!this.loaded && !this.isPartial) await this.ensure({ saveLater: true });
		for (;;) {
			const result = this.fromCopy?.isPartial ? await this.fromCopy.decide(decision, () => this.ensure({ saveLater: true })) : decision();
			const damaged = this.sync.index.takeDamaged();
			if (damaged.length === 0) return result;
			// Read from the vault, a note is held as made: it cannot be found damaged again.
			for (const path of damaged) await this.sync.refreshOne(path);
		}
	}

	/** Re-lists the history's folders once it is read (with `newOnly`, files already indexed are not read again). */
	async rescan(newOnly: boolean): Promise<void> {
		if (this.loaded) for (const folder of await this.sync.historyFolders()) await this.sync.indexFolder(folder, newOnly);
		// A read of the whole history that failed (and was forgotten) is tried again.
		else if (this.wanted && !this.isPartial) await this.ensure();
	}

	/**
	 * Brings the history copy up to date with what the router and others archived since it was saved
	 * (at most every few minutes, once the whole history is read), to save it as `ensure` does.
	 */
	async refreshCopy(options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.loaded) await this.fromCopy?.refresh(options);
	}

	/**
	 * Forgets a history read only in part (a pass that stopped before it read the rest, its lease
	 * lost): vault events are not followed for it meanwhile, so the next pass reads it anew.
	 */
	abandonPartial(): void {
		if (this.isPartial) this.forget();
	}

	/** Drops every history entry and what the copy's reading held: the history is read anew when next needed. */
	private forget(): void {
		this.loaded = false;
		this.fromCopy?.clear();
		const layout = this.sync.layout();
		const history = this.sync.index.pathsWhere((path) => {
			const location = layout.locate(path);
			return location.area === "dead-letter" || (location.area === "box" && location.box === "archive");
		});
		for (const path of history) this.sync.index.remove(path);
	}

	/** Waits for the history copy `ensure` left to save (at once when there is none). */
	copySaved(): Promise<void> {
		return this.fromCopy?.saved() ?? Promise.resolve();
	}
}
