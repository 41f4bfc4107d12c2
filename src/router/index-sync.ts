import { ignoreReason } from "../core/ignore";
import type { Location, VaultLayout } from "../core/layout";
import { MessageIndex, entryFromRaw } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { isMessagePath, readRawMessage } from "../core/message-parse";
import { MAX_FRONTMATTER_BYTES } from "../core/protocol";
import { cacheable, stillTheSame } from "./history-cache";
import type { CachedNote, HistoryCacheStore } from "./history-cache";
import type { VaultPort } from "./vault-port";

// Keeps the message index in step with the vault. The live part (every group's inbox, and the
// outboxes, which are only counted until the router reads a note to route it) is read at start. The
// history (archives and the dead-letter folder, which grow for ever) is read only when a decision
// needs it: a pass with nothing to route never reads it, so routing costs the same on a vault with
// years of history as on a new one. Of a history note only its head is read: the frontmatter.

/** Enough of a note for its frontmatter (at most 8 KB, rule 3) and a quarantine block above it. */
const HEAD_BYTES = 4 * MAX_FRONTMATTER_BYTES;

export interface IndexSyncOptions {
	/** Called every few milliseconds of indexing work, so that a host app can stay responsive. */
	yieldNow?: () => Promise<void>;
	clock?: () => number;
	/** A device-local copy of the history's entries, so that only notes that changed are read (src/router/history-cache.ts). */
	historyCache?: HistoryCacheStore;
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

/** Well under a frame budget of 50 ms, with room for the note being read and a collection. */
const YIELD_AFTER_MS = 10;

export class IndexSync {
	readonly index = new MessageIndex();
	private liveLoaded = false;
	private historyLoaded = false;
	private lastYield = 0;

	constructor(
		private readonly port: VaultPort,
		private readonly layout: () => VaultLayout,
		private readonly options: IndexSyncOptions = {},
	) {}

	get hasHistory(): boolean {
		return this.historyLoaded;
	}

	/** Forgets everything (the registry or the root folder changed). */
	clear(): void {
		this.index.clear();
		this.liveLoaded = false;
		this.historyLoaded = false;
	}

	private liveFolders(): string[] {
		const layout = this.layout();
		return layout.groupIds().flatMap((g) => [layout.box(g, "inbox") as string, layout.box(g, "outbox") as string]);
	}

	/**
	 * The history's folders, one by one: each group's archive and its month folders
	 * (`archive/YYYY-MM/`, oldest first), then the dead-letter folder.
	 */
	private async historyFolders(): Promise<string[]> {
		const layout = this.layout();
		const folders: string[] = [];
		for (const group of layout.groupIds()) folders.push(...(await this.archiveFolders(group)));
		folders.push(layout.deadLetterFolder);
		return folders;
	}

	/** A group's archive and its month folders (oldest first): every folder its archived notes are in. */
	async archiveFolders(group: string): Promise<string[]> {
		const layout = this.layout();
		const archive = layout.box(group, "archive");
		if (archive === null) return [];
		const months = (await this.port.listFolders(archive)).filter((f) => layout.isArchiveMonth(f)).sort();
		return [archive, ...months];
	}

	/** Reads the live part of the index (once; later changes come through `refresh`). */
	async ensureLive(): Promise<void> {
		if (this.liveLoaded) return;
		this.liveLoaded = true;
		for (const folder of this.liveFolders()) await this.indexFolder(folder);
	}

	/** The saving of the history copy that `ensureHistory` left under way, if any. */
	private copySaving: Promise<void> = Promise.resolve();

	/**
	 * Reads the history (once; later changes come through `refresh`). With `saveLater`, the copy of
	 * what was read is saved after it returns (a router routes first): `historyCopySaved` waits for it.
	 */
	async ensureHistory(options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.historyLoaded) return;
		this.historyLoaded = true;
		const cache = this.options.historyCache;
		if (!cache) {
			for (const folder of await this.historyFolders()) await this.indexFolder(folder);
			return;
		}
		const loaded = await cache.load();
		const saved = loaded ?? new Map<string, CachedNote>();
		const changes: HistoryChanges = { read: new Map(), replaced: new Set(), used: 0, reads: 0 };
		for (const folder of await this.historyFolders()) await this.indexHistoryFolder(folder, saved, changes);
		if (changes.reads === 0 && loaded !== null && changes.used === saved.size) return;
		this.copySaving = this.copySaving.then(() => cache.save(this.keptFrom(saved, changes)));
		if (!options.saveLater) await this.copySaving;
	}

	/** Waits for the history copy `ensureHistory` left to save (at once when there is none). */
	historyCopySaved(): Promise<void> {
		return this.copySaving;
	}

	/** What the copy keeps: the saved notes still indexed and not read again, and the notes read. */
	private keptFrom(saved: ReadonlyMap<string, CachedNote>, changes: HistoryChanges): Map<string, CachedNote> {
		const kept = new Map<string, CachedNote>();
		for (const [path, note] of saved) if (!changes.replaced.has(path) && this.index.has(path)) kept.set(path, note);
		for (const [path, note] of changes.read) kept.set(path, note);
		return kept;
	}

	/**
	 * Indexes a history folder's notes, each from the saved copy when the note is the one the copy
	 * was read from, else read (its head); counts in `changes` what it took and what it read.
	 */
	private async indexHistoryFolder(folder: string, saved: ReadonlyMap<string, CachedNote>, changes: HistoryChanges): Promise<void> {
		const layout = this.layout();
		const readAt = (this.options.clock ?? Date.now)();
		// The notes directly in one history folder share one location.
		const location = layout.locate(`${folder}/note.md`);
		const infos = this.port.listInfo ? await this.port.listInfo(folder) : null;
		const listed = infos ? infos.map((info) => info.path) : await this.port.list(folder);
		for (let i = 0; i < listed.length; i++) {
			const path = listed[i];
			// A saved path passed the filters below when it was saved (they look at the path alone).
			const cached = saved.get(path);
			if (!cached && (ignoreReason(path) || !isMessagePath(path))) continue;
			const info = cached ? (infos ? infos[i] : await this.port.stat(path)) : null;
			if (info && stillTheSame(cached, info)) {
				cached.entry.location = location;
				this.index.set(cached.entry);
				changes.used++;
				if (this.dueToYield()) await this.yieldNow();
				continue;
			}
			if (cached) changes.replaced.add(path);
			changes.reads++;
			const read = await this.port.read(path, { maxBytes: HEAD_BYTES });
			if (!read) {
				this.index.remove(path);
				continue;
			}
			const note = cacheable(this.indexText(path, read.text), read.info, readAt);
			if (note) changes.read.set(path, note);
			await this.maybeYield();
		}
		this.dropGone(folder, new Set(listed));
	}

	/** Indexes a folder's files; with `newOnly`, only files the index does not hold yet (and drops the gone). */
	private async indexFolder(folder: string, newOnly = false): Promise<void> {
		const listed = new Set(await this.port.list(folder));
		for (const path of listed) {
			if (newOnly && this.index.has(path)) continue;
			await this.refreshOne(path, true);
			await this.maybeYield();
		}
		this.dropGone(folder, listed);
	}

	/** Drops the entries of a folder's notes that are no longer listed (the whole index is walked only when there are some). */
	private dropGone(folder: string, listed: ReadonlySet<string>): void {
		let held = 0;
		for (const path of listed) if (this.index.has(path)) held++;
		if (held === this.index.countInFolder(folder)) return;
		for (const path of [...this.index.paths()]) {
			if (path.startsWith(`${folder}/`) && !listed.has(path) && !path.slice(folder.length + 1).includes("/")) this.index.remove(path);
		}
	}

	private async maybeYield(): Promise<void> {
		if (this.dueToYield()) await this.yieldNow();
	}

	/** True when indexing has kept the host busy for YIELD_AFTER_MS (checked without a promise per note). */
	private dueToYield(): boolean {
		return this.options.yieldNow !== undefined && (this.options.clock ?? Date.now)() - this.lastYield >= YIELD_AFTER_MS;
	}

	private async yieldNow(): Promise<void> {
		await this.options.yieldNow?.();
		this.lastYield = (this.options.clock ?? Date.now)();
	}

	/** True when the index covers `location` now (history folders only once the history is read). */
	private covers(location: Location): boolean {
		if (location.area === "dead-letter") return this.historyLoaded;
		if (location.area !== "box") return false;
		return location.box === "archive" ? this.historyLoaded : this.liveLoaded;
	}

	/** Brings one path up to date: read again, counted (an outbox note), or dropped when gone. */
	async refresh(path: string): Promise<IndexEntry | undefined> {
		const location = this.layout().locate(path);
		if (!this.covers(location)) return undefined;
		return this.refreshOne(path);
	}

	/**
	 * Re-lists every folder the index covers. With `newOnly`, files already indexed are not read
	 * again (a router that gets change events for them): the cheap check a watcher falls back on.
	 */
	async rescan(newOnly = false, withHistory = true): Promise<void> {
		for (const folder of this.liveFolders()) await this.indexFolder(folder, newOnly);
		if (this.historyLoaded && withHistory) for (const folder of await this.historyFolders()) await this.indexFolder(folder, newOnly);
	}

	/** `listed`: the path was just listed, so it exists (an outbox note is then not looked up again). */
	private async refreshOne(path: string, listed = false): Promise<IndexEntry | undefined> {
		const location = this.layout().locate(path);
		if ((location.area !== "box" && location.area !== "dead-letter") || ignoreReason(path) || !isMessagePath(path)) {
			this.index.remove(path);
			return undefined;
		}
		if (location.area === "box" && location.box === "outbox") {
			// Outbox notes are read when they are routed; until then the index only counts them.
			if (!listed && !(await this.port.stat(path))) {
				this.index.remove(path);
				return undefined;
			}
			const entry: IndexEntry = { path, location, kind: null, route: [] };
			this.index.set(entry);
			return entry;
		}
		const read = await this.port.read(path, { maxBytes: HEAD_BYTES });
		if (!read) {
			this.index.remove(path);
			return undefined;
		}
		return this.indexText(path, read.text, location);
	}

	/** Indexes a note from text the caller has (what the router just wrote, or read). */
	indexText(path: string, text: string, location = this.layout().locate(path)): IndexEntry {
		const parsed = readRawMessage(text, path, false);
		const entry: IndexEntry = parsed.ok ? entryFromRaw(path, location, parsed.raw) : { path, location, kind: null, route: [] };
		this.index.set(entry);
		return entry;
	}

	/** Indexes a note from the fields the router just wrote, without reading it again. */
	indexFields(path: string, fields: Record<string, unknown>): IndexEntry {
		const entry = entryFromRaw(path, this.layout().locate(path), { fields, payload: {}, format: "flat", frontmatterBytes: 0 });
		this.index.set(entry);
		return entry;
	}

	remove(path: string): void {
		this.index.remove(path);
	}
}
