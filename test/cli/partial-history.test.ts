import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HistoryCacheFolder } from "../../node/history-cache-folder";
import { filesIn } from "../../node/folder-listing";
import { NodeVault } from "../../node/node-vault";
import { uuidFromText } from "../../src/core/hash";
import type { IndexEntry } from "../../src/core/message-index";
import { Router } from "../../src/router/router";
import type { PassReport } from "../../src/router/router";
import type { FileFacts, FileInfo, VaultPort } from "../../src/router/vault-port";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Issue 29: where the host tells a folder's file facts at once (the plugin: Obsidian keeps every
// file's size and mtime), a router starting with notes waiting reads of its history only the notes
// that share a key with them, and every note its copy no longer vouches for, routes them, and then
// indexes the rest. A decision that asks about any other key is made again on the whole history.
// Here the Node vault is given such a visit of a folder's files, so that the path can be driven from a test.

const A = "10-backend-group";
const B = "20-frontend-group";
const ARCHIVED = 200;

let v: TempVault;
let cacheDir: string;
beforeEach(async () => {
	v = await makeTempVault("a2a-partial-history-");
	cacheDir = path.join(v.dir, "..", `${path.basename(v.dir)}-cache`);
	await v.write("A2A/registry.yaml", REGISTRY);
	await a2a(v.dir, "init");
	for (let i = 0; i < ARCHIVED; i++) {
		await v.write(`${BOX(B, "archive")}/old ${i}.md`, requestNote({ message_id: `old-${i}`, trace_id: `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`, target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
	}
});
afterEach(async () => {
	await v.cleanup();
	await fs.rm(cacheDir, { recursive: true, force: true });
});

/** The Node vault, telling each folder's file facts at once (as the plugin's adapter does). */
function listingPort(): VaultPort {
	const port = new NodeVault(v.dir);
	return Object.assign(port, {
		eachFileIn(folder: string, visit: (name: string, facts: FileFacts) => void): void {
			for (const info of filesIn(port.abs(folder), folder)) visit(info.path.slice(folder.length + 1), info);
		},
	});
}

/** A router as a new start makes it: its index empty, the copy of an earlier one in the cache folder; `reads` gets every note it reads. */
async function start(reads: string[] = [], clock = () => Date.now() + 60_000, port: VaultPort = listingPort(), historyAsNeeded = false): Promise<Router> {
	const read = port.read.bind(port);
	port.read = (path, options) => {
		reads.push(path);
		return read(path, options);
	};
	const router = new Router(port, { historyCache: new HistoryCacheFolder(cacheDir, v.dir, "A2A"), clock, historyAsNeeded });
	await router.loadRegistry();
	return router;
}

const archived = (router: Router) => router.index.pathsWhere((p) => p.includes("/archive/")).length;

/** `port`, whose listing of `folder` fails once with `code` (a disk error, too many open files). */
function listingFailsOnce<P extends VaultPort>(port: P, folder: string, code: "EIO" | "EMFILE"): P {
	const listInfo = port.listInfo?.bind(port) as (folder: string) => Promise<FileInfo[]>;
	let failures = 1;
	port.listInfo = async (listed: string) => {
		if (listed === folder && failures-- > 0) throw Object.assign(new Error(`${code}: the listing failed`), { code });
		return listInfo(listed);
	};
	return port;
}

/** One pass of a router without a copy (a cold, full read) over a copy of the vault as it is now; `look` reads what it needs of the result. */
async function coldPass<T>(look: (report: PassReport, dir: string) => Promise<T> | T): Promise<T> {
	const cold = `${v.dir}-cold`;
	await fs.cp(v.dir, cold, { recursive: true });
	try {
		const router = new Router(new NodeVault(cold), { clock: () => Date.now() + 60_000 });
		await router.loadRegistry();
		return await look(await router.pass(), cold);
	} finally {
		await fs.rm(cold, { recursive: true, force: true });
	}
}

async function send(name: string, fields: Record<string, unknown>): Promise<void> {
	await v.write(`${BOX(A, "outbox")}/${name}.md`, requestNote({ target_group: B, ...fields }));
}

describe("routing before the whole history is indexed", () => {
	it("the notes waiting at start are decided with only the history that shares their keys, and the whole history follows", async () => {
		await send("first", { message_id: "new-1" });
		expect((await (await start()).pass()).decisions.map((d) => d.outcome)).toEqual(["delivered"]);

		// Next start: a duplicate of an archived id, a note continuing an archived trace, a fresh note.
		await send("dup", { message_id: "old-7" });
		await send("fresh", { message_id: "new-2" });
		const router = await start();
		const seen: number[] = [];
		const decide = router.indexSync.decide.bind(router.indexSync);
		router.indexSync.decide = async <T,>(decision: () => T): Promise<T> => {
			seen.push(archived(router));
			return decide(decision);
		};
		const report = await router.pass();
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`).sort()).toEqual(["delivered new-2", "duplicate old-7"]);
		// Each decision saw the archived notes sharing a key with the waiting notes, not all 200.
		expect(seen).toEqual([1, 1]);
		expect(archived(router)).toBe(ARCHIVED);
		expect(router.indexSync.hasPartialHistory).toBe(false);
	});

	it("a note of the history changed since the copy is read before any decision, whatever its keys", async () => {
		await send("first", { message_id: "new-1" });
		await (await start()).pass();
		// Edited while no router ran: archived note 3 now carries the id the waiting note uses.
		const file = path.join(v.dir, BOX(B, "archive"), "old 3.md");
		const before = await fs.readFile(file, "utf8");
		const after = before.replace(/message_id: "?old-3"?/, "message_id: taken-since");
		expect(after).not.toBe(before);
		await fs.writeFile(file, after);
		await send("again", { message_id: "taken-since" });
		const report = await (await start()).pass();
		expect(report.decisions.map((d) => [d.outcome, d.message_id, d.error_code])).toEqual([["duplicate", "taken-since", "DUPLICATE"]]);
	});

	for (const [name, port] of [["the Node vault (the CLI)", () => new NodeVault(v.dir)], ["a vault that holds its files' facts (as the plugin's)", listingPort]] as const) {
		it(`notes other writers change while the history is read are taken as they are then, not as listed before (${name})`, async () => {
			await send("first", { message_id: "new-1" });
			await (await start()).pass();
			// The archive's first note in the listing order changed since the copy: it is read first. While
			// it is read, every other archived note is rewritten with another id.
			const archive = path.join(v.dir, BOX(B, "archive"));
			const [first, ...others] = (await fs.readdir(archive)).filter((f) => f.endsWith(".md"));
			await fs.writeFile(path.join(archive, first), `${await fs.readFile(path.join(archive, first), "utf8")}\nEdited since.\n`);
			const vault = port();
			const read = vault.read.bind(vault);
			let rewritten = false;
			vault.read = async (p, options) => {
				if (!rewritten && p.endsWith(`/${first}`)) {
					rewritten = true;
					for (const other of others) {
						const file = path.join(archive, other);
						await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace(/message_id: "?old-(\d+)"?/, "message_id: raced-$1-again"));
					}
				}
				return read(p, options);
			};
			await send("second", { message_id: "new-2" });
			const router = await start([], undefined, vault);
			await router.pass();
			expect(rewritten).toBe(true);
			const raced = others.map((o) => /old (\d+)\.md/.exec(o)?.[1]).filter((n) => router.index.withId(`raced-${n}-again`).length === 1);
			expect(raced.length).toBe(others.length);
		});
	}

	it("a request answered and archived during the pass is found by the next note that answers it, as a cold read finds it", async () => {
		await send("ask", { message_id: "q-1", trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890" });
		await (await start()).pass();
		const answer = (n: number) => `---\nmessage_id: r-${n}\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: q-1\nsource_group: ${B}\nstatus: success\n---\n\n## Answer\n\nanswer ${n}\n`;
		await v.write(`${BOX(B, "outbox")}/a1 answer.md`, answer(1));
		await v.write(`${BOX(B, "outbox")}/a2 answer.md`, answer(2));
		const outcomes = (r: PassReport) => r.decisions.map((d) => `${d.outcome} ${d.message_id} ${d.error_code ?? ""} ${(d as { reason?: string }).reason ?? ""}`.trim());
		const expected = await coldPass((report) => outcomes(report));
		expect(expected).toEqual(["answered r-1", "rejected r-2 INVALID_MESSAGE request q-1 is already answered"]);
		const warm = await start();
		const decide = warm.indexSync.decide.bind(warm.indexSync);
		let partial = 0;
		warm.indexSync.decide = <T,>(decision: () => T): Promise<T> => {
			if (warm.indexSync.hasPartialHistory) partial++;
			return decide(decision);
		};
		expect(outcomes(await warm.pass())).toEqual(expected);
		// Both notes were decided on the history read in part.
		expect(partial).toBe(2);
	});

	it("a one-shot pass (a2a route) reads of the history only what its notes and its inboxes' upkeep ask about, and keeps the copy as it was", async () => {
		await send("first", { message_id: "new-1", trace_id: "11111111-0000-4000-8000-000000000000" });
		await (await start()).pass();
		const copyFiles = async () => {
			const [copy] = await fs.readdir(cacheDir).then((names) => names.filter((n) => n.startsWith("history-")));
			const folder = path.join(cacheDir, copy);
			return Promise.all((await fs.readdir(folder)).sort().map(async (name) => `${name} ${(await fs.stat(path.join(folder, name))).mtimeMs}`));
		};
		const before = await copyFiles();
		expect(before.length).toBeGreaterThan(1);
		await send("dup", { message_id: "old-7", trace_id: "22222222-0000-4000-8000-000000000000" });
		await send("fresh", { message_id: "new-2", trace_id: "33333333-0000-4000-8000-000000000000" });
		const reads: string[] = [];
		const router = await start(reads, undefined, new NodeVault(v.dir), true);
		const report = await router.pass();
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`).sort()).toEqual(["delivered new-2", "duplicate old-7"]);
		expect(reads.filter((p) => p.includes("/archive/"))).toEqual([]);
		// Archived note 7 is held, as the duplicate's decision needed it; the other 199 were never indexed.
		expect(router.index.withId("old-7").map((e) => e.location.area)).toContain("box");
		expect(archived(router)).toBe(1);
		expect(await copyFiles()).toEqual(before);
	});

	it("a one-shot pass saves the parts of the folders that changed since the copy, so that the next one reads none of their notes", async () => {
		await send("first", { message_id: "new-1", trace_id: "11111111-0000-4000-8000-000000000000" });
		await (await start()).pass();
		// Archived since, by another writer (a sync service, the plugin on another device).
		const since = Array.from({ length: 5 }, (_, i) => `${BOX(B, "archive")}/since ${i}.md`);
		for (const [i, file] of since.entries()) await v.write(file, requestNote({ message_id: `since-${i}`, trace_id: `4444444${i}-0000-4000-8000-000000000000`, target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		const oneShot = async (name: string, fields: Record<string, unknown>) => {
			await send(name, fields);
			const reads: string[] = [];
			const report = await (await start(reads, undefined, new NodeVault(v.dir), true)).pass();
			return { outcomes: report.decisions.map((d) => `${d.outcome} ${d.message_id}`), history: reads.filter((p) => p.includes("/archive/")).sort() };
		};
		expect(await oneShot("second", { message_id: "new-2", trace_id: "55555555-0000-4000-8000-000000000000" })).toEqual({ outcomes: ["delivered new-2"], history: since });
		expect(await oneShot("third", { message_id: "since-3", trace_id: "66666666-0000-4000-8000-000000000000" })).toEqual({ outcomes: ["duplicate since-3"], history: [] });
		expect(await oneShot("fourth", { message_id: "new-4", trace_id: "77777777-0000-4000-8000-000000000000" })).toEqual({ outcomes: ["delivered new-4"], history: [] });
	});

	it("a one-shot pass drops the part of a history folder that is gone, and its file", async () => {
		const month = `${BOX(B, "archive")}/2026-01`;
		for (let i = 0; i < 3; i++) await v.write(`${month}/month ${i}.md`, requestNote({ message_id: `month-${i}`, trace_id: `8888888${i}-0000-4000-8000-000000000000`, target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		await send("first", { message_id: "new-1", trace_id: "11111111-0000-4000-8000-000000000000" });
		await (await start()).pass();
		const copy = async () => {
			const [name] = (await fs.readdir(cacheDir)).filter((n) => n.startsWith("history-"));
			const folder = path.join(cacheDir, name);
			const summary = await fs.readFile(path.join(folder, "parts.json"), "utf8");
			return { files: (await fs.readdir(folder)).length, names: summary.includes(`"folder":"${month}"`) };
		};
		const before = await copy();
		expect(before.names).toBe(true);
		await fs.rm(path.join(v.dir, ...month.split("/")), { recursive: true });
		await send("second", { message_id: "new-2", trace_id: "22222222-0000-4000-8000-000000000000" });
		const report = await (await start([], undefined, new NodeVault(v.dir), true)).pass();
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`)).toEqual(["delivered new-2"]);
		expect(await copy()).toEqual({ files: before.files - 1, names: false });
	});

	it("a pass that routes nothing reads of the history what a due request needs before it retries or times it out: one whose answer was taken into the archive is archived, as a cold read does", async () => {
		await send("ask", { message_id: "q-8", trace_id: "88888888-0000-4000-8000-000000000000" });
		await (await start()).pass();
		await v.write(`${BOX(A, "archive")}/answer.md`, `---\nmessage_id: r-8\ntrace_id: 88888888-0000-4000-8000-000000000000\nin_reply_to: q-8\nsource_group: ${B}\ntarget_group: ${A}\nkind: response\nstatus: success\nstate: delivered\ndelivered_at: "2026-01-01T00:00:00Z"\n---\n\ndone\n`);
		// Not due yet: nothing is read of the history.
		const reads: string[] = [];
		await (await start(reads, undefined, new NodeVault(v.dir), true)).pass();
		expect(reads.filter((p) => p.includes("/archive/"))).toEqual([]);
		expect(await v.files(BOX(B, "inbox"))).toContain(`${BOX(B, "inbox")}/ask.md`);
		// An hour on, the request is due: it is archived as answered, not retried.
		const later = () => Date.now() + 3_600_000;
		const report = await (await start([], later, new NodeVault(v.dir), true)).pass();
		expect(report.decisions.map((d) => d.outcome)).toEqual([]);
		expect(await v.files(BOX(B, "inbox"))).not.toContain(`${BOX(B, "inbox")}/ask.md`);
		expect((await v.files(BOX(B, "archive"))).filter((f) => f.endsWith("/ask.md"))).toHaveLength(1);
	});

	it("a part a one-shot pass saves does not vouch for a folder whose note was too recent to keep: a later duplicate of it is still refused", async () => {
		await send("first", { message_id: "new-1", trace_id: "11111111-0000-4000-8000-000000000000" });
		await (await start()).pass();
		await v.write(`${BOX(B, "archive")}/fresh.md`, requestNote({ message_id: "fresh-1", trace_id: "12121212-0000-4000-8000-000000000000", target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		await send("second", { message_id: "new-2", trace_id: "22222222-0000-4000-8000-000000000000" });
		// The real clock: fresh.md was written a moment ago, too recent for the copy to keep.
		const reads: string[] = [];
		await (await start(reads, () => Date.now(), new NodeVault(v.dir), true)).pass();
		expect(reads).toContain(`${BOX(B, "archive")}/fresh.md`);
		await send("dup", { message_id: "fresh-1", trace_id: "33333333-0000-4000-8000-000000000000" });
		const report = await (await start([], undefined, new NodeVault(v.dir), true)).pass();
		// (new-2, delivered by the pass on the real clock, is due for its retry a minute on.)
		expect(report.decisions.filter((d) => d.message_id !== "new-2").map((d) => [d.outcome, d.message_id, d.error_code])).toEqual([["duplicate", "fresh-1", "DUPLICATE"]]);
	});

	it("a one-shot pass keeps a request delivered without a message id (its id made from its text, not among the keys read) as a cold read keeps it", async () => {
		// The router gives a request without message_id an id made from its group, name and text; an earlier answer to that id is archived.
		const text = requestNote({ trace_id: "44444444-0000-4000-8000-000000000000", target_group: B, source_group: A }, "## Question\n\nsame question again\n");
		const madeId = uuidFromText(`${A}\nnoid.md\n${text}`);
		await v.write(`${BOX(A, "archive")}/old answer.md`, `---\nmessage_id: r-old\ntrace_id: 55555555-0000-4000-8000-000000000000\nin_reply_to: ${madeId}\nsource_group: ${B}\ntarget_group: ${A}\nkind: response\nstatus: success\nstate: delivered\ndelivered_at: "2026-01-01T00:00:00Z"\n---\n\ndone\n`);
		await send("first", { message_id: "new-1", trace_id: "11111111-0000-4000-8000-000000000000" });
		await (await start()).pass();
		await v.write(`${BOX(A, "outbox")}/noid.md`, text);
		const outcomes = (r: PassReport) => r.decisions.map((d) => `${d.outcome} ${d.message_id}`);
		const inbox = async (dir: string) => (await fs.readdir(path.join(dir, BOX(B, "inbox")))).sort();
		const expected = await coldPass(async (report, dir) => ({ outcomes: outcomes(report), inbox: await inbox(dir) }));
		const report = await (await start([], undefined, new NodeVault(v.dir), true)).pass();
		expect({ outcomes: outcomes(report), inbox: await inbox(v.dir) }).toEqual(expected);
	});

	it("a one-shot pass archives a request whose answer was taken into the history before it was archived, as a cold read does", async () => {
		await send("ask", { message_id: "q-9", trace_id: "99999999-0000-4000-8000-000000000000" });
		await (await start()).pass();
		// As an interruption leaves it: the answer delivered and taken into the requester's archive, the request still in B's inbox.
		await v.write(`${BOX(A, "archive")}/answer.md`, `---\nmessage_id: r-9\ntrace_id: 99999999-0000-4000-8000-000000000000\nin_reply_to: q-9\nsource_group: ${B}\ntarget_group: ${A}\nkind: response\nstatus: success\nstate: delivered\ndelivered_at: "2026-01-01T00:00:00Z"\n---\n\ndone\n`);
		await send("other", { message_id: "new-9", trace_id: "88888888-0000-4000-8000-000000000000" });
		const router = await start([], undefined, new NodeVault(v.dir), true);
		const report = await router.pass();
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`)).toEqual(["delivered new-9"]);
		expect(await v.files(BOX(B, "inbox"))).not.toContain(`${BOX(B, "inbox")}/ask.md`);
		expect((await v.files(BOX(B, "archive"))).filter((f) => f.endsWith("/ask.md"))).toHaveLength(1);
		// Only the answer was needed of the history.
		expect(archived(router)).toBeLessThan(5);
	});

	it("a decision that asks the history about another key is made again on the whole history, with the same outcome as a cold read", async () => {
		await send("first", { message_id: "new-1" });
		await (await start()).pass();
		const router = await start();
		await router.indexSync.ensureLive();
		await router.indexSync.ensureHistoryFor(new Set(["old-1"]));
		expect(router.indexSync.hasPartialHistory).toBe(true);
		expect(archived(router)).toBe(1);
		let runs = 0;
		const found = await router.indexSync.decide(() => {
			runs++;
			return router.index.withId("old-150").map((e: IndexEntry) => e.path);
		});
		expect(found).toEqual([`${BOX(B, "archive")}/old 150.md`]);
		expect(runs).toBe(2);
		expect([router.indexSync.hasPartialHistory, archived(router)]).toEqual([false, ARCHIVED]);
	});

	it("a read of the rest of the history that fails part way keeps none of it: the next decision reads it again, and finds what a full read finds", async () => {
		await send("first", { message_id: "new-1" });
		await (await start()).pass();
		const port = listingFailsOnce(listingPort(), BOX(B, "archive"), "EIO");
		const router = await start([], undefined, port);
		await router.indexSync.ensureLive();
		await router.indexSync.ensureHistoryFor(new Set(["old-1"]));
		expect(router.indexSync.hasPartialHistory).toBe(true);
		const find = () => router.indexSync.decide(() => router.index.withId("old-150").map((e: IndexEntry) => e.path));
		await expect(find()).rejects.toThrow("EIO");
		expect([router.indexSync.hasHistory, router.indexSync.hasPartialHistory, archived(router)]).toEqual([false, false, 0]);
		expect(await find()).toEqual([`${BOX(B, "archive")}/old 150.md`]);
		expect([router.indexSync.hasHistory, archived(router)]).toEqual([true, ARCHIVED]);
	});

	it("a start's read of the history for some keys that fails part way keeps none of it: a note deleted meanwhile is not taken for a duplicate", async () => {
		await send("first", { message_id: "new-1" });
		await (await start()).pass();
		await send("dup", { message_id: "old-5" });
		const port = listingFailsOnce(new NodeVault(v.dir), "A2A/dead-letter", "EIO");
		const router = await start([], undefined, port);
		await expect(router.pass()).rejects.toThrow("EIO");
		expect([router.indexSync.hasHistory, router.indexSync.hasPartialHistory, archived(router)]).toEqual([false, false, 0]);
		// Deleted before the next pass (its event reaches the router).
		await fs.rm(path.join(v.dir, BOX(B, "archive"), "old 5.md"));
		await router.indexSync.refresh(`${BOX(B, "archive")}/old 5.md`);
		expect((await router.pass()).decisions.map((d) => `${d.outcome} ${d.message_id}`)).toEqual(["delivered old-5"]);
	});

	it("a reader's read of the whole history that fails part way is read again at its next rescan, not left out for good", async () => {
		await send("first", { message_id: "new-1" });
		await (await start()).pass();
		const port = listingFailsOnce(new NodeVault(v.dir), "A2A/dead-letter", "EMFILE");
		// As the gateway holds its index: the whole history asked for, then its slow check.
		const router = await start([], undefined, port);
		await router.indexSync.ensureLive();
		await expect(router.indexSync.ensureHistory()).rejects.toThrow("EMFILE");
		expect(archived(router)).toBe(0);
		await router.indexSync.rescan(true, true);
		expect([router.indexSync.hasHistory, archived(router)]).toEqual([true, ARCHIVED]);
		// And a reader that never asked for the whole history does not read it at a rescan.
		const idle = await start([], undefined, new NodeVault(v.dir));
		await idle.indexSync.ensureLive();
		await idle.indexSync.rescan(true, true);
		expect([idle.indexSync.hasHistory, archived(idle)]).toEqual([false, 0]);
	});

	it("a router that runs for a while brings the copy up to date with notes archived since its start, so that the next start reads none of them", async () => {
		await send("first", { message_id: "new-1" });
		let offset = 60_000;
		const running = await start([], () => Date.now() + offset);
		await running.pass();
		// While it runs, notes arrive in the archive (from another device, through a sync service).
		const since = Array.from({ length: 5 }, (_, i) => `${BOX(B, "archive")}/since ${i}.md`);
		for (const [i, file] of since.entries()) await v.write(file, requestNote({ message_id: `since-${i}`, target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		await running.pass();
		offset += 11 * 60_000;
		await running.pass();

		await send("next", { message_id: "new-2" });
		const reads: string[] = [];
		const report = await (await start(reads)).pass();
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`)).toEqual(["delivered new-2"]);
		expect(reads.filter((p) => p.includes("/archive/"))).toEqual([]);
	});

	it("a pass that stops with the history read in part (its lease lost) keeps none of it: the next pass reads it anew", async () => {
		await send("first", { message_id: "new-1" });
		await (await start()).pass();
		await send("dup", { message_id: "old-5" });
		const router = await start();
		const lease = router as unknown as { lostLease(): Promise<boolean> };
		const lostLease = lease.lostLease.bind(router);
		lease.lostLease = () => Promise.resolve(true);
		expect((await router.pass()).decisions).toEqual([]);
		expect([router.indexSync.hasPartialHistory, archived(router)]).toEqual([false, 0]);
		// Meanwhile the archived note with that id is deleted (no event reaches this router).
		await fs.rm(path.join(v.dir, BOX(B, "archive"), "old 5.md"));
		lease.lostLease = lostLease;
		const report = await router.pass();
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`)).toEqual(["delivered old-5"]);
	});
});
