import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DeferredEntry, MessageIndex } from "../../src/core/message-index";
import type { IndexEntry } from "../../src/core/message-index";
import { decodeRow, encodeRow } from "../../src/router/history-cache";
import type { CachedNote } from "../../src/router/history-cache";

// The history copy's rows (src/router/history-cache.ts): a row's head (path, file facts, the three
// keys) is read at start, the rest of the entry only when a note is asked for. A row gives back
// exactly the entry it was written from, whatever its texts hold, and a damaged row is refused.

const ARCHIVE = { area: "box", box: "archive", group: "20-frontend-group" } as const;

function entry(over: Partial<IndexEntry> = {}): IndexEntry {
	return {
		path: "A2A/groups/20-frontend-group/archive/2026-11/ask 1.md",
		location: ARCHIVE,
		kind: "request",
		messageId: "m-1",
		traceId: "t-1",
		sourceGroup: "10-backend-group",
		targetGroup: "20-frontend-group",
		state: "answered",
		route: ["10-backend-group", "20-frontend-group"],
		hopCount: 1,
		deliveredAt: "2026-11-02T10:00:00.000Z",
		...over,
	};
}

function roundTrip(e: IndexEntry, facts: Omit<CachedNote, "entry"> = { size: 412, mtime: 1764500000123.25, id: "2049:77", changed: 1764500000123.5 }): { path: string; note: CachedNote; made: IndexEntry } {
	const written = encodeRow(e.path, { ...facts, entry: e });
	expect(written).not.toMatch(/[\n\r]/);
	// As the stores keep it: UTF-8 bytes on disk.
	const line = Buffer.from(written, "utf8").toString("utf8");
	expect(line).toBe(written);
	const row = decodeRow(line);
	if (row === null) throw new Error(`row refused: ${line}`);
	const deferred = row.note.entry as DeferredEntry;
	deferred.location = e.location;
	const made = deferred.make();
	if (made === null) throw new Error(`entry refused: ${line}`);
	return { path: row.path, note: row.note, made };
}

describe("the history copy's rows", () => {
	it("give back the path, file facts and entry they were written from", () => {
		const e = entry({ inReplyTo: "r-9", late: true, errorMessage: 'a "quoted"\ttab and\nline' });
		const { path, note, made } = roundTrip(e);
		expect(path).toBe(e.path);
		expect({ size: note.size, mtime: note.mtime, id: note.id, changed: note.changed }).toEqual({ size: 412, mtime: 1764500000123.25, id: "2049:77", changed: 1764500000123.5 });
		expect(made).toEqual(e);
	});

	it("keep texts with tabs, line breaks, percent signs, empty texts and missing values apart", () => {
		for (const tricky of ["", "%", "%41", '"', '"quoted"', 'a"b', "a\tb", "line\nbreak\r", "100% sure", "é ☃ 𝄞", " lead and trail ", "odd-\ud800-1", "\udc00", "50% \udfff", "\u2028\u2029", "\\u0041"]) {
			const e = entry({ path: `A2A/groups/20-frontend-group/archive/${tricky.replace(/[\n\r\t]/g, "_")}x.md`, messageId: tricky, traceId: tricky === "" ? undefined : tricky, inReplyTo: tricky });
			const { path, made } = roundTrip(e, { size: 1, mtime: 2 });
			expect(path).toBe(e.path);
			expect(made.messageId).toBe(tricky);
			expect(made.traceId).toBe(tricky === "" ? undefined : tricky);
			expect(made.inReplyTo).toBe(tricky);
			expect(made).toEqual(e);
		}
		const bare = roundTrip(entry({ messageId: undefined, traceId: undefined }), { size: 1, mtime: 2 });
		expect([bare.made.messageId, bare.made.traceId, bare.note.id, bare.note.changed]).toEqual([undefined, undefined, undefined, undefined]);
	});

	it("give back any texts, lone surrogates included, through UTF-8 (property)", () => {
		const text = fc.string({ unit: "binary", maxLength: 20 });
		fc.assert(
			fc.property(text, fc.option(text, { nil: undefined }), fc.option(text, { nil: undefined }), fc.option(text, { nil: undefined }), text, (name, messageId, traceId, inReplyTo, error) => {
				const e = entry({ path: `A2A/groups/g/archive/${name}.md`, messageId, traceId, inReplyTo, errorMessage: error });
				const row = decodeRow(Buffer.from(encodeRow(e.path, { size: 3, mtime: 4, entry: e }), "utf8").toString("utf8"));
				expect(row?.path).toBe(e.path);
				const deferred = row?.note.entry as DeferredEntry;
				deferred.location = e.location;
				expect(deferred.make()).toEqual(e);
			}),
			{ numRuns: 2000 },
		);
	});

	it("refuse a line that is cut short, has a field too few, or a number that is none", () => {
		const line = encodeRow(entry().path, { size: 412, mtime: 5, entry: entry() });
		expect(decodeRow(line)).not.toBeNull();
		expect(decodeRow(line.slice(0, -1))).toBeNull();
		expect(decodeRow(line.slice(0, line.lastIndexOf("\t")))).toBeNull();
		expect(decodeRow(line.replace("\t412\t", "\tbig\t"))).toBeNull();
		expect(decodeRow(line.replace("m-1", '"m-1'))).toBeNull();
		expect(decodeRow(line.replace("m-1", "42").replace("\t42\t", '\t"4\t'))).toBeNull();
		expect(decodeRow("")).toBeNull();
	});
});

describe("deferred entries in the message index", () => {
	it("answer lookups by id, trace and reply with the entry made on first use, and count without being made", () => {
		const e = entry({ inReplyTo: "asked-1" });
		const row = decodeRow(encodeRow(e.path, { size: 1, mtime: 2, entry: e }));
		const deferred = row?.note.entry as DeferredEntry;
		deferred.location = ARCHIVE;
		let made = 0;
		const make = deferred.make.bind(deferred);
		deferred.make = () => {
			made++;
			return make();
		};
		const index = new MessageIndex();
		index.set(deferred);
		expect(index.has(e.path)).toBe(true);
		expect(index.countIn("20-frontend-group", "archive")).toBe(1);
		expect(index.countInFolder("A2A/groups/20-frontend-group/archive/2026-11")).toBe(1);
		expect(made).toBe(0);
		expect(index.withId("m-1")).toEqual([e]);
		expect(index.inTrace("t-1")).toEqual([e]);
		expect(index.repliesTo("asked-1")).toEqual([e]);
		expect(index.get(e.path)).toEqual(e);
		expect(made).toBe(1);
		index.remove(e.path);
		expect([index.withId("m-1"), index.size, index.countIn("20-frontend-group", "archive")]).toEqual([[], 0, 0]);
	});

	it("make a dead letter at once, so that the dead-letter list holds it", () => {
		const e = entry({ path: "A2A/dead-letter/ask 2.md", location: { area: "dead-letter" }, state: "timed_out", errorCode: "TIMEOUT" });
		const deferred = decodeRow(encodeRow(e.path, { size: 1, mtime: 2, entry: e }))?.note.entry as DeferredEntry;
		deferred.location = { area: "dead-letter" };
		const index = new MessageIndex();
		index.set(deferred);
		expect([...index.deadLetters()]).toEqual([e]);
	});

	it("hold a damaged rest as a note that is no message, its keys kept, and name its path to be read again", () => {
		const e = entry();
		const line = encodeRow(e.path, { size: 1, mtime: 2, entry: e });
		// A character lost inside the JSON: the row still has its fields and braces.
		const row = decodeRow(line.replace('"route":[', '"route":[['));
		const deferred = row?.note.entry as DeferredEntry;
		deferred.location = ARCHIVE;
		expect(deferred.make()).toBeNull();
		const index = new MessageIndex();
		index.set(deferred);
		expect(index.withId("m-1")).toMatchObject([{ kind: null, route: [], messageId: "m-1" }]);
		expect(index.takeDamaged()).toEqual([e.path]);
		expect(index.takeDamaged()).toEqual([]);
	});

	it("find entries by a field, making only the deferred ones whose saved JSON names the value", () => {
		const index = new MessageIndex();
		const made: string[] = [];
		for (const [i, source] of ["gw", "gw2", "x", "gw"].entries()) {
			const e = entry({ path: `A2A/groups/20-frontend-group/archive/n ${i}.md`, messageId: `m-${i}`, sourceGroup: source, errorMessage: 'said "sourceGroup":"gw" once' });
			const deferred = decodeRow(encodeRow(e.path, { size: 1, mtime: 2, entry: e }))?.note.entry as DeferredEntry;
			deferred.location = ARCHIVE;
			const make = deferred.make.bind(deferred);
			deferred.make = () => {
				made.push(e.path);
				return make();
			};
			index.set(deferred);
		}
		// The index keeps no order among its entries (src/core/split-map.ts).
		expect([...index.withField("sourceGroup", "gw")].map((e) => e.messageId).sort()).toEqual(["m-0", "m-3"]);
		expect(made.map((p) => p.slice(-6)).sort()).toEqual(["n 0.md", "n 3.md"]);
	});
});
