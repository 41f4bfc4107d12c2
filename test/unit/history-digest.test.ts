import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addPath, wholeListings } from "../../src/router/history-changes";
import type { CachedNote } from "../../src/router/history-cache";
import { FolderDigest, KeyFilter, listingDigest, textHash } from "../../src/router/history-digest";

/** MurmurHash3's finaliser, as the key filter spreads its second hash. */
function mixed(h: number): number {
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}
import type { FileInfo } from "../../src/router/vault-port";

// The summaries that let a start skip the parts of its history copy it does not need: a folder's
// digest must change with any file's name or facts and not with the order of its listing; a key
// filter must never say "no" of a key it holds, and rarely "may" of one it does not.

const file = (name: string, size = 100, mtime = 1_700_000_000_000, more: Partial<FileInfo> = {}): FileInfo => ({ path: `A2A/groups/g/archive/2026-11/${name}`, size, mtime, ...more });
const FOLDER = "A2A/groups/g/archive/2026-11";

describe("a folder's digest", () => {
	it("is the same for a listing in any order", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 30 }), fc.integer(), (names, seed) => {
				const infos = names.map((n, i) => file(`${n}.md`, i * 7, 1_700_000_000_000 + i));
				const shuffled = [...infos].sort((a, b) => ((a.size * 31 + seed) % 97) - ((b.size * 31 + seed) % 97));
				expect(listingDigest(FOLDER, shuffled)).toBe(listingDigest(FOLDER, infos));
			}),
		);
	});

	it("changes with a file's name, size, mtime, ctime or identity, with a file added or removed, and with two files' facts swapped", () => {
		const base = [file("a.md", 100, 1000), file("b.md", 200, 2000)];
		const digest = listingDigest(FOLDER, base);
		const variants = [
			[file("c.md", 100, 1000), base[1]],
			[file("a.md", 101, 1000), base[1]],
			[file("a.md", 100, 1001), base[1]],
			[file("a.md", 100, 1000, { changed: 5 }), base[1]],
			[file("a.md", 100, 1000, { id: "1:2" }), base[1]],
			[base[0]],
			[...base, file("c.md")],
			[file("a.md", 200, 2000), file("b.md", 100, 1000)],
			// An mtime past 2^32 ms differs only in its high bits; so may a size, or a ctime.
			[file("a.md", 100, 1000 + 2 ** 32), base[1]],
			[file("a.md", 100 + 2 ** 32, 1000), base[1]],
			[file("a.md", 100, 1000, { changed: 5 + 2 ** 32 }), base[1]],
		];
		for (const variant of variants) expect(listingDigest(FOLDER, variant), JSON.stringify(variant)).not.toBe(digest);
		expect(new Set(variants.map((v) => listingDigest(FOLDER, v))).size).toBe(variants.length);
	});

	it("of an empty listing is that of no file", () => {
		expect(listingDigest(FOLDER, [])).toBe(new FolderDigest().value());
	});
});

describe("a key filter", () => {
	it("holds every key added, across its encoding", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.string(), { maxLength: 200 }), (keys) => {
				const filter = KeyFilter.sized(keys.length);
				for (const key of keys) filter.add(key);
				const decoded = KeyFilter.decode(filter.encode());
				expect(decoded).not.toBeNull();
				for (const key of keys) expect(decoded?.mayHold(key)).toBe(true);
			}),
		);
	});

	it("answers read in its text as it did when built, whatever padding the text ends with", () => {
		const paddings = new Set<number>();
		fc.assert(
			fc.property(fc.uniqueArray(fc.string(), { maxLength: 300 }), fc.array(fc.string(), { maxLength: 60 }), (keys, others) => {
				const filter = KeyFilter.sized(keys.length);
				for (const key of keys) filter.add(key);
				const text = filter.encode();
				paddings.add(text.length - text.replace(/=+$/, "").length);
				const decoded = KeyFilter.decode(text);
				for (const key of [...keys, ...others, ...others.map((o) => `${o}-x`)]) expect(decoded?.mayHold(key), key).toBe(filter.mayHold(key));
				expect(decoded?.encode()).toBe(text);
			}),
			{ numRuns: 300 },
		);
		expect([...paddings].sort()).toEqual([0, 1, 2]);
	});

	it("says 'may' of under 0.2% of keys it does not hold", () => {
		const filter = KeyFilter.sized(30_000);
		for (let i = 0; i < 30_000; i++) filter.add(`held-${i}`);
		let wrong = 0;
		for (let i = 0; i < 30_000; i++) if (filter.mayHold(`other-${i}`)) wrong++;
		expect(wrong / 30_000).toBeLessThan(0.002);
	});

	it("refuses a text that is not one", () => {
		expect(KeyFilter.decode("")).toBeNull();
		// Text of the right length in other characters is either refused or says "may" of every key.
		for (const garbage of ["!!!! ???", "7.{}[]*&^%"]) {
			const filter = KeyFilter.decode(garbage);
			expect(filter === null || ["a", "b", "anything"].every((key) => filter.mayHold(key))).toBe(true);
		}
		expect(KeyFilter.decode("7.QUJD=")).toBeNull();
		expect(KeyFilter.decode("7.QU=D")).toBeNull();
		expect(KeyFilter.decode("7.QUJDR=A=")).toBeNull();
		expect(KeyFilter.decode("0.QUJD")).toBeNull();
		expect(KeyFilter.decode("7.")).toBeNull();
		expect(KeyFilter.decode(".QUJDRA==")).toBeNull();
		expect(KeyFilter.decode("7.QUJDRA==")?.encode()).toBe("7.QUJDRA==");
	});

	it("reads a filter written before its probe count was, as the seven probes it was written with", () => {
		const keys = Array.from({ length: 500 }, (_, i) => `old-${i}`);
		// Such a filter, written as this round's code wrote it: 10 bits and 7 probes per key, no count.
		const bits = new Uint8Array(Math.ceil((keys.length * 10) / 8));
		const size = bits.length * 8;
		for (const key of keys) {
			const a = textHash(key, 0x811c9dc5);
			const b = mixed(textHash(key, 0x050c5d1f)) | 1;
			for (let i = 0; i < 7; i++) {
				const at = ((a + Math.imul(i, b)) >>> 0) % size;
				bits[at >>> 3] |= 1 << (at & 7);
			}
		}
		const old = KeyFilter.decode(btoa(String.fromCharCode(...bits)));
		for (const key of keys) expect(old?.mayHold(key)).toBe(true);
		let wrong = 0;
		for (let i = 0; i < 5_000; i++) if (old?.mayHold(`other-${i}`)) wrong++;
		expect(wrong / 5_000).toBeLessThan(0.03);
	});

	it("answers 'may' where its text was damaged into characters that are not base64", () => {
		const filter = KeyFilter.sized(0);
		const text = filter.encode();
		expect(KeyFilter.decode(text)?.mayHold("anything")).toBe(false);
		const damaged = KeyFilter.decode(text.replace(/A/g, "*"));
		expect(damaged?.mayHold("anything")).toBe(true);
	});
});

describe("the digests a saved copy keeps", () => {
	const row = (path: string): [string, CachedNote] => [path, { size: 1, mtime: 1, entry: { path, location: { area: "other" }, kind: null, route: [] } }];
	const listed = (paths: string[]) => ({ digest: "d", rows: paths.length, paths: paths.reduce(addPath, 0) });

	it("keep a folder's digest only while the copy holds exactly the notes its listing had", () => {
		const listing = [`${FOLDER}/a.md`, `${FOLDER}/b.md`];
		const digests = new Map([[FOLDER, listed(listing)]]);
		expect(wholeListings(new Map(listing.map(row)), digests)).toEqual(new Map([[FOLDER, "d"]]));
		// As many notes, one of them another (a note dropped since, and a freed name's old row kept).
		expect(wholeListings(new Map([`${FOLDER}/a.md`, `${FOLDER}/c.md`].map(row)), digests)).toEqual(new Map());
		expect(wholeListings(new Map([`${FOLDER}/a.md`].map(row)), digests)).toEqual(new Map());
	});
});
