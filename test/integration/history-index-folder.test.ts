import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KeyFilter } from "../../src/router/history-digest";
import { HistoryIndexFolder } from "../../src/obsidian/history-index-folder";
import type { CachedNote } from "../../src/router/history-cache";
import type { IndexEntry } from "../../src/core/message-index";
import { TempHost } from "../../test-support/fake-obsidian/node-host";

// The plugin's history copy on disk, one part a history folder: what a save writes (and what it
// leaves as it is), and which parts a load refuses.

const COPY = ".obsidian/plugins/a2a-relay/history-index";
const FORMER = ".obsidian/plugins/a2a-relay/history-index.json";
const MONTHS = ["A2A/groups/g/archive/2026-10", "A2A/groups/g/archive/2026-11", "A2A/dead-letter"];

let dir: string;
let host: TempHost;
beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-history-folder-"));
	host = new TempHost(dir);
});
afterEach(async () => {
	await host.dispose();
	await fs.rm(dir, { recursive: true, force: true });
});

function note(folder: string, i: number): [string, CachedNote] {
	const path = `${folder}/n ${i}.md`;
	const entry: IndexEntry = { path, location: { area: "dead-letter" }, kind: "request", route: [], messageId: `id-${folder}-${i}`, traceId: `trace-${i}` };
	return [path, { size: 100 + i, mtime: 1_700_000_000_000 + i, entry }];
}

const notesOf = (folders: string[], n = 5) => new Map(folders.flatMap((f) => Array.from({ length: n }, (_, i) => note(f, i))));
const store = () => new HistoryIndexFolder(host.app, COPY, "A2A", undefined, FORMER);

/** The adapter's writes while `work` runs. */
async function writes(work: () => Promise<void>): Promise<string[]> {
	const adapter = host.app.vault.adapter;
	const write = adapter.write.bind(adapter);
	const seen: string[] = [];
	adapter.write = (file: string, text: string) => {
		seen.push(file.slice(COPY.length + 1));
		return write(file, text);
	};
	try {
		await work();
	} finally {
		adapter.write = write;
	}
	return seen;
}

describe("the plugin's history copy, one part a folder", () => {
	it("writes a part per folder and parts.json last; the next save writes again only the parts whose listing changed, and removes the parts of folders gone and the former copy", async () => {
		await fs.mkdir(path.join(dir, path.dirname(FORMER)), { recursive: true });
		await fs.writeFile(path.join(dir, FORMER), "{}");
		const digests = new Map(MONTHS.map((f) => [f, `d-${f}`]));
		const first = await writes(() => store().save(notesOf(MONTHS), digests));
		expect(first.length).toBe(4);
		expect(first[3]).toBe("parts.json");
		await expect(fs.stat(path.join(dir, FORMER))).rejects.toThrow();

		// A new start: one month's listing changed, the dead-letter folder is gone.
		const next = store();
		expect((await next.loadSummary())?.size).toBe(3);
		const changed = new Map([...digests].filter(([f]) => f !== MONTHS[2]).map(([f, d]) => [f, f === MONTHS[1] ? `${d}-2` : d]));
		const notes = new Map([...notesOf([MONTHS[0]]), ...notesOf([MONTHS[1]], 6)]);
		for (const folder of MONTHS) await next.loadPart(folder);
		const second = await writes(() => next.save(notes, changed));
		expect(second).toEqual([first[1], "parts.json"]);
		const files = (await fs.readdir(path.join(dir, COPY))).sort();
		expect(files).toEqual([first[0], first[1], "parts.json"].sort());

		const loaded = await store().load();
		expect([...(loaded?.keys() ?? [])].sort()).toEqual([...notes.keys()].sort());
	});

	it("keeps no digest for a folder it was given none for, and tells which keys a part may hold", async () => {
		const s = store();
		await s.save(notesOf(MONTHS), new Map([[MONTHS[0], "d0"]]));
		const summary = await store().loadSummary();
		expect(summary?.get(MONTHS[0])?.digest).toBe("d0");
		expect(summary?.get(MONTHS[1])?.digest).toBeNull();
		expect(summary?.get(MONTHS[1])?.filter.mayHold(`id-${MONTHS[1]}-3`)).toBe(true);
		expect(summary?.get(MONTHS[1])?.filter.mayHold(`id-${MONTHS[0]}-3`)).toBe(false);
	});

	it("refuses a part that parts.json does not describe (a save cut short between the two) and keeps the others", async () => {
		await store().save(notesOf(MONTHS), new Map(MONTHS.map((f) => [f, `d-${f}`])));
		const summaryText = await fs.readFile(path.join(dir, COPY, "parts.json"), "utf8");
		// A later save wrote one part again (its folder's listing changed) and stopped before parts.json.
		await store().save(notesOf(MONTHS), new Map(MONTHS.map((f) => [f, f === MONTHS[0] ? "d-new" : `d-${f}`])));
		await fs.writeFile(path.join(dir, COPY, "parts.json"), summaryText);
		const s = store();
		await s.loadSummary();
		expect(await s.loadPart(MONTHS[0])).toBeNull();
		expect((await s.loadPart(MONTHS[1]))?.size).toBe(5);
	});

	it("reads a part whose filter was written before filters carried their probe count or a hash, and makes each such filter again from its rows at the next save", async () => {
		const digests = new Map(MONTHS.map((f) => [f, `d-${f}`]));
		await store().save(notesOf(MONTHS), digests);
		// parts.json as the former form wrote it: the first part's filter without its probe count.
		const summaryPath = path.join(dir, COPY, "parts.json");
		const summary = JSON.parse(await fs.readFile(summaryPath, "utf8")) as { parts: { folder: string; filter: string; filterSum?: number }[] };
		const legacy = summary.parts.find((p) => p.folder === MONTHS[0]);
		if (!legacy) throw new Error("no part for the first month");
		const legacyBits = KeyFilter.sized(0).encode().replace(/^\d+\./, "");
		legacy.filter = legacyBits;
		// Nor did parts.json keep a hash of each filter then; and another part's filter was damaged since
		// into other base64 characters (every bit cleared), which nothing could tell without a hash.
		for (const part of summary.parts) delete part.filterSum;
		const damaged = summary.parts.find((p) => p.folder === MONTHS[1]);
		if (!damaged) throw new Error("no part for the second month");
		damaged.filter = damaged.filter.replace(/^(\d+\.)(.*)$/, (_, count: string, bits: string) => count + "A".repeat(bits.length));
		await fs.writeFile(summaryPath, JSON.stringify(summary));
		const next = store();
		const loaded = await next.loadSummary();
		// Read as the seven probes it was written with (an empty one: it may hold nothing).
		expect(loaded?.get(MONTHS[0])?.filter.mayHold(`id-${MONTHS[0]}-3`)).toBe(false);
		expect(loaded?.get(MONTHS[1])?.filter.mayHold(`id-${MONTHS[1]}-3`)).toBe(false);
		for (const folder of MONTHS) await next.loadPart(folder);
		const written = await writes(() => next.save(notesOf(MONTHS), digests));
		// Every part again (none had a hash), then parts.json.
		expect(written).toHaveLength(4);
		expect(written[3]).toBe("parts.json");
		const after = await store().loadSummary();
		expect(after?.get(MONTHS[0])?.filter.encode()).toMatch(/^\d+\./);
		expect(after?.get(MONTHS[0])?.filter.mayHold(`id-${MONTHS[0]}-3`)).toBe(true);
		expect(after?.get(MONTHS[1])?.filter.mayHold(`id-${MONTHS[1]}-3`)).toBe(true);
		// Every part's filter now has its hash, the parts not written again too.
		const rewritten = JSON.parse(await fs.readFile(summaryPath, "utf8")) as { parts: { filterSum?: number }[] };
		expect(rewritten.parts.map((p) => typeof p.filterSum)).toEqual(["number", "number", "number"]);
	});

	it("leaves out a part whose filter was damaged into other base64 characters, which would have answered a wrong no", async () => {
		await store().save(notesOf(MONTHS), new Map(MONTHS.map((f) => [f, `d-${f}`])));
		const summaryPath = path.join(dir, COPY, "parts.json");
		const text = await fs.readFile(summaryPath, "utf8");
		const summary = JSON.parse(text) as { parts: { folder: string; filter: string }[] };
		const part = summary.parts.find((p) => p.folder === MONTHS[0]);
		if (!part) throw new Error("no part for the first month");
		// Every bit cleared, in characters that are still base64: read as it is, the filter says its notes' keys are not there.
		const damaged = part.filter.replace(/^(\d+\.)(.*)$/, (_, count: string, bits: string) => count + "A".repeat(bits.length));
		expect(KeyFilter.decode(damaged)?.mayHold(`id-${MONTHS[0]}-3`)).toBe(false);
		await fs.writeFile(summaryPath, text.replace(part.filter, damaged));
		const loaded = await store().loadSummary();
		expect(loaded?.has(MONTHS[0])).toBe(false);
		expect(loaded?.get(MONTHS[1])?.filter.mayHold(`id-${MONTHS[1]}-3`)).toBe(true);
	});

	it("writes again a part that could not be read, though its folder did not change", async () => {
		const digests = new Map(MONTHS.map((f) => [f, `d-${f}`]));
		const [part] = await writes(() => store().save(notesOf(MONTHS), digests));
		await fs.rm(path.join(dir, COPY, part));
		const next = store();
		await next.loadSummary();
		expect(await next.loadPart(MONTHS[0])).toBeNull();
		await next.save(notesOf(MONTHS), digests);
		const again = store();
		await again.loadSummary();
		expect((await again.loadPart(MONTHS[0]))?.size).toBe(5);
	});

	it("yields at least every 5,000 rows while it writes one large part (a busy month, or the dead-letter folder)", async () => {
		// Each row's entry counts the times the save touches it (its keys for the filter, its fields for the row).
		let sinceYield = 0;
		let worst = 0;
		let total = 0;
		const rows = 30_000;
		const notes = new Map<string, CachedNote>();
		for (let i = 0; i < rows; i++) {
			const p = `A2A/dead-letter/dead ${i}.md`;
			const entry = { path: p, location: { area: "dead-letter" }, route: [], traceId: `trace-${i}`, state: "dead" } as unknown as IndexEntry;
			Object.defineProperty(entry, "messageId", { enumerable: true, get: () => (sinceYield++, `d-${i}`) });
			Object.defineProperty(entry, "kind", { enumerable: true, get: () => (sinceYield++, "request") });
			notes.set(p, { size: 300 + (i % 50), mtime: 1_700_000_000_000 + i, entry });
		}
		const yieldNow = () => {
			total += sinceYield;
			worst = Math.max(worst, sinceYield);
			sinceYield = 0;
			return Promise.resolve();
		};
		await new HistoryIndexFolder(host.app, COPY, "A2A", yieldNow).save(notes, new Map([["A2A/dead-letter", "d"]]));
		total += sinceYield;
		worst = Math.max(worst, sinceYield);
		expect((await store().load())?.size).toBe(rows);
		// (one row more for the touch that leads into the first slice)
		expect(worst).toBeLessThanOrEqual((total / rows) * 5001);
	}, 60_000);
});
