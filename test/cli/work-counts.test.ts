import fsModule from "node:fs";
import { promises as fs } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeVault } from "../../node/node-vault";
import * as simpleYaml from "../../src/core/simple-yaml";
import { createUnderFreeName } from "../../src/router/free-names";
import { TRANSFERS_PER_LOG_WRITE } from "../../src/router/note-writer";
import { Router } from "../../src/router/router";
import { recordingPort } from "../helpers/port-calls";
import { BOX, REGISTRY, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Guards against a change that multiplies the router's work (issue 13). They count work, never
// time it: the port's calls and the file system's calls per routed note, and what an idle pass
// reads on a vault with a long history. Figures and ratios of speed live in `npm run bench`.

const A = "10-backend-group";
const B = "20-frontend-group";
const NOTES = 200;

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-counts-");
	await v.write("A2A/registry.yaml", REGISTRY);
	for (const g of [A, B]) for (const box of ["inbox", "outbox", "archive"] as const) await fs.mkdir(path.join(v.dir, BOX(g, box)), { recursive: true });
	await fs.mkdir(path.join(v.dir, "A2A/dead-letter"), { recursive: true });
});
afterEach(async () => {
	vi.restoreAllMocks();
	syncBuiltinESMExports();
	await v.cleanup();
});

/** Counts the synchronous file-system calls NodeVault makes, in all and by call. */
function countFsCalls(): { total: () => number; of: (name: string) => number } {
	let total = 0;
	const byName = new Map<string, number>();
	const api = fsModule as unknown as Record<string, (...a: unknown[]) => unknown>;
	for (const name of ["openSync", "closeSync", "readSync", "writeSync", "fstatSync", "lstatSync", "statSync", "linkSync", "unlinkSync", "renameSync", "readdirSync", "writeFileSync", "mkdirSync", "rmSync", "readFileSync"]) {
		const original = api[name];
		vi.spyOn(api, name as never).mockImplementation(((...args: unknown[]) => {
			total++;
			byName.set(name, (byName.get(name) ?? 0) + 1);
			return original.apply(api, args);
		}) as never);
	}
	syncBuiltinESMExports();
	return { total: () => total, of: (name) => byName.get(name) ?? 0 };
}

async function writeNotes(count: number): Promise<void> {
	for (let i = 0; i < count; i++) {
		const trace = `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
		await v.write(`${BOX(A, "outbox")}/note ${i}.md`, requestNote({ message_id: `w-${i}`, trace_id: trace, target_group: B }));
	}
}

describe("work per routed note", () => {
	it(`routes ${NOTES} notes with one read and one transfer each, their log rows in one append per ${TRANSFERS_PER_LOG_WRITE} notes, and a bounded number of other port calls`, async () => {
		await writeNotes(NOTES);
		const { port, calls } = recordingPort(new NodeVault(v.dir));
		const router = new Router(port);
		await router.loadRegistry();
		const report = await router.pass();
		expect(report.decisions.filter((d) => d.outcome === "delivered")).toHaveLength(NOTES);
		const per = (method: string) => (calls.get(method) ?? 0) / NOTES;
		expect(per("transfer")).toBe(1);
		expect(calls.get("append")).toBe(Math.ceil(NOTES / TRANSFERS_PER_LOG_WRITE));
		// One read per note, plus the registry, the lease and the log header at most.
		expect(calls.get("read") ?? 0).toBeLessThanOrEqual(NOTES + 6);
		const others = [...calls].filter(([m]) => !["transfer", "append", "read"].includes(m)).reduce((sum, [, n]) => sum + n, 0);
		// Listings (each archive's month folders too: one listFolders per group), the log folder, and
		// taking the lease (its claim: a create and a remove; the note: a create).
		expect(others, JSON.stringify([...calls])).toBeLessThanOrEqual(47);
	});

	it("routes each note with a bounded number of file-system calls (16 and a fraction today: a change that adds one per note fails)", async () => {
		await writeNotes(NOTES);
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		await router.indexSync.ensureLive();
		await router.indexSync.ensureHistory();
		const routed = countFsCalls();
		const report = await router.pass();
		vi.restoreAllMocks();
		syncBuiltinESMExports();
		expect(report.decisions.filter((d) => d.outcome === "delivered")).toHaveLength(NOTES);
		// The floor, counted the same way, on notes of the same size.
		await writeNotes(NOTES);
		const floor = countFsCalls();
		for (let i = 0; i < NOTES; i++) {
			const src = path.join(v.dir, BOX(A, "outbox"), `note ${i}.md`);
			const text = fsModule.readFileSync(src, "utf8");
			const temp = path.join(v.dir, BOX(A, "archive"), `.floor-${i}.tmp`);
			fsModule.writeFileSync(temp, text.replace("\n---\n", "\nstate: delivered\n---\n"));
			fsModule.renameSync(temp, path.join(v.dir, BOX(A, "archive"), `floor ${i}.md`));
			fsModule.unlinkSync(src);
		}
		// The router reads a note through a descriptor (open, fstat, read, close) to know the very file
		// it read, makes its copy through a link, looks at the note again before the copy and before its
		// removal, and looks at the log before each append of rows (a sync engine may have replaced it);
		// the floor's whole-file calls count one each. Since review 27 (M1) its temporary file is written
		// through a descriptor (open, fstat, write, close: the fstat names the file written) and the placed
		// note is checked to be that file and inside the vault (open, fstat, close; readlink is not counted).
		const perNote = { router: routed.total() / NOTES, floor: floor.total() / NOTES };
		expect(perNote.floor).toBe(4);
		expect(perNote.router, JSON.stringify(perNote)).toBeLessThanOrEqual(17);
	});
});

describe("JavaScript work per routed note", () => {
	it("parses each note's frontmatter once, however many notes a pass holds (more than the frontmatter cache keeps)", async () => {
		const notes = 600;
		await writeNotes(notes);
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		await router.indexSync.ensureLive();
		await router.indexSync.ensureHistory();
		const parses = vi.spyOn(simpleYaml, "parseSimpleYaml");
		const report = await router.pass();
		expect(report.decisions.filter((d) => d.outcome === "delivered")).toHaveLength(notes);
		// The notes' own frontmatter (the history keys and the decision share one parse; the stamp finds
		// it in the cache), plus a few of the pass's own files (lease, log).
		expect(parses.mock.calls.length).toBeLessThanOrEqual(notes + 10);
	});
});

describe("work per note a writer creates", () => {
	it("writes each new note once however many of its names are taken: a taken name costs one link (a2a serve under many clients whose message ids share their first letters)", async () => {
		// One second's notes to one group, their message ids alike in their first eight letters and
		// digits (the part a name carries): each takes the next free name of one sequence.
		const folder = BOX(A, "outbox");
		const vault = new NodeVault(v.dir);
		await createUnderFreeName(vault, folder, "warm.md", "x");
		const counted = countFsCalls();
		const notes = 60;
		const paths: string[] = [];
		for (let i = 0; i < notes; i++) paths.push(await createUnderFreeName(vault, folder, "2026-12-03T15-26-01-query-to-b-benchmar.md", `note ${i}\n`, `benchmark-${i}`));
		vi.restoreAllMocks();
		syncBuiltinESMExports();
		expect(new Set(paths).size).toBe(notes);
		for (const [i, p] of paths.entries()) expect(await v.read(p)).toBe(`note ${i}\n`);
		// Names tried: note i finds the first i names taken, up to the 50 names ids alike share; from
		// the 51st name on each id has names of its own (src/core/file-names.ts).
		let tried = 0;
		for (let i = 0; i < notes; i++) tried += Math.min(i, 50) + 1;
		expect(counted.of("linkSync")).toBe(tried);
		// Per note: the file written once (open, fstat, write, close), its temporary name unlinked, the
		// placed file checked (open, fstat, close); nothing more for a taken name.
		expect(counted.of("writeSync")).toBe(notes);
		expect((counted.total() - counted.of("linkSync")) / notes).toBeLessThanOrEqual(8);
	});
});

describe("an idle pass on a long history", () => {
	it("reads no archived note and no dead letter when there is nothing to route", async () => {
		const archived = 2000;
		for (let i = 0; i < archived; i++) {
			await v.write(`${BOX(B, "archive")}/old ${i}.md`, requestNote({ message_id: `old-${i}`, target_group: B, state: "answered", delivered_at: "2026-01-01T00:00:00Z" }));
		}
		for (let i = 0; i < 200; i++) await v.write(`A2A/dead-letter/dead ${i}.md`, requestNote({ message_id: `dead-${i}`, state: "dead", dead_at: "2026-01-01T00:00:00Z", error_code: "GROUP_NOT_FOUND" }));
		const { port, reads } = recordingPort(new NodeVault(v.dir));
		const router = new Router(port);
		await router.loadRegistry();
		const report = await router.pass();
		expect(report.decisions).toEqual([]);
		const history = reads.filter((p) => p.includes("/archive/") || p.startsWith("A2A/dead-letter/"));
		expect(history).toEqual([]);
		expect(reads.length, reads.join("\n")).toBeLessThanOrEqual(4);
	});
});
