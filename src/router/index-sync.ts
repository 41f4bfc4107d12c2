import { ignoreReason } from "../core/ignore";
import type { Location, VaultLayout } from "../core/layout";
import { MessageIndex, entryFromRaw } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { isMessagePath, readRawMessage } from "../core/message-parse";
import { MAX_FRONTMATTER_BYTES } from "../core/protocol";
import type { HistoryCacheStore } from "./history-cache";
import { HistoryFromCopy } from "./history-from-copy";
import type { HistoryIndexing } from "./history-folder-pass";
import { UnreadableNotes, isUnreadable, readNote } from "./unreadable-notes";
import type { ReadFile, VaultPort } from "./vault-port";

// Keeps the message index in step with the vault. The live part (every group's inbox, and the
// outboxes, which are only counted until the router reads a note to route it) is read at start. The
// history (archives and the dead-letter folder, which grow for ever) is read only when a decision
// needs it: a pass with nothing to route and no request coming due never reads it, so routing
// costs the same on a vault with years of history as on a new one. Of a history note only its head
// is read: the frontmatter.

/** Enough of a note for its frontmatter (at most 8 KB, rule 3) and a quarantine block above it. */
const HEAD_BYTES = 4 * MAX_FRONTMATTER_BYTES;

export interface IndexSyncOptions {
	/** Called every few milliseconds of indexing work, so that a host app can stay responsive. */
	yieldNow?: () => Promise<void>;
	clock?: () => number;
	/** A device-local copy of the history's entries, so that only notes that changed are read (src/router/history-cache.ts). */
	historyCache?: HistoryCacheStore;
}

/** Well under a frame budget of 50 ms, with room for the note being read and a collection. */
const YIELD_AFTER_MS = 10;

export class IndexSync implements HistoryIndexing {
	readonly index = new MessageIndex();
	private liveLoaded = false;
	private historyLoaded = false;
	/** Set once the whole history was asked for (ensureHistory): a read of it that failed is tried again by rescan. */
	private historyWanted = false;
	private lastYield = 0;
	/** Notes that are there but cannot be read: passed over, said once (takeProblems). */
	private readonly unreadable = new UnreadableNotes(
		(path, why) => `${path} cannot be read (${why}): the router goes on without what it says, and reads it again when it next looks at it`,
		() => this.onProblem(),
	);
	/** Called after each problem met (see warnings-out.ts). */
	onProblem: () => void = () => undefined;
	/** Notes whose whole read failed last (readWhole): a head read of them does not end their problem. */
	private readonly wholeFailed = new Set<string>();
	/** The history read from the device-local copy, when there is one. */
	private readonly fromCopy: HistoryFromCopy | null;

	constructor(
		readonly port: VaultPort,
		readonly layout: () => VaultLayout,
		private readonly options: IndexSyncOptions = {},
	) {
		this.fromCopy = options.historyCache ? new HistoryFromCopy(this, options.historyCache) : null;
	}

	/** The router's time (epoch ms). */
	now(): number {
		return (this.options.clock ?? Date.now)();
	}

	get hasHistory(): boolean {
		return this.historyLoaded;
	}

	/** True while only the notes of some keys are read of the history (ensureHistoryFor). */
	get hasPartialHistory(): boolean {
		return this.fromCopy?.isPartial ?? false;
	}

	/** Forgets everything (the registry or the root folder changed). */
	clear(): void {
		this.index.clear();
		this.liveLoaded = false;
		this.historyLoaded = false;
		this.historyWanted = false;
		this.fromCopy?.clear();
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

	/**
	 * Reads the history (once; later changes come through `refresh`). With `saveLater`, the copy of
	 * what was read is saved after it returns (a router routes first): `historyCopySaved` waits for it.
	 */
	async ensureHistory(options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.historyLoaded) return;
		this.historyLoaded = true;
		this.historyWanted = true;
		try {
			if (this.fromCopy) await this.fromCopy.readAll(options);
			else for (const folder of await this.historyFolders()) await this.indexFolder(folder);
		} catch (error) {
			// A read that failed part way is not kept: no decision may take part of the history for all of it.
			this.forgetHistory();
			throw error;
		}
	}

	/**
	 * Reads of the history only what decisions about notes with these keys can ask for, where the
	 * copy and the adapter allow it (src/router/history-from-copy.ts), else the whole history.
	 */
	async ensureHistoryFor(keys: ReadonlySet<string>, options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.historyLoaded || this.hasPartialHistory) return;
		let read: boolean | undefined;
		try {
			read = await this.fromCopy?.readFor(keys);
		} catch (error) {
			// What it indexed before it failed is not kept either: no event would keep it up to date.
			this.forgetHistory();
			throw error;
		}
		if (!read) await this.ensureHistory(options);
	}

	/**
	 * Runs a (pure) decision. One that asks a partly read history about a key it was not read for is
	 * made again once the history is all read; one that met a damaged row of the copy is made again
	 * once those notes are read from the vault.
	 */
	async decide<T>(decision: () => T): Promise<T> {
		// After a read of the history failed (and was forgotten), the next decision reads it again first.
		if (!this.historyLoaded && !this.hasPartialHistory) await this.ensureHistory({ saveLater: true });
		for (;;) {
			const result = this.fromCopy?.isPartial ? await this.fromCopy.decide(decision, () => this.ensureHistory({ saveLater: true })) : decision();
			const damaged = this.index.takeDamaged();
			if (damaged.length === 0) return result;
			// Read from the vault, a note is held as made: it cannot be found damaged again.
			for (const path of damaged) await this.refreshOne(path);
		}
	}

	/**
	 * Brings the history copy up to date with what the router and others archived since it was saved
	 * (at most every few minutes, once the whole history is read), to save it as `ensureHistory` does.
	 */
	async refreshHistoryCopy(options: { saveLater?: boolean } = {}): Promise<void> {
		if (this.historyLoaded) await this.fromCopy?.refresh(options);
	}

	/**
	 * Forgets a history read only in part (a pass that stopped before it read the rest, its lease
	 * lost): vault events are not followed for it meanwhile, so the next pass reads it anew.
	 */
	abandonPartialHistory(): void {
		if (this.hasPartialHistory) this.forgetHistory();
	}

	/** Drops every history entry and what the copy's reading held: the history is read anew when next needed. */
	private forgetHistory(): void {
		this.historyLoaded = false;
		this.fromCopy?.clear();
		const layout = this.layout();
		const history = this.index.pathsWhere((path) => {
			const location = layout.locate(path);
			return location.area === "dead-letter" || (location.area === "box" && location.box === "archive");
		});
		for (const path of history) this.index.remove(path);
	}

	/** Waits for the history copy `ensureHistory` left to save (at once when there is none). */
	historyCopySaved(): Promise<void> {
		return this.fromCopy?.saved() ?? Promise.resolve();
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
		const history = this.historyLoaded || this.hasPartialHistory;
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
		if (!withHistory) return;
		if (this.historyLoaded) for (const folder of await this.historyFolders()) await this.indexFolder(folder, newOnly);
		// A read of the whole history that failed (and was forgotten) is tried again.
		else if (this.historyWanted && !this.hasPartialHistory) await this.ensureHistory();
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
		const read = await readNote(this.port, path, { maxBytes: HEAD_BYTES });
		if (read === null) {
			this.wholeFailed.delete(path);
			this.unreadable.readable(path);
			this.index.remove(path);
			return null;
		}
		if (isUnreadable(read)) {
			this.unreadable.problem(path, read.unreadable);
			return null;
		}
		// A head that reads does not make the whole note readable (a disk error past its first bytes).
		if (!this.wholeFailed.has(path)) this.unreadable.readable(path);
		return read;
	}

	/**
	 * A note read whole beside the index (a listing, a task's text): null when it is gone, or when it
	 * cannot be read, which is said once as the index says it (the note concerns that one file).
	 */
	async readWhole(path: string, options: { maxBytes?: number } = {}): Promise<ReadFile | null> {
		const read = await readNote(this.port, path, options);
		if (read !== null && isUnreadable(read)) {
			this.wholeFailed.add(path);
			this.unreadable.problem(path, read.unreadable);
			return null;
		}
		this.wholeFailed.delete(path);
		this.unreadable.readable(path);
		return read;
	}

	/** What to tell a person of notes found unreadable since the last call, each once while it stays so. */
	takeProblems(): string[] {
		return this.unreadable.take();
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
		this.wholeFailed.delete(path);
		this.unreadable.readable(path);
		this.index.remove(path);
	}
}
