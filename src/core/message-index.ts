import type { Box, Location } from "./layout";
import { DeferredEntry } from "./index-entry";
import type { IndexEntry } from "./index-entry";
import { SplitMap } from "./split-map";
import { parseTime } from "./time";

export { DeferredEntry, entryFromRaw } from "./index-entry";
export type { EntryKeys, IndexEntry } from "./index-entry";

// The index of messages by path, message_id, trace_id and in_reply_to: where each message is, its
// state and its route. It answers cycle detection, duplicates, response correlation, timeouts and
// the view's counts without reading notes again. Times are held in the router's UTC form.

function countKey(location: Location): string | null {
	if (location.area === "box") return `${location.group}/${location.box}`;
	return location.area === "dead-letter" ? "dead-letter" : null;
}

/**
 * Paths by key (message id, trace, in_reply_to). Nearly every key names one note, so one path is held
 * as itself and only a key with several gets a set: the index of a long history stays small.
 */
type PathsByKey = SplitMap<string | Set<string>>;

function addTo(map: PathsByKey, key: string | undefined, path: string): void {
	if (key === undefined) return;
	const part = map.partFor(key);
	const held = part.get(key);
	if (held === undefined || held === path) part.set(key, path);
	else if (typeof held === "string") part.set(key, new Set([held, path]));
	else held.add(path);
}

function removeFrom(map: PathsByKey, key: string | undefined, path: string): void {
	if (key === undefined) return;
	const part = map.partFor(key);
	const held = part.get(key);
	if (held === undefined) return;
	if (typeof held === "string") {
		if (held === path) part.delete(key);
		return;
	}
	held.delete(path);
	if (held.size === 1) part.set(key, held.values().next().value as string);
	else if (held.size === 0) part.delete(key);
}

const expiries = new WeakMap<IndexEntry, { text: string | undefined; ms: number }>();

/** Epoch ms of an entry's `expires_at` (NaN without one), read once per entry: passes and the sidebar ask often. */
export function expiryOf(entry: IndexEntry): number {
	const known = expiries.get(entry);
	if (known && known.text === entry.expiresAt) return known.ms;
	const ms = parseTime(entry.expiresAt);
	expiries.set(entry, { text: entry.expiresAt, ms });
	return ms;
}

/** True when an entry's `expires_at` has come (false without one). */
export function hasExpired(entry: IndexEntry, now: number): boolean {
	const expires = expiryOf(entry);
	return !Number.isNaN(expires) && now >= expires;
}

/** A request that reached its target (it counts for cycles, duplicates and answers). */
export function wasDelivered(entry: IndexEntry): boolean {
	if (entry.location.area === "box") return entry.location.box !== "outbox" && entry.deliveredAt !== undefined;
	return entry.location.area === "dead-letter" && entry.state === "timed_out";
}

/** A delivered request that still waits for its answer in its target's inbox. */
export function isAwaitingAnswer(entry: IndexEntry): boolean {
	return entry.kind === "request" && entry.location.area === "box" && entry.location.box === "inbox" && entry.deliveredAt !== undefined && isWaitingState(entry.state);
}

/** A request's state while its target's own agents have to answer it: delivered, or delivered again (rule 8). */
export function isWaitingState(state: unknown): boolean {
	return state === "delivered" || state === "retrying";
}

/** A request's state while it is in flight: waiting for its target's agents, or forwarded to a remote agent. */
export function isInFlightState(state: unknown): boolean {
	return isWaitingState(state) || state === "forwarded";
}

/** Which of the index's keys a lookup asks by. */
export type LookupKey = "id" | "trace" | "reply";

export class MessageIndex {
	/**
	 * Called before every lookup by key while the index holds only part of the history (those keys'
	 * notes): it throws for a key the index cannot answer for yet (src/router/index-sync.ts).
	 */
	lookupGuard: ((kind: LookupKey, key: string) => void) | null = null;

	/**
	 * Every entry, a history entry possibly still deferred (made on first use, then held as made).
	 * These four grow with the history, by a key per note (path, id) or per conversation and answer
	 * (trace, in_reply_to): split (src/core/split-map.ts), none copies a table of the whole history
	 * while one note is indexed.
	 */
	private readonly byPath = new SplitMap<IndexEntry | DeferredEntry>();
	private readonly byId: PathsByKey = new SplitMap();
	private readonly byTrace: PathsByKey = new SplitMap();
	private readonly byReply: PathsByKey = new SplitMap();
	/** The entries in inboxes, by path: the router's upkeep and due times look at these only. */
	private readonly inInbox = new Map<string, IndexEntry>();
	/** The entries in the dead-letter folder, by path (the sidebar lists them). */
	private readonly inDeadLetter = new Map<string, IndexEntry>();
	/** How many entries each folder holds ("<group>/<box>", or "dead-letter"), kept as entries come and go. */
	private readonly counts = new Map<string, number>();
	/** How many entries each folder holds directly, by the folder's path (an archive and each of its month folders apart). */
	private readonly folderCounts = new Map<string, number>();

	get size(): number {
		return this.byPath.size;
	}

	/** Holds an entry; a deferred one stays deferred unless it is in an inbox or the dead-letter folder (those are listed whole). */
	set(held: IndexEntry | DeferredEntry): void {
		const byPath = this.byPath.partFor(held.path);
		this.drop(byPath, held.path);
		this.damaged.delete(held.path);
		const entry = held instanceof DeferredEntry && (held.location.area === "dead-letter" || (held.location.area === "box" && held.location.box === "inbox")) ? this.make(held) : held;
		byPath.set(entry.path, entry);
		addTo(this.byId, entry.messageId, entry.path);
		addTo(this.byTrace, entry.traceId, entry.path);
		addTo(this.byReply, entry.inReplyTo, entry.path);
		if (!(entry instanceof DeferredEntry)) {
			if (entry.location.area === "box" && entry.location.box === "inbox") this.inInbox.set(entry.path, entry);
			if (entry.location.area === "dead-letter") this.inDeadLetter.set(entry.path, entry);
		}
		this.count(entry, 1);
	}

	/** Paths whose deferred entry turned out damaged: they stand as notes that are no message until read again. */
	private readonly damaged = new Set<string>();

	/** The entry itself: a deferred one is made now, and held as made from then on. */
	private made(held: IndexEntry | DeferredEntry): IndexEntry {
		if (!(held instanceof DeferredEntry)) return held;
		const entry = this.make(held);
		this.byPath.set(entry.path, entry);
		return entry;
	}

	/** A deferred entry made; a damaged one is noted, and stands as a note that is no message meanwhile. */
	private make(held: DeferredEntry): IndexEntry {
		const entry = held.make();
		if (entry !== null) return entry;
		this.damaged.add(held.path);
		return { path: held.path, location: held.location, kind: null, route: [], messageId: held.messageId, traceId: held.traceId, inReplyTo: held.inReplyTo };
	}

	/** The paths found damaged since the last call (their notes are to be read again: src/router/index-sync.ts). */
	takeDamaged(): string[] {
		const paths = [...this.damaged];
		this.damaged.clear();
		return paths;
	}

	/** The entries whose `field` is `value` (a deferred entry is made only when its saved JSON may hold that value). */
	*withField(field: "sourceGroup" | "targetGroup", value: string): IterableIterator<IndexEntry> {
		for (const part of this.byPath.partMaps) {
			for (const held of part.values()) {
				if (held instanceof DeferredEntry && !held.mayHold(field, value)) continue;
				const entry = this.made(held);
				if (entry[field] === value) yield entry;
			}
		}
	}

	private count(entry: IndexEntry | DeferredEntry, delta: number): void {
		const key = countKey(entry.location);
		if (key !== null) this.counts.set(key, (this.counts.get(key) ?? 0) + delta);
		const folder = entry.path.slice(0, Math.max(0, entry.path.lastIndexOf("/")));
		const left = (this.folderCounts.get(folder) ?? 0) + delta;
		if (left === 0) this.folderCounts.delete(folder);
		else this.folderCounts.set(folder, left);
	}

	/** How many entries are directly in `folder` (not below it). */
	countInFolder(folder: string): number {
		return this.folderCounts.get(folder) ?? 0;
	}

	/** How many entries a group's box holds (or, without arguments, the dead-letter folder). */
	countIn(group?: string, box?: Box): number {
		return this.counts.get(group !== undefined && box !== undefined ? `${group}/${box}` : "dead-letter") ?? 0;
	}

	remove(path: string): void {
		this.drop(this.byPath.partFor(path), path);
	}

	/** Drops `path`'s entry, given the part of byPath that holds it. */
	private drop(byPath: Map<string, IndexEntry | DeferredEntry>, path: string): void {
		const old = byPath.get(path);
		if (!old) return;
		byPath.delete(path);
		removeFrom(this.byId, old.messageId, path);
		removeFrom(this.byTrace, old.traceId, path);
		removeFrom(this.byReply, old.inReplyTo, path);
		this.inInbox.delete(path);
		this.inDeadLetter.delete(path);
		this.count(old, -1);
	}

	/** Drops every entry below a folder (a deleted or renamed folder). */
	removeUnder(folder: string): void {
		for (const path of this.pathsWhere((p) => p.startsWith(`${folder}/`))) this.remove(path);
	}

	clear(): void {
		this.byPath.clear();
		this.damaged.clear();
		this.byId.clear();
		this.byTrace.clear();
		this.byReply.clear();
		this.inInbox.clear();
		this.inDeadLetter.clear();
		this.counts.clear();
		this.folderCounts.clear();
	}

	get(path: string): IndexEntry | undefined {
		const held = this.byPath.get(path);
		return held === undefined ? undefined : this.made(held);
	}

	/** True when the index holds the path (without making a deferred entry). */
	has(path: string): boolean {
		return this.byPath.has(path);
	}

	/** Every entry (deferred ones are made as they come). */
	*all(): IterableIterator<IndexEntry> {
		// Making an entry replaces the value of a key already held: the iteration goes on undisturbed.
		for (const held of this.byPath.values()) yield this.made(held);
	}

	/** The paths `wanted` says yes to (no entry is made), as a list the caller may remove them by. */
	pathsWhere(wanted: (path: string) => boolean): string[] {
		const found: string[] = [];
		for (const part of this.byPath.partMaps) for (const path of part.keys()) if (wanted(path)) found.push(path);
		return found;
	}

	/** The entries of every group's inbox (however large the history, these are few). */
	inboxes(): IterableIterator<IndexEntry> {
		return this.inInbox.values();
	}

	/** The entries of the dead-letter folder. */
	deadLetters(): IterableIterator<IndexEntry> {
		return this.inDeadLetter.values();
	}

	private collect(paths: string | Set<string> | undefined): IndexEntry[] {
		if (paths === undefined) return [];
		if (typeof paths === "string") {
			const held = this.byPath.get(paths);
			return held ? [this.made(held)] : [];
		}
		const entries: IndexEntry[] = [];
		for (const p of paths) {
			const held = this.byPath.get(p);
			if (held) entries.push(this.made(held));
		}
		return entries;
	}

	withId(messageId: string): IndexEntry[] {
		this.lookupGuard?.("id", messageId);
		return this.collect(this.byId.get(messageId));
	}

	inTrace(traceId: string): IndexEntry[] {
		this.lookupGuard?.("trace", traceId);
		return this.collect(this.byTrace.get(traceId));
	}

	repliesTo(messageId: string): IndexEntry[] {
		this.lookupGuard?.("reply", messageId);
		return this.collect(this.byReply.get(messageId));
	}

	/** Entries of a trace in the order they happened. */
	traceTimeline(traceId: string): IndexEntry[] {
		const when = (e: IndexEntry) => e.deliveredAt ?? e.created ?? e.deadAt ?? "";
		return this.inTrace(traceId).sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : 0));
	}
}
