import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HistoryCacheFolder, cacheFolder } from "../../node/history-cache-folder";
import { NodeVault } from "../../node/node-vault";
import type { IndexEntry } from "../../src/core/message-index";
import type { CachedNote, HistoryCacheStore } from "../../src/router/history-cache";
import { Router } from "../../src/router/router";
import { recordingPort } from "../helpers/port-calls";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Issue 13, history is free: a router keeps a device-local copy of what it read of the history
// (src/router/history-cache.ts), so that routing one note on a vault with a long history reads only
// the history notes that changed since. The copy is a cache: a stale, truncated, garbled or deleted
// copy never changes a routing decision.

const A = "10-backend-group";
const B = "20-frontend-group";
const ARCHIVED = 300;

let v: TempVault;
let cacheDir: string;
beforeEach(async () => {
	v = await makeTempVault("a2a-history-cache-");
	cacheDir = path.join(v.dir, "..", `${path.basename(v.dir)}-cache`);
	await v.write("A2A/registry.yaml", REGISTRY);
	await a2a(v.dir, "init");
	for (let i = 0; i < ARCHIVED; i++) {
		await v.write(`${BOX(B, "archive")}/old ${i}.md`, requestNote({ message_id: `old-${i}`, target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
	}
});
afterEach(async () => {
	await v.cleanup();
	await fs.rm(cacheDir, { recursive: true, force: true });
});

const historyReads = (reads: string[]) => reads.filter((p) => p.includes("/archive/") || p.startsWith("A2A/dead-letter/"));

/**
 * One routing pass over the vault, as `a2a route` makes it (NodeVault, the cache folder, the history
 * read as needed), with what it read; `historyAsNeeded: false` as a router that runs on makes it.
 */
async function routeOnce(store: HistoryCacheStore = new HistoryCacheFolder(cacheDir, v.dir, "A2A"), historyAsNeeded = true) {
	const { port, reads } = recordingPort(new NodeVault(v.dir));
	// The notes were written a moment ago: a note is kept in the copy only once its times are older
	// than a tick of a coarse file-system clock, so the router's clock runs a minute ahead here.
	const router = new Router(port, { historyCache: store, clock: () => Date.now() + 60_000, historyAsNeeded });
	await router.loadRegistry();
	const report = await router.pass();
	return { report, history: historyReads(reads), router };
}

/** The index's entries of the history, comparable across routers. */
function historyEntries(router: Router): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const entry of router.index.all()) if (entry.location.area === "dead-letter" || (entry.location.area === "box" && entry.location.box === "archive")) out[entry.path] = entry;
	return out;
}

/** A part of the CLI's copy with its header's hash made over its rows as they are. */
function resummed(part: string): string {
	const newline = part.indexOf("\n");
	const header = JSON.parse(part.slice(0, newline)) as { sum: string };
	header.sum = createHash("sha256").update(part.slice(newline + 1)).digest("hex");
	return `${JSON.stringify(header)}\n${part.slice(newline + 1)}`;
}

async function send(name: string, fields: Record<string, unknown>): Promise<void> {
	await v.write(`${BOX(A, "outbox")}/${name}.md`, requestNote({ target_group: B, ...fields }));
}

describe("the history index copy (history is free)", () => {
	it("a second routing pass reads no history note it read before, and indexes the same entries", async () => {
		await send("first", { message_id: "new-1" });
		const cold = await routeOnce();
		expect(cold.history.length).toBeGreaterThanOrEqual(ARCHIVED);
		expect(cold.report.decisions.map((d) => d.outcome)).toEqual(["delivered"]);
		await send("second", { message_id: "new-2" });
		// As a router that runs on: after routing, it indexes the whole history.
		const warm = await routeOnce(undefined, false);
		expect(warm.report.decisions.map((d) => d.outcome)).toEqual(["delivered"]);
		expect(warm.history).toEqual([]);
		const uncached = new Router(new NodeVault(v.dir));
		await uncached.loadRegistry();
		await uncached.indexSync.ensureHistory();
		expect(historyEntries(warm.router)).toEqual(historyEntries(uncached));
	});

	it("a history note changed since the copy was saved is read again, and its new content decides", async () => {
		await send("first", { message_id: "new-1" });
		await routeOnce();
		// An archived request's message id is changed in place (same folder, same name).
		await v.write(`${BOX(B, "archive")}/old 7.md`, requestNote({ message_id: "changed-7", target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		await send("again", { message_id: "changed-7" });
		const { report, history } = await routeOnce();
		expect(history).toEqual([`${BOX(B, "archive")}/old 7.md`]);
		expect(report.decisions.map((d) => [d.outcome, d.error_code])).toEqual([["duplicate", "DUPLICATE"]]);
	});

	it("a history note rewritten in place with its size and modification time put back is read again (its ctime moved)", async () => {
		// A whole second, so that putting it back is exact.
		const file = path.join(v.dir, BOX(B, "archive"), "old 9.md");
		const second = new Date("2026-01-01T00:00:00Z");
		await fs.utimes(file, second, second);
		await send("first", { message_id: "new-1" });
		await routeOnce();
		const before = await fs.stat(file);
		const text = await fs.readFile(file, "utf8");
		const edited = text.replace("old-9", "odd-9");
		expect(edited.length).toBe(text.length);
		await fs.writeFile(file, edited);
		await fs.utimes(file, second, second);
		const after = await fs.stat(file);
		expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
		await send("again", { message_id: "odd-9" });
		const { report, history } = await routeOnce();
		expect(history).toEqual([`${BOX(B, "archive")}/old 9.md`]);
		expect(report.decisions.map((d) => [d.outcome, d.error_code])).toEqual([["duplicate", "DUPLICATE"]]);
	});

	it("the history is the notes of the archives and the dead-letter folder: nothing below them is listed or read", async () => {
		// Walking below would let any folder there stop routing (one it cannot read: EACCES for a user
		// who is not root), and cost a walk of whatever it holds.
		const below = `${BOX(B, "archive")}/private`;
		await v.write(`${below}/x.md`, requestNote({ message_id: "below-1", target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		await fs.chmod(path.join(v.dir, below), 0);
		try {
			await send("first", { message_id: "new-1" });
			const { port, log: touched } = recordingPort(new NodeVault(v.dir));
			const router = new Router(port, { historyCache: new HistoryCacheFolder(cacheDir, v.dir, "A2A"), clock: () => Date.now() + 60_000 });
			await router.loadRegistry();
			expect((await router.pass()).decisions.map((d) => d.outcome)).toEqual(["delivered"]);
			expect(touched.filter((t) => t.includes(below) || (t.startsWith("listRecursive") && (t.includes("/archive") || t.includes("dead-letter"))))).toEqual([]);
			expect(router.index.withId("below-1")).toEqual([]);
		} finally {
			await fs.chmod(path.join(v.dir, below), 0o700);
		}
	});

	it("takes no cache folder that is relative, and none inside the vault", async () => {
		expect(cacheFolder({ A2A_CACHE_DIR: "relative/cache" })).toBeNull();
		expect(cacheFolder({ A2A_CACHE_DIR: "off" })).toBeNull();
		expect(cacheFolder({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/a2a-relay");
		expect(cacheFolder({ XDG_CACHE_HOME: "relative", HOME: "/home/me" })).toBe(path.join(os.homedir(), ".cache", "a2a-relay"));
		const inside = path.join(v.dir, ".cache");
		await send("first", { message_id: "new-1" });
		const problems: string[] = [];
		await routeOnce(new HistoryCacheFolder(inside, await fs.realpath(v.dir), "A2A", (m) => problems.push(m)));
		expect(problems.join("\n")).toContain("outside the vault");
		expect(await fs.readdir(inside).catch(() => [])).toEqual([]);
	});

	it("a copy that is deleted, garbled, cut short or edited changes no decision: a duplicate of an archived message is still refused", async () => {
		await send("first", { message_id: "new-1" });
		await routeOnce();
		const [copy] = (await fs.readdir(cacheDir)).filter((name) => name.startsWith("history-"));
		const summaryFile = path.join(cacheDir, copy, "parts.json");
		const [partName] = (await fs.readdir(path.join(cacheDir, copy))).filter((name) => name.endsWith(".tsv"));
		const partFile = path.join(cacheDir, copy, partName);
		const summary = await fs.readFile(summaryFile, "utf8");
		const part = await fs.readFile(partFile, "utf8");
		// Each row holds the note's keys in its head: path, size, mtime, identity, ctime, message id, ...
		expect(part).toContain("\told-11\t");
		const damaged: [string, string | null][] = [
			[summaryFile, null],
			[summaryFile, "{ not json"],
			[summaryFile, summary.slice(0, Math.floor(summary.length / 2))],
			// The summary edited (its signature no longer holds), and unsigned.
			[summaryFile, summary.replace('"rows":', '"rows": ')],
			[summaryFile, summary.slice(summary.indexOf("\n") + 1)],
			// Edited to say archived note 11 is another message, its size and time left as they are:
			// the part's hash in the signed summary no longer holds, so its notes are read.
			[partFile, part.replace("\told-11\t", "\tsomeone-else\t")],
			// The same with the part's own header made over the edit (anyone can compute a SHA-256): the signed summary's hash tells.
			[partFile, resummed(part.replace("\told-11\t", "\tsomeone-else\t"))],
			[partFile, part.slice(0, Math.floor(part.length / 2))],
			[partFile, null],
		];
		for (const [i, [file, text]] of damaged.entries()) {
			if (text === null) await fs.rm(file, { force: true });
			else await fs.writeFile(file, text);
			await send(`dup-${i}`, { message_id: "old-11", trace_id: `0000000${i}-0000-4000-8000-000000000000` });
			const { report } = await routeOnce();
			expect(report.decisions.map((d) => [d.outcome, d.error_code]), `copy ${i}`).toEqual([["duplicate", "DUPLICATE"]]);
		}
	});

	it("an archived note that is gone is dropped, and one that came is indexed", async () => {
		await send("first", { message_id: "new-1" });
		await routeOnce();
		await fs.rm(path.join(v.dir, BOX(B, "archive"), "old 3.md"));
		await v.write(`${BOX(B, "archive")}/late comer.md`, requestNote({ message_id: "came-later", target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		await send("second", { message_id: "new-2" });
		// As a router that runs on, which indexes the whole history after routing: old-3 would be there.
		const { router, history } = await routeOnce(undefined, false);
		expect(history).toEqual([`${BOX(B, "archive")}/late comer.md`]);
		expect(router.index.withId("old-4").map((e) => e.path)).toEqual([`${BOX(B, "archive")}/old 4.md`]);
		expect(router.index.withId("old-3")).toEqual([]);
		expect(router.index.withId("came-later").map((e) => e.path)).toEqual([`${BOX(B, "archive")}/late comer.md`]);
	});

	it("a store that cannot save leaves routing as it is: the next pass reads the history again", async () => {
		const failing: HistoryCacheStore & { saves: number } = {
			saves: 0,
			async load() {
				return null;
			},
			async save(notes: ReadonlyMap<string, CachedNote>) {
				failing.saves++;
				expect(notes.size).toBeGreaterThanOrEqual(ARCHIVED);
			},
		};
		await send("first", { message_id: "new-1" });
		expect((await routeOnce(failing)).report.decisions.map((d) => d.outcome)).toEqual(["delivered"]);
		await send("second", { message_id: "old-5" });
		const second = await routeOnce(failing);
		expect(second.report.decisions.map((d) => [d.outcome, d.error_code])).toEqual([["duplicate", "DUPLICATE"]]);
		expect(second.history.length).toBeGreaterThanOrEqual(ARCHIVED);
		expect(failing.saves).toBe(2);
	});

	it("the CLI keeps its copy outside the vault, in A2A_CACHE_DIR, and not at all with A2A_CACHE_DIR=off", async () => {
		const before = process.env.A2A_CACHE_DIR;
		try {
			process.env.A2A_CACHE_DIR = cacheDir;
			await send("first", { message_id: "new-1" });
			expect((await a2a(v.dir, "route")).code).toBe(0);
			const copies = await fs.readdir(cacheDir);
			expect(copies.sort()).toEqual([expect.stringMatching(/^history-[0-9a-f]{32}$/), "key"]);
			expect((await fs.stat(path.join(cacheDir, copies.sort()[0]))).mode & 0o077).toBe(0);
			// The notes were written a moment ago, too recently to be kept: the summary is there, their part not yet.
			expect(await fs.readdir(path.join(cacheDir, copies.sort()[0]))).toEqual(["parts.json"]);
			expect((await fs.stat(path.join(cacheDir, "key"))).mode & 0o077).toBe(0);
			expect((await v.files()).filter((f) => f.includes("history-"))).toEqual([]);
			process.env.A2A_CACHE_DIR = "off";
			await fs.rm(cacheDir, { recursive: true });
			await send("second", { message_id: "new-2" });
			expect((await a2a(v.dir, "route")).code).toBe(0);
			await expect(fs.readdir(cacheDir)).rejects.toThrow();
		} finally {
			process.env.A2A_CACHE_DIR = before;
		}
	});
	it("an archived message id with a lone surrogate (half a character) is kept exactly: a warm start refuses its duplicate as a cold read does", async () => {
		// YAML "\ud800" is a lone surrogate, and the router takes it as an id; UTF-8 cannot carry it alone.
		const id = "odd-\ud800-1";
		await v.write(`${BOX(B, "archive")}/odd.md`, requestNote({ message_id: "placeholder", target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }).replace('"placeholder"', '"odd-\\ud800-1"'));
		await send("first", { message_id: "new-1" });
		await routeOnce();
		await send("dup", { message_id: "placeholder" });
		const dup = path.join(v.dir, BOX(A, "outbox"), "dup.md");
		await fs.writeFile(dup, (await fs.readFile(dup, "utf8")).replace('"placeholder"', '"odd-\\ud800-1"'));
		const warm = await routeOnce();
		expect(warm.history).toEqual([]);
		expect(warm.router.index.withId(id).map((e) => e.path)).toContain(`${BOX(B, "archive")}/odd.md`);
		expect(warm.report.decisions.map((d) => [d.outcome, d.error_code])).toEqual([["duplicate", "DUPLICATE"]]);
	});

	it("a copy that cannot be saved never fails a pass, nor any pass after it", async () => {
		await send("first", { message_id: "new-1" });
		const inner = new HistoryCacheFolder(cacheDir, v.dir, "A2A");
		const throwing: HistoryCacheStore = { load: () => inner.load(), save: () => Promise.reject(new Error("disk full")) };
		const router = new Router(new NodeVault(v.dir), { historyCache: throwing, clock: () => Date.now() + 60_000 });
		await router.loadRegistry();
		const outcomes: string[] = [];
		for (let i = 0; i < 3; i++) {
			await send(`more ${i}`, { message_id: `more-${i}` });
			outcomes.push(await router.pass().then((r) => r.decisions.map((d) => d.outcome).join(), (e: Error) => `failed: ${e.message}`));
		}
		expect(outcomes).toEqual(["delivered,delivered", "delivered", "delivered"]);
	});

	it("the copy is saved after the pass routed its notes, not before the first one", async () => {
		await send("first", { message_id: "new-1" });
		const order: string[] = [];
		const inner = new HistoryCacheFolder(cacheDir, v.dir, "A2A");
		const store: HistoryCacheStore = {
			load: () => inner.load(),
			save: async (notes, digests) => {
				order.push("save");
				await inner.save(notes, digests);
			},
		};
		const vault = new NodeVault(v.dir);
		const transfer = vault.transfer.bind(vault);
		vault.transfer = async (...args: Parameters<typeof vault.transfer>) => {
			order.push(`transfer into ${args[1]}`);
			return transfer(...args);
		};
		const router = new Router(vault, { historyCache: store, clock: () => Date.now() + 60_000 });
		await router.loadRegistry();
		await router.pass();
		expect(order).toEqual([`transfer into ${BOX(B, "inbox")}`, "save"]);
	});
});


// The entries the copy gives back are those the index made from the notes (a type-level check that
// the saved rows keep every field is in src/router/history-cache.ts).
export type { IndexEntry };
