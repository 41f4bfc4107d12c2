// A Map from string keys, held as PARTS smaller Maps chosen by a hash of the key's start and end.
//
// A JavaScript Map grows by copying its whole table into one twice the size, in one step: 10 to 15
// ms at 65,536 entries, 45 to 66 ms at 262,144 (one Map, measured here). The message index keeps
// maps that grow with the history, two of them by a key per note (path, message id) and two by a
// key per conversation or answer (trace, in_reply_to), so without a split they copied their tables
// while one note was indexed (about 33 ms at the 65,536th note, README's "A year of history").
// Split, no table copied holds more than about a PARTS-th of the entries, and the parts fill up at
// different notes.
//
// Iteration goes part by part, in insertion order within a part: callers that need an order sort.
// An entry added during an iteration is seen only if its part comes later (a Map shows every one);
// replacing the value of a key, or deleting one, behaves as in a Map.

import { avalanche } from "./hash";

/** Enough for a year of traffic (365,000 keys) to copy tables of at most about 23,000 entries each. */
const PARTS = 16;

/**
 * Units hashed from the key's start and end. Keys differ at one end or the other: a UUID (v4) most in
 * its first group (the bench's trace ids only there), one made by counting (`req-17`) at its end, a
 * path in its note's name (the router's names are about 60 units: time, type, target, the id's start;
 * an id that agents share the start of, such as a UUID v7's time, still differs in the time).
 * Keys that differ only elsewhere fall into fewer parts: the map then grows as one Map would.
 */
const HEAD = 8;
const TAIL = 64;

/** The part a key belongs to: FNV-1a over its start and end, two UTF-16 units a step, then mixed so that every bit counts. */
function partOf(key: string): number {
	const length = key.length;
	const headEnd = Math.min(HEAD, length);
	let hash = Math.imul(0x811c9dc5 ^ length, 0x01000193);
	hash = hashUnits(key, 0, headEnd, hash);
	hash = hashUnits(key, Math.max(headEnd, length - TAIL), length, hash);
	return avalanche(hash) & (PARTS - 1);
}

function hashUnits(key: string, from: number, to: number, start: number): number {
	let hash = start;
	let i = from;
	for (; i + 1 < to; i += 2) hash = Math.imul(hash ^ (key.charCodeAt(i) | (key.charCodeAt(i + 1) << 16)), 0x01000193);
	if (i < to) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
	return hash;
}

export class SplitMap<V> implements ReadonlyMap<string, V> {
	private readonly parts: Map<string, V>[] = Array.from({ length: PARTS }, () => new Map<string, V>());

	/** The part that holds `key` or would: a caller that asks about one key more than once hashes it once. */
	partFor(key: string): Map<string, V> {
		return this.parts[partOf(key)];
	}

	get size(): number {
		let size = 0;
		for (const part of this.parts) size += part.size;
		return size;
	}

	get(key: string): V | undefined {
		return this.partFor(key).get(key);
	}

	has(key: string): boolean {
		return this.partFor(key).has(key);
	}

	set(key: string, value: V): this {
		this.partFor(key).set(key, value);
		return this;
	}

	delete(key: string): boolean {
		return this.partFor(key).delete(key);
	}

	clear(): void {
		for (const part of this.parts) part.clear();
	}

	keys(): IterableIterator<string> {
		return new PartsIterator(this.parts, (part) => part.keys());
	}

	values(): IterableIterator<V> {
		return new PartsIterator(this.parts, (part) => part.values());
	}

	entries(): IterableIterator<[string, V]> {
		return new PartsIterator(this.parts, (part) => part.entries());
	}

	[Symbol.iterator](): IterableIterator<[string, V]> {
		return this.entries();
	}

	forEach(visit: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
		for (const part of this.parts) for (const [key, value] of part) visit.call(thisArg, value, key, this);
	}

	/** The parts themselves, for a walk over every entry at a Map's own speed (one iterator per part, not a step more per entry). */
	get partMaps(): readonly ReadonlyMap<string, V>[] {
		return this.parts;
	}
}

/** The parts' own iterators one after another (a generator would cost several times more per entry). */
class PartsIterator<V, T> implements IterableIterator<T> {
	private index = 0;
	private current: Iterator<T>;

	constructor(
		private readonly parts: readonly Map<string, V>[],
		private readonly open: (part: Map<string, V>) => Iterator<T>,
	) {
		this.current = open(parts[0]);
	}

	next(): IteratorResult<T> {
		for (;;) {
			const step = this.current.next();
			if (!step.done || this.index === this.parts.length - 1) return step;
			this.index++;
			this.current = this.open(this.parts[this.index]);
		}
	}

	[Symbol.iterator](): IterableIterator<T> {
		return this;
	}
}
