import { ignoreReason } from "../core/ignore";
import type { Location, VaultLayout } from "../core/layout";
import { MessageIndex, entryFromRaw } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { isMessagePath, readRawMessage } from "../core/message-parse";
import type { HistoryCacheStore } from "./history-cache";
import { HistoryOnDemand } from "./history-on-demand";
import type { HistoryHost } from "./history-on-demand";
import { NoteReads } from "./note-reads";
import { isUnreadable } from "./unreadable-notes";
import type { ReadFile, VaultPort } from "./vault-port";

// Keeps the message index in step with the vault. The live part (every group's inbox, and the
// outboxes, which are only counted until the router reads a note to route it) is read at start. The
// history (archives and the dead-letter folder, which grow for ever) is read only when a decision
// needs it: a pass with nothing to route and no request coming due never reads it, so routing
// costs the same on a vault with years of history as on a new one (src/router/history-on-demand.ts).
// Of a history note only its head is read: the frontmatter. A note that cannot be read is said once
// (src/router/note-reads.ts).

export interface IndexSyncOptions {
	/** Called every few milliseconds of indexing work, so that a host app can stay responsive. */
	yieldNow?: () => Promise<void>;
	clock?: () => number;
	/** A device-local copy of the history's entries, so that only notes that changed are read (src/router/history-cache.ts). */
	historyCache?: HistoryCacheStore;
}

/** Well under a frame budget of 50 ms, with room for the note being read and a collection. */
const YIELD_AFTER_MS = 10;

export class IndexSync implements HistoryHost {
	readonly index = new MessageIndex();
	private liveLoaded = false;
	private lastYield = 0;
	/** The notes' reads: each note that cannot be read is said once (a source of the router's warnings). */
	readonly reads: NoteReads;
	/** The history, read when a decision needs it. */
	private readonly history: HistoryOnDemand;

	constructor(
		readonly port: VaultPort,
		readonly layout: () => VaultLayout,
		private readonly options: IndexSyncOptions = {},
	) {
		this.reads = new NoteReads(port);
		this.history = new HistoryOnDemand(this, options.historyCache);
	}

	/** The router's time (epoch ms). */
	now(): number {
		return (this.options.clock ?? Date.now)();
	}

	get hasHistory(): boolean {
		return this.history.isLoaded;
	}

	/** True while only the notes of some keys are read of the history (ensureHistoryFor). */
	get hasPartialHistory(): boolean {
		return this.history.isPartial;
	}

	/** Forgets everything (the registry or the root folder changed). */
	clear(): void {
		this.index.clear();
		this.liveLoaded = false;
		this.history.clear();
	}

	private liveFolders(): string[] {
		const layout = this.layout();
		return layout.groupIds().flatMap((g) => [layout.box(g, "inbox") as string, layout.box(g, "outbox") as string]);
	}

	/**
	 * The history's folders, one by one: each group's archive and its month folders
	 * (`archive/YYYY-MM/`, oldest first), then the dead-letter folder.
	 */
	async historyFolders(): Promise<string[]> {
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

	/** Reads the history (once; later changes come through `refresh`): see HistoryOnDemand.ensure. */
	ensureHistory(options: { saveLater?: boolean } = {}): Promise<void> {
		return this.history.ensure(options);
	}

	/** Reads of the history only what decisions about notes with these keys can ask for: see HistoryOnDemand.ensureFor. */
	ensureHistoryFor(keys: ReadonlySet<string>, options: { saveLater?: boolean } = {}): Promise<void> {
		return this.history.ensureFor(keys, options);
	}

	/** Runs a (pure) decision on the index, reading what it asks for of the history: see HistoryOnDemand.decide. */
	decide<T>(decision: () => T): Promise<T> {
		return this.history.decide(decision);
	}

	/** Brings the history copy up to date, to save it as `ensureHistory` does: see HistoryOnDemand.refreshCopy. */
	refreshHistoryCopy(options: { saveLater?: boolean } = {}): Promise<void> {
		return this.history.refreshCopy(options);
	}

	/** Forgets a history read only in part (a pass that stopped before it read the rest): see HistoryOnDemand.abandonPartial. */
	abandonPartialHistory(): void {
		this.history.abandonPartial();
	}

	/** Waits for the history copy `ensureHistory` left to save (at once when there is none). */
	historyCopySaved(): Promise<void> {
		return this.history.copySaved();
	}

	/** Indexes a folder's files; with `newOnly`, only files the index does not hold yet (and drops the gone). */
	async indexFolder(folder: string, newOnly = false): Promise<void> {
		const listed = new Set(await this.port.list(folder));
		for (const path of listed) {
			if (newOnly && this.index.has(path)) continue;
			await this.refreshPath(path, true);
			await this.maybeYield();
		}
		this.dropGone(folder, listed);
	}

	/** Drops the entries of a folder's notes that are no longer listed (the whole index is walked only when there are some). */
	dropGone(folder: string, listed: ReadonlySet<string>): void {
		let held = 0;
		for (const path of listed) if (this.index.has(path)) held++;
		if (held === this.index.countInFolder(folder)) return;
		const gone = this.index.pathsWhere((path) => path.startsWith(`${folder}/`) && !listed.has(path) && !path.slice(folder.length + 1).includes("/"));
		for (const path of gone) this.index.remove(path);
	}

	async maybeYield(): Promise<void> {
		if (this.dueToYield()) await this.yieldNow();
	}

	/** True when indexing has kept the host busy for YIELD_AFTER_MS (checked without a promise per note). */
	dueToYield(): boolean {
		return this.options.yieldNow !== undefined && this.now() - this.lastYield >= YIELD_AFTER_MS;
	}

	async yieldNow(): Promise<void> {
		await this.options.yieldNow?.();
		this.lastYield = this.now();
	}

	/**
	 * True when the index covers `location` now: history folders once the history is read, or while
	 * it is read in part (a note archived meanwhile, by this router or another writer, is held as a
	 * full read holds it: a later decision about its keys must find it).
	 */
	private covers(location: Location): boolean {
		const history = this.hasHistory || this.hasPartialHistory;
		if (location.area === "dead-letter") return history;
		if (location.area !== "box") return false;
		return location.box === "archive" ? history : this.liveLoaded;
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
		if (withHistory) await this.history.rescan(newOnly);
	}

	/** Reads one note again and indexes it (or drops it when it is gone or not a message). */
	refreshOne(path: string): Promise<IndexEntry | undefined> {
		return this.refreshPath(path, false);
	}

	/** `listed`: the path was just listed, so it exists (an outbox note is then not looked up again). */
	private async refreshPath(path: string, listed: boolean): Promise<IndexEntry | undefined> {
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
		const read = await this.readHead(path);
		return read ? this.indexText(path, read.text, location) : this.index.get(path);
	}

	/**
	 * A message note's head (its frontmatter), or null with the index already as it should be: a
	 * note that is gone is dropped; one that is there but cannot be read keeps what the index knew
	 * of it, or stays out of the index (so that no step takes it for a note of another kind, and the
	 * next look at its folder reads it again), and is said once.
	 */
	async readHead(path: string): Promise<ReadFile | null> {
		const read = await this.reads.head(path);
		if (read === null) this.index.remove(path);
		return read === null || isUnreadable(read) ? null : read;
	}

	/**
	 * A note read whole beside the index (a listing, a task's text): null when it is gone, or when it
	 * cannot be read, which is said once as the index says it (the note concerns that one file).
	 */
	readWhole(path: string, options: { maxBytes?: number } = {}): Promise<ReadFile | null> {
		return this.reads.whole(path, options);
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
		this.reads.forget(path);
		this.index.remove(path);
	}
}
