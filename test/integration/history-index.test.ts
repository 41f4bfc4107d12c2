import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { TempHost } from "../../test-support/fake-obsidian/node-host";
import type { TFile, TFolder } from "obsidian";
import { startSyncPair } from "../helpers/syncthing";
import { BOX, REGISTRY, requestNote } from "../helpers/temp-vault";

// The plugin's start on a vault with history: its copy of the history index (in the plugin's own
// folder) stands for every archived or dead-lettered note whose size and mtime are those it was read
// with, and only the others are read. Nothing the router decides may differ from a cold full read:
// generated vaults are routed twice from the same state, once with the copy of an earlier session
// and once without it, after notes were edited, deleted and added while Obsidian was closed (the
// copy is stale for exactly those).

const GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"];
const HISTORY_DIR = ".obsidian/plugins/a2a-relay/history-index";
const DAY_AGO = Date.now() - 86_400_000;

/** The copy's parts: file name -> text. */
async function parts(dir: string): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	for (const name of await fs.readdir(path.join(dir, HISTORY_DIR))) if (name.endsWith(".tsv")) out.set(name, await fs.readFile(path.join(dir, HISTORY_DIR, name), "utf8"));
	return out;
}

/** The part holding a note's row, and its text. */
async function partOf(dir: string, file: string): Promise<[string, string]> {
	const found = [...(await parts(dir))].find(([, text]) => text.split("\n").some((line) => line.startsWith(`${file}\t`)));
	if (!found) throw new Error(`no part holds ${file}`);
	return found;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const traceOf = (i: number) => `${(0x10000000 + i).toString(16)}-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

interface Generated {
	files: Map<string, string>;
	/** The answered requests: id -> [source, target, path]. */
	answered: Map<string, [string, string, string]>;
}

/** A history of `n` notes: answered requests (flat archive and month folders), taken responses, dead letters. */
function generate(seed: number, n: number): Generated {
	const next = random(seed);
	const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)];
	const files = new Map<string, string>();
	const answered = new Map<string, [string, string, string]>();
	for (let i = 0; i < n; i++) {
		const source = pick(GROUPS);
		const target = pick(GROUPS.filter((g) => g !== source));
		const roll = next();
		const month = pick(["", "2026-10/", "2026-11/", "2026-12/"]);
		if (roll < 0.6) {
			const id = `h-${i}`;
			const file = `${BOX(target, "archive")}/${month}ask ${i}.md`;
			files.set(file, requestNote({ message_id: id, trace_id: traceOf(i), source_group: source, target_group: target, state: "answered", route: [source, target], delivered_at: "2026-10-01T10:00:00Z", answered_at: "2026-10-01T10:01:00Z" }));
			answered.set(id, [source, target, file]);
		} else if (roll < 0.85 && answered.size > 0) {
			const [requestId, [asker, answerer]] = pick([...answered]);
			files.set(`${BOX(asker, "archive")}/${month}answer ${i}.md`, `---\nkind: response\nmessage_id: r-${i}\ntrace_id: ${traceOf(Number(requestId.slice(2)))}\nin_reply_to: ${requestId}\nsource_group: ${answerer}\ntarget_group: ${asker}\nstatus: success\nstate: taken\n---\n\n## Answer\n\nDone\n`);
		} else {
			files.set(`A2A/dead-letter/dead ${i}.md`, requestNote({ message_id: `d-${i}`, trace_id: traceOf(i), source_group: source, target_group: target, state: "dead", error_code: "GROUP_NOT_FOUND" }));
		}
	}
	return { files, answered };
}

const hosts: TempHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
	for (const host of hosts.splice(0)) await host.dispose();
	await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function writeAt(dir: string, rel: string, text: string, mtime: number): Promise<void> {
	const file = path.join(dir, ...rel.split("/"));
	await fs.mkdir(path.dirname(file), { recursive: true });
	await fs.writeFile(file, text);
	await fs.utimes(file, new Date(mtime), new Date(mtime));
}

/** One Obsidian session on `dir`: boot, route everything, and close. Returns the decisions, the notes read, and (in order) the notes and the copy's files read and the notes moved out of an outbox. */
async function session(dir: string): Promise<{ decisions: string[]; reads: string[]; events: string[] }> {
	const host = new TempHost(dir);
	hosts.push(host);
	const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	// (The fake fills its metadata cache by reading every note here; Obsidian keeps its cache across restarts.)
	await host.loadVault();
	const reads: string[] = [];
	const vault = host.app.vault as unknown as { read(file: TFile): Promise<string> };
	const read = vault.read.bind(vault);
	const events: string[] = [];
	vault.read = (file: TFile) => {
		reads.push(file.path);
		events.push(`note ${file.path}`);
		return read(file);
	};
	const adapter = host.app.vault.adapter;
	const readCopy = adapter.read.bind(adapter);
	adapter.read = (file: string) => {
		if (file.startsWith(`${HISTORY_DIR}/`)) events.push(`read ${file.slice(HISTORY_DIR.length + 1)}`);
		return readCopy(file);
	};
	host.app.vault.on("rename", (file, from) => {
		if (from.includes("/outbox/")) events.push(`moved ${file.path}`);
	});
	await host.setLayoutReady();
	for (let i = 0; i < 3; i++) {
		await host.settled();
		await plugin.parts.relay.whenIdle();
	}
	const decisions = plugin.parts.relay.recent.map((d) => `${d.outcome} ${d.message_id ?? ""} ${d.error_code ?? ""} ${d.path}`).sort();
	await host.dispose();
	hosts.splice(hosts.indexOf(host), 1);
	// The next session is another app: it finds no lease of this one.
	await fs.rm(path.join(dir, "A2A", "router.md"), { force: true });
	return { decisions, reads, events };
}

/** The same state twice: a session on `dir` with the plugin's copy, and one on a copy of it without (a cold full read). */
async function warmAndCold(dir: string): Promise<{ warm: Awaited<ReturnType<typeof session>>; full: Awaited<ReturnType<typeof session>>; cold: string }> {
	const cold = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-history-cold-"));
	dirs.push(cold);
	await fs.cp(dir, cold, { recursive: true, preserveTimestamps: true });
	await fs.rm(path.join(cold, HISTORY_DIR), { recursive: true });
	return { warm: await session(dir), full: await session(cold), cold };
}

/** Every file of the vault but the log, the lease and the plugin's folder, as `path: message_id state`. */
async function where(dir: string): Promise<string[]> {
	const out: string[] = [];
	const walk = async (rel: string) => {
		for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
			const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
			if (entry.isDirectory()) {
				if (child !== ".obsidian" && child !== "A2A/log") await walk(child);
			} else if (child !== "A2A/router.md") {
				const text = await fs.readFile(path.join(dir, child), "utf8");
				out.push(`${child}: ${/^message_id: "?([^"\n]*)/m.exec(text)?.[1] ?? ""} ${/^state: (\S+)/m.exec(text)?.[1] ?? ""}`);
			}
		}
	};
	await walk("");
	return out.sort();
}

/** A generated vault that one session has routed, so that it holds the plugin's copy of its history. */
async function vaultWithCopy(seed: number, n: number): Promise<Generated & { dir: string }> {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-history-copy-"));
	dirs.push(dir);
	const generated = generate(seed, n);
	await writeAt(dir, "A2A/registry.yaml", REGISTRY, DAY_AGO);
	await writeAt(dir, ".obsidian/plugins/a2a-relay/data.json", JSON.stringify({ graceSeconds: 0 }), DAY_AGO);
	for (const [rel, text] of generated.files) await writeAt(dir, rel, text, DAY_AGO);
	await session(dir);
	return { dir, ...generated };
}

describe("the plugin's copy of the history index", () => {
	for (const seed of [1, 2, 3]) {
		it(`decides exactly as a cold full read, after notes were edited, deleted and added while Obsidian was closed (generated vault ${seed})`, async () => {
			const dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-history-index-"));
			dirs.push(dir);
			const { files, answered } = generate(seed, 240);
			await writeAt(dir, "A2A/registry.yaml", REGISTRY, DAY_AGO);
			await writeAt(dir, ".obsidian/plugins/a2a-relay/data.json", JSON.stringify({ graceSeconds: 0 }), DAY_AGO);
			for (const [rel, text] of files) await writeAt(dir, rel, text, DAY_AGO);

			// The first session reads the whole history and keeps its copy.
			const first = await session(dir);
			expect(first.reads.filter((p) => files.has(p)).length).toBe(files.size);
			const copies = [...(await parts(dir)).values()];
			expect(copies.reduce((rows, text) => rows + text.split("\n").filter((l) => l !== "").length - 1, 0)).toBe(files.size);

			// While Obsidian is closed: an id changed (longer), an id changed in place (same size, new
			// mtime), a note deleted, a note added; then agents write new notes that depend on each.
			const ids = [...answered.keys()];
			const [grown, same, gone] = [ids[3], ids[7], ids[11]];
			const edit = async (id: string, to: string) => {
				const file = (answered.get(id) as [string, string, string])[2];
				const text = files.get(file) as string;
				await writeAt(dir, file, text.replace(`message_id: "${id}"`, `message_id: "${to}"`), DAY_AGO + 3_600_000);
				return file;
			};
			const grownFile = await edit(grown, `${grown}-edited`);
			const sameFile = await edit(same, `k${same.slice(1)}`);
			expect((await fs.stat(path.join(dir, sameFile))).size).toBe(Buffer.byteLength(files.get(sameFile) as string));
			await fs.rm(path.join(dir, (answered.get(gone) as [string, string, string])[2]));
			const added = `${BOX(GROUPS[1], "archive")}/2026-12/added.md`;
			await writeAt(dir, added, requestNote({ message_id: "h-added", trace_id: traceOf(9999), source_group: GROUPS[0], target_group: GROUPS[1], state: "answered", route: [GROUPS[0], GROUPS[1]], delivered_at: "2026-12-01T10:00:00Z" }), DAY_AGO + 3_600_000);
			const resend = [grown, `${grown}-edited`, same, `k${same.slice(1)}`, gone, "h-added", ids[0], ids[1]];
			for (const [n, id] of resend.entries()) {
				await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/resend ${n}.md`, requestNote({ message_id: id, trace_id: traceOf(5000 + n), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
			}
			for (const id of [ids[2], same, gone]) {
				const [asker, answerer] = answered.get(id) as [string, string, string];
				await writeAt(dir, `${BOX(answerer, "outbox")}/late answer to ${id}.md`, `---\nmessage_id: late-${id}\ntrace_id: ${traceOf(Number(id.slice(2)))}\nin_reply_to: ${id}\nsource_group: ${answerer}\ntarget_group: ${asker}\nstatus: success\n---\n\n## Answer\n\nAgain\n`, Date.now() - 5000);
			}

			const { warm, full, cold } = await warmAndCold(dir);

			expect(warm.decisions.length).toBe(resend.length + 3);
			expect(warm.decisions).toEqual(full.decisions);
			expect(await where(dir)).toEqual(await where(cold));
			// What the copy decided on: the edited notes count with their new ids, the deleted one not at all.
			const outcome = (id: string) => warm.decisions.find((d) => d.split(" ")[1] === id)?.split(" ")[0];
			expect([grown, same, gone].map(outcome)).toEqual(["delivered", "delivered", "delivered"]);
			expect([`${grown}-edited`, `k${same.slice(1)}`, "h-added", ids[0]].map(outcome)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate"]);
			// Of the history, only the notes that changed while Obsidian was closed were read; the cold start read them all.
			const history = (reads: string[]) => reads.filter((p) => files.has(p) || p === added);
			expect(new Set(history(warm.reads))).toEqual(new Set([grownFile, sameFile, added]));
			expect(history(full.reads).length).toBeGreaterThanOrEqual(files.size - 1);
		}, 60_000);
	}

	it("a part cut short, garbled or of another root is not used: its notes are read again and a duplicate is still refused", async () => {
		const { dir, files, answered } = await vaultWithCopy(7, 60);
		const [id] = [...answered.keys()];
		const file = (answered.get(id) as [string, string, string])[2];
		const [part, text] = await partOf(dir, file);
		const folder = file.slice(0, file.lastIndexOf("/"));
		const inFolder = [...files.keys()].filter((p) => p.slice(0, p.lastIndexOf("/")) === folder);
		const summary = await fs.readFile(path.join(dir, HISTORY_DIR, "parts.json"), "utf8");
		const damaged: [string, string, string[]][] = [
			[part, text.slice(0, text.length - 40), inFolder],
			[part, text.replace(/\t\{/, "\t["), inFolder],
			[part, text.replace('"root":"A2A"', '"root":"Other"'), inFolder],
			["parts.json", summary.replace('"root":"A2A"', '"root":"Other"'), [...files.keys()]],
		];
		for (const [n, [name, broken, read]] of damaged.entries()) {
			await fs.writeFile(path.join(dir, HISTORY_DIR, name), broken);
			await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/again ${n}.md`, requestNote({ message_id: id, trace_id: traceOf(7000 + n), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
			const { decisions, reads } = await session(dir);
			expect(decisions.map((d) => d.split(" ").slice(0, 3).join(" ")), `copy ${n}`).toEqual([`duplicate ${id} DUPLICATE`]);
			expect(new Set(reads.filter((p) => files.has(p))), `copy ${n}`).toEqual(new Set(read));
		}
	}, 60_000);

	it("a row of the copy damaged inside its JSON (its fields and braces kept): the part is not used, and a row written wrong under a matching sum is read from the vault before any decision", async () => {
		const { dir, files, answered } = await vaultWithCopy(11, 60);
		const [id] = [...answered.keys()];
		const file = (answered.get(id) as [string, string, string])[2];
		const folder = file.slice(0, file.lastIndexOf("/"));
		const inFolder = [...files.keys()].filter((p) => p.slice(0, p.lastIndexOf("/")) === folder);
		const [part, copy] = await partOf(dir, file);
		const lines = copy.split("\n");
		const at = lines.findIndex((l) => l.startsWith(`${file}\t`));
		expect(at).toBeGreaterThan(0);
		lines[at] = lines[at].replace('"route":[', '"route":[[');
		const damaged = lines.join("\n");
		// As a disk or a hand changed it: the part's sum no longer matches, and its folder is read.
		await fs.writeFile(path.join(dir, HISTORY_DIR, part), damaged);
		await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/again.md`, requestNote({ message_id: id, trace_id: traceOf(8000), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		const first = await session(dir);
		expect(first.decisions.map((d) => d.split(" ").slice(0, 3).join(" "))).toEqual([`duplicate ${id} DUPLICATE`]);
		expect(new Set(first.reads.filter((p) => files.has(p)))).toEqual(new Set(inFolder));

		// As a faulty writer would leave it: the row wrong, the sum made over it.
		const [, rewritten] = await partOf(dir, file);
		const header = JSON.parse(rewritten.slice(0, rewritten.indexOf("\n"))) as { sum: number };
		const rowLines = rewritten.slice(rewritten.indexOf("\n") + 1).split("\n");
		const row = rowLines.findIndex((l) => l.startsWith(`${file}\t`));
		expect(rowLines[row]).toContain('"route":[');
		rowLines[row] = rowLines[row].replace('"route":[', '"route":[[');
		const rows = rowLines.join("\n");
		let sum = 0x811c9dc5;
		for (let i = 0; i < rows.length; i++) sum = Math.imul(sum ^ rows.charCodeAt(i), 0x01000193);
		header.sum = sum >>> 0;
		await fs.writeFile(path.join(dir, HISTORY_DIR, part), `${JSON.stringify(header)}\n${rows}`);
		// The summary's hash of the part, which the store checks, made over it too.
		const summaryPath = path.join(dir, HISTORY_DIR, "parts.json");
		const summary = JSON.parse(await fs.readFile(summaryPath, "utf8")) as { parts: { file: string; sum: number }[] };
		for (const entry of summary.parts) if (entry.file === part) entry.sum = header.sum;
		await fs.writeFile(summaryPath, JSON.stringify(summary));
		await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/again 2.md`, requestNote({ message_id: id, trace_id: traceOf(8001), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		const second = await session(dir);
		expect(second.decisions.map((d) => d.split(" ").slice(0, 3).join(" "))).toEqual([`duplicate ${id} DUPLICATE`]);
		expect(second.reads.filter((p) => files.has(p))).toEqual([file]);
	}, 60_000);

	it("a start on a history that did not change delivers a new request before it reads any part, and a duplicate after reading only the parts that may hold its id", async () => {
		const { dir, files, answered } = await vaultWithCopy(13, 120);
		const partFiles = [...(await parts(dir)).keys()];
		expect(partFiles.length).toBeGreaterThan(4);
		await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/new.md`, requestNote({ message_id: "brand-new", trace_id: traceOf(9100), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		const fresh = await session(dir);
		expect(fresh.decisions.map((d) => d.split(" ").slice(0, 2).join(" "))).toEqual(["delivered brand-new"]);
		// parts.json, then the delivery, and only then the parts (the rest of the history, indexed after it).
		const copyAndMoves = fresh.events.filter((e) => !e.startsWith("note "));
		expect(copyAndMoves[0]).toBe("read parts.json");
		expect(copyAndMoves[1]).toMatch(/^moved .*\/inbox\//);
		expect(fresh.reads.filter((p) => files.has(p))).toEqual([]);

		const [id] = [...answered.keys()];
		const file = (answered.get(id) as [string, string, string])[2];
		const [part] = await partOf(dir, file);
		// The parts holding a note with this id: the request's, and those of the responses to it (in_reply_to).
		const holding = [...(await parts(dir))].filter(([, text]) => text.includes(`\t${id}\t`)).map(([name]) => `read ${name}`);
		expect(holding).toContain(`read ${part}`);
		await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/dup.md`, requestNote({ message_id: id, trace_id: traceOf(9101), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		const dup = await session(dir);
		expect(dup.decisions.map((d) => d.split(" ").slice(0, 3).join(" "))).toEqual([`duplicate ${id} DUPLICATE`]);
		const moved = dup.events.findIndex((e) => e.startsWith("moved "));
		expect(moved).toBeGreaterThan(0);
		const before = dup.events.slice(0, moved).filter((e) => !e.startsWith("note "));
		expect(before).toEqual(expect.arrayContaining(["read parts.json", ...holding]));
		// A key filter says "may" for about one id in a hundred it does not hold: at most one other part.
		expect(before.length).toBeLessThanOrEqual(holding.length + 2);
		expect(dup.reads.filter((p) => files.has(p))).toEqual([]);
	}, 60_000);

	it("a note renamed in its folder while Obsidian was closed (same size and mtime) is found at its new name", async () => {
		const { dir, answered } = await vaultWithCopy(17, 60);
		const [id] = [...answered.keys()];
		const file = (answered.get(id) as [string, string, string])[2];
		const renamed = `${file.slice(0, file.lastIndexOf("/"))}/renamed.md`;
		await fs.rename(path.join(dir, file), path.join(dir, renamed));
		await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/dup.md`, requestNote({ message_id: id, trace_id: traceOf(9200), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		const { decisions, events } = await session(dir);
		expect(decisions.map((d) => d.split(" ").slice(0, 3).join(" "))).toEqual([`duplicate ${id} DUPLICATE`]);
		// Its folder's digest changed: the note is read before the decision.
		const moved = events.findIndex((e) => e.startsWith("moved "));
		expect(events.indexOf(`note ${renamed}`)).toBeGreaterThanOrEqual(0);
		expect(events.indexOf(`note ${renamed}`)).toBeLessThan(moved);
	}, 60_000);

	it("a plugin that runs for a while brings its copy up to date with notes synced in meanwhile: the next start reads none of them", async () => {
		const { dir, files } = await vaultWithCopy(19, 60);
		vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
		try {
			const host = new TempHost(dir);
			hosts.push(host);
			const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
			await host.loadVault();
			await host.setLayoutReady();
			const idle = async () => {
				for (let i = 0; i < 3; i++) {
					await host.settled();
					await plugin.parts.relay.whenIdle();
				}
			};
			await host.externalWrite(`${BOX(GROUPS[0], "outbox")}/first.md`, requestNote({ message_id: "first", trace_id: traceOf(9300), source_group: GROUPS[0], target_group: GROUPS[2] }));
			await idle();
			// While it runs, a sync service brings archived notes from another device.
			const synced = Array.from({ length: 4 }, (_, i) => `${BOX(GROUPS[1], "archive")}/2026-11/synced ${i}.md`);
			for (const [i, file] of synced.entries()) await host.externalWrite(file, requestNote({ message_id: `synced-${i}`, trace_id: traceOf(9400 + i), source_group: GROUPS[0], target_group: GROUPS[1], state: "answered", route: [GROUPS[0], GROUPS[1]], delivered_at: "2026-11-01T10:00:00Z" }));
			await idle();
			// Eleven minutes later, the next pass (a note to route) brings the copy up to date.
			vi.setSystemTime(Date.now() + 11 * 60_000);
			await host.externalWrite(`${BOX(GROUPS[0], "outbox")}/second.md`, requestNote({ message_id: "second", trace_id: traceOf(9301), source_group: GROUPS[0], target_group: GROUPS[2] }));
			await idle();
			await host.dispose();
			hosts.splice(hosts.indexOf(host), 1);
			await fs.rm(path.join(dir, "A2A", "router.md"), { force: true });
		} finally {
			vi.useRealTimers();
		}
		await writeAt(dir, `${BOX(GROUPS[0], "outbox")}/third.md`, requestNote({ message_id: "synced-2", trace_id: traceOf(9302), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		const next = await session(dir);
		expect(next.decisions.map((d) => d.split(" ").slice(0, 3).join(" ")).filter((d) => !/ (first|second) $/.test(d))).toEqual(["duplicate synced-2 DUPLICATE"]);
		expect(next.reads.filter((p) => files.has(p) || p.includes("/synced "))).toEqual([]);
	}, 60_000);

	// A folder deleted in Obsidian takes its notes out of the index, as a cold read of the vault would:
	// the registry is read again (a folder event may be a group's), and the paths of the notes deleted
	// with the folder are brought up to date too.
	it("a history folder deleted while the plugin runs leaves no entry of its notes behind: a request reusing a deleted note's id is delivered, as a cold read would", async () => {
		const deletedMonth = `${BOX(GROUPS[1], "archive")}/2026-10`;
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-folder-delete-"));
		dirs.push(dir);
		await writeAt(dir, "A2A/registry.yaml", REGISTRY, DAY_AGO);
		await writeAt(dir, ".obsidian/plugins/a2a-relay/data.json", JSON.stringify({ graceSeconds: 0 }), DAY_AGO);
		await writeAt(dir, `${deletedMonth}/old.md`, requestNote({ message_id: "old-1", source_group: GROUPS[0], target_group: GROUPS[1], state: "answered", route: [GROUPS[0], GROUPS[1]], delivered_at: "2026-10-01T10:00:00Z" }), DAY_AGO);
		const host = new TempHost(dir);
		hosts.push(host);
		const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
		await host.loadVault();
		await host.setLayoutReady();
		const idle = async () => {
			for (let i = 0; i < 3; i++) {
				await host.settled();
				await plugin.parts.relay.whenIdle();
			}
		};
		await idle();
		expect(plugin.parts.relay.router.index.withId("old-1").length).toBe(1);

		// The person deletes the old month folder in Obsidian.
		await host.app.vault.delete(host.app.vault.getAbstractFileByPath(deletedMonth) as TFolder, true);
		await idle();

		await host.app.vault.create(`${BOX(GROUPS[0], "outbox")}/again.md`, requestNote({ message_id: "old-1", trace_id: "b1b2c3d4-e5f6-7890-abcd-ef1234567890", source_group: GROUPS[0], target_group: GROUPS[1] }));
		await idle();
		const outcomes = plugin.parts.relay.recent.filter((d) => d.message_id === "old-1").map((d) => d.outcome);
		expect(outcomes).toEqual(["delivered"]);
		expect(plugin.parts.relay.router.index.withId("old-1").map((e) => e.path).filter((p) => p.startsWith(deletedMonth))).toEqual([]);
	}, 60_000);
});

describe("the plugin's copy carried to another device by a real sync service", () => {
	it("Syncthing keeps the names, sizes and mtimes the copy was read with: on the other device only a note edited there is read, and the decisions are a cold full read's", async () => {
		const { dir, files, answered } = await vaultWithCopy(11, 120);
		const other = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-history-synced-"));
		dirs.push(other);
		// The other device starts empty; the pair is in step once it has every file, the copy's too.
		const pair = await startSyncPair({ folderA: dir, folderB: other, startTimeoutMs: 120_000 });
		await pair.stop();
		expect(await parts(other)).toEqual(await parts(dir));

		// On the other device, while Obsidian there was closed: an archived request's id changed in
		// place (same size), then agents send the old id and the new one again.
		const [id] = [...answered.keys()];
		const file = (answered.get(id) as [string, string, string])[2];
		const renamed = `k${id.slice(1)}`;
		await writeAt(other, file, (files.get(file) as string).replace(`message_id: "${id}"`, `message_id: "${renamed}"`), DAY_AGO + 3_600_000);
		for (const [n, again] of [id, renamed, [...answered.keys()][1]].entries()) {
			await writeAt(other, `${BOX(GROUPS[0], "outbox")}/again ${n}.md`, requestNote({ message_id: again, trace_id: traceOf(7000 + n), source_group: GROUPS[0], target_group: GROUPS[2] }), Date.now() - 5000);
		}
		const { warm, full, cold } = await warmAndCold(other);
		expect(warm.decisions.map((d) => d.split(" ").slice(0, 2).join(" "))).toEqual([`delivered ${id}`, `duplicate ${[...answered.keys()][1]}`, `duplicate ${renamed}`].sort());
		expect(warm.decisions).toEqual(full.decisions);
		expect(await where(other)).toEqual(await where(cold));
		expect(warm.reads.filter((p) => files.has(p))).toEqual([file]);
		expect(full.reads.filter((p) => files.has(p)).length).toBeGreaterThanOrEqual(files.size - 1);
	}, 240_000);
});
