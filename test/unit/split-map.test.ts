import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SplitMap } from "../../src/core/split-map";

// The message index's maps (src/core/split-map.ts): a SplitMap answers as a Map does, and spreads the
// keys the index holds (paths, UUIDs, ids made by counting) so that no part holds much more than its
// sixteenth: the largest table a note's indexing can make JavaScript copy.

type Op = { kind: "set"; key: string; value: number } | { kind: "delete"; key: string } | { kind: "clear" };

const keys = fc.constantFrom("a", "b", "c", "old-1", "old-2", "A2A/groups/g/archive/2026-07/x.md", "", "0000000a-0000-4000-8000-000000000000");
const op: fc.Arbitrary<Op> = fc.oneof(
	{ weight: 6, arbitrary: fc.record({ kind: fc.constant("set" as const), key: fc.oneof(keys, fc.string()), value: fc.integer() }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant("delete" as const), key: fc.oneof(keys, fc.string()) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("clear" as const) }) },
);

/** The spread of `count` keys: how many the fullest part holds against an even sixteenth. */
function fullest(make: (i: number) => string, count: number): number {
	const map = new SplitMap<number>();
	for (let i = 0; i < count; i++) map.set(make(i), i);
	expect(map.size).toBe(count);
	return Math.max(...map.partMaps.map((part) => part.size)) / (count / 16);
}

const uuidLike = (i: number) => `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
const randomish = (i: number) => (Math.imul(i + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, "0");

describe("a split map", () => {
	it("answers get, has, size, delete and every iteration as a Map does, after any operations", () => {
		fc.assert(
			fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
				const split = new SplitMap<number>();
				const plain = new Map<string, number>();
				for (const o of ops) {
					if (o.kind === "set") {
						expect(split.set(o.key, o.value)).toBe(split);
						plain.set(o.key, o.value);
					} else if (o.kind === "delete") expect(split.delete(o.key)).toBe(plain.delete(o.key));
					else {
						split.clear();
						plain.clear();
					}
					expect(split.size).toBe(plain.size);
				}
				for (const [key, value] of plain) {
					expect(split.has(key)).toBe(true);
					expect(split.get(key)).toBe(value);
				}
				expect(split.get("never set")).toBeUndefined();
				expect([...split.keys()].sort()).toEqual([...plain.keys()].sort());
				expect([...split.values()].sort()).toEqual([...plain.values()].sort());
				expect(new Map(split)).toEqual(plain);
				expect(new Map(split.entries())).toEqual(plain);
				const visited = new Map<string, number>();
				split.forEach((value, key, map) => {
					expect(map).toBe(split);
					visited.set(key, value);
				});
				expect(visited).toEqual(plain);
				const walked = new Map<string, number>();
				for (const part of split.partMaps) for (const [key, value] of part) walked.set(key, value);
				expect(walked).toEqual(plain);
				// Deleting the entry an iteration is at, as a Map allows.
				for (const key of split.keys()) split.delete(key);
				expect(split.size).toBe(0);
				expect([...split.keys()]).toEqual([]);
			}),
		);
	});

	it("lets a value be replaced while its values are iterated (the index makes deferred entries so)", () => {
		const map = new SplitMap<number>();
		for (let i = 0; i < 100; i++) map.set(`k${i}`, i);
		const seen: number[] = [];
		for (const value of map.values()) {
			seen.push(value);
			map.set(`k${value}`, value + 1000);
		}
		expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
		expect(map.get("k7")).toBe(1007);
	});

	it("spreads the index's kinds of keys evenly over its parts", () => {
		const count = 50_000;
		// Paths of month folders, named as the router names notes (time, type, target, id's start).
		expect(fullest((i) => `A2A/groups/10-backend-group/archive/2026-${String((i % 12) + 1).padStart(2, "0")}/2026-07-01T10-00-${String(i % 60).padStart(2, "0")}-query-to-20-frontend-group-${randomish(i)}.md`, count)).toBeLessThan(1.15);
		// The bench's trace ids: UUIDs that differ in their first group only.
		expect(fullest(uuidLike, count)).toBeLessThan(1.15);
		// Ids made by counting, which differ at their end only.
		expect(fullest((i) => `old-${i}`, count)).toBeLessThan(1.15);
		expect(fullest((i) => `req-${i}-answer`, count)).toBeLessThan(1.15);
		// Names an agent chose, with the number well before the end.
		expect(fullest((i) => `A2A/groups/g/archive/2026-07/msg-${i}-to-the-frontend-group-from-backend.md`, count)).toBeLessThan(1.15);
	});
});
