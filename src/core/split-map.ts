// A Map from string keys, held as PARTS smaller Maps chosen by a hash of the key's start and end.
//
// A JavaScript Map grows by copying its whole table into one twice the size, in one step: at 65,536
// entries that step takes about 10 ms, at 262,144 about four times that. The message index keeps
// four maps that gain one entry each per note, so without a split all four copy their tables while
// one note is indexed, and that one step is the longest block of a start on a long history (about
// 33 ms at 65,536 notes, measured in docs/scale.md). Split, no table copied holds more than about a
// PARTS-th of the entries, and the parts fill up at different notes.
//
// Iteration goes part by part, in insertion order within a part: callers that need an order sort.

import { avalanche } from "./hash";

/** Enough for a year of traffic (365,000 keys) to copy tables of at most about 23,000 entries each. */
const PARTS = 16;

/**
 * Characters hashed from the key's start and end. Keys differ at one end or the other: a UUID most in
 * its first group (the bench's trace ids only there), an id like `req-17` at its end, a path in its
 * note's name (the last 48 characters hold the router's names whole: time, type, target, the id's
 * start). Keys that differ only elsewhere fall into few parts: the map then grows as one Map would.
 */
const HEAD = 8;
const TAIL = 48;

/** The part a key belongs to: FNV-1a over its start and end, two UTF-16 units a step, then mixed so that every bit counts. */
export function partOf(key: string): number {
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

	*keys(): IterableIterator<string> {
		for (const part of this.parts) yield* part.keys();
	}

	*values(): IterableIterator<V> {
		for (const part of this.parts) yield* part.values();
	}

	*entries(): IterableIterator<[string, V]> {
		for (const part of this.parts) yield* part.entries();
	}

	[Symbol.iterator](): IterableIterator<[string, V]> {
		return this.entries();
	}

	forEach(visit: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
		for (const [key, value] of this.entries()) visit(value, key, this);
	}

	/** The number of entries in the fullest part (a test checks the spread). */
	largestPart(): number {
		return Math.max(...this.parts.map((part) => part.size));
	}
}
