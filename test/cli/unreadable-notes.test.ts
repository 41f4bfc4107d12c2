import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseArgs } from "../../cli/args";
import { runRoute } from "../../cli/commands/route";
import { useCliBundle } from "../helpers/cli-process";
import { NodeVault } from "../../node/node-vault";
import { MAX_NOTE_BYTES } from "../../src/core/protocol";
import { listInbox } from "../../src/router/inbox-listing";
import { Router } from "../../src/router/router";
import { failReads } from "../helpers/failing-reads";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// What any writer of the vault can leave where the router looks, and what the disk can do to one
// file: a named pipe with a note's name, a note that cannot be read. Each concerns that file alone;
// the router says so, goes on with every other note, and routes the note once it can be read. A
// round of `a2a route --watch` that fails as a whole is said and tried again, not the end of it.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";
const OUT = BOX(BACKEND, "outbox");
const IN = BOX(FRONTEND, "inbox");

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(async () => {
	vi.restoreAllMocks();
	vi.unstubAllEnvs();
	await v.cleanup();
});

/** `a2a route --watch` in this process (so that its reads can be made to fail), with what it prints. */
function watchInProcess(...extra: string[]): { errors: string[]; lines: string[]; stop: () => Promise<number> } {
	const errors: string[] = [];
	const lines: string[] = [];
	const abort = new AbortController();
	const args = parseArgs(["--watch", "--grace", "0", "--interval", "50", "--vault", v.dir, ...extra], { values: ["grace", "interval", "margin", "forward-wait"], booleans: ["watch"] });
	const running = runRoute(args, { out: (l) => lines.push(l), err: (l) => errors.push(l) }, abort.signal);
	return {
		errors,
		lines,
		stop: () => {
			abort.abort();
			return running;
		},
	};
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await ok())) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 25));
	}
}

describe("named pipes with a note's name", () => {
	const cli = useCliBundle();

	it("in an outbox, an inbox and an archive: a2a route --watch passes over them and routes the next note", async () => {
		const w = cli.startWatcher(v.dir, { extra: ["--grace", "0"] });
		await v.write(`${OUT}/first.md`, requestNote({ message_id: "before-the-pipes" }));
		await until("the watcher to route", () => w.lines.some((l) => l.includes("before-the-pipes") && l.includes('"delivered"')));
		// Named after notes, where the watcher's file events name them: opening one for reading would wait for a writer for ever.
		for (const folder of [OUT, IN, ARCHIVED(FRONTEND)]) {
			await v.write(`${folder}/.keep`, "");
			execFileSync("mkfifo", [path.join(v.dir, ...folder.split("/"), "pipe.md")]);
		}
		await new Promise((r) => setTimeout(r, 200));
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "after-the-pipes" }));
		await until("the note to be delivered", () => w.lines.some((l) => l.includes("after-the-pipes") && l.includes('"delivered"')));
		expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "after-the-pipes", state: "delivered" });
		// The pipes are where they were: not messages, so never moved nor dead-lettered.
		expect(await v.exists(`${OUT}/pipe.md`)).toBe(true);
		expect(await v.files("A2A/dead-letter")).toEqual([]);
	});

	it("a one-shot a2a route with a pipe in each kind of folder finishes and routes", async () => {
		for (const folder of [OUT, IN, ARCHIVED(FRONTEND), "A2A/dead-letter"]) {
			await v.write(`${folder}/.keep`, "");
			execFileSync("mkfifo", [path.join(v.dir, ...folder.split("/"), "pipe.md")]);
		}
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "beside-a-pipe" }));
		const run = cli.spawn(["route", "--json", "--vault", v.dir]);
		const code = await new Promise<number | null>((resolve) => run.on("close", resolve));
		expect(code).toBe(0);
		expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "beside-a-pipe", state: "delivered" });
	});

	it("in Obsidian's config folder: a2a status and a2a init finish, with the default settings", async () => {
		for (const file of [".obsidian/core-plugins.json", ".obsidian/types.json", ".obsidian/plugins/a2a-relay/data.json"]) {
			await v.write(`${path.posix.dirname(file)}/.keep`, "");
			execFileSync("mkfifo", [path.join(v.dir, ...file.split("/"))]);
		}
		for (const command of ["status", "init"]) {
			const run = cli.spawn([command, "--vault", v.dir]);
			const code = await new Promise<number | null>((resolve) => run.on("close", resolve));
			expect(code, `a2a ${command}`).toBe(0);
		}
	});
});

describe("a note that cannot be read", () => {
	it("in an outbox, under a2a route --watch: said once over many passes, the others routed; routed once it can be read", async () => {
		const failing = new Set([`${OUT}/locked.md`]);
		failReads(failing, "EACCES");
		// A lease renewed every 250 ms: a full pass, which reads every outbox note, as often.
		const w = watchInProcess("--margin", "1");
		try {
			await until("the watcher to start", () => w.errors.some((l) => l.startsWith("Watching")));
			await v.write(`${OUT}/locked.md`, requestNote({ message_id: "locked-w" }));
			// Each note written is a pass of its own; the router looks at the locked note in full passes too.
			for (let i = 0; i < 5; i++) {
				await v.write(`${OUT}/open-${i}.md`, requestNote({ message_id: `open-w-${i}` }));
				await until(`open-${i} to be delivered`, () => v.exists(`${IN}/open-${i}.md`));
			}
			await new Promise((r) => setTimeout(r, 1000));
			const said = () => w.errors.filter((l) => l.includes("locked.md"));
			expect(said()).toEqual([`could not route ${OUT}/locked.md: it cannot be read (permission denied, EACCES): it stays in its outbox, and is routed once it can be read`]);
			failing.clear();
			await v.write(`${OUT}/locked.md`, requestNote({ message_id: "locked-w" }));
			await until("the note to be delivered", () => v.exists(`${IN}/locked.md`));
			expect(await v.frontmatter(`${IN}/locked.md`)).toMatchObject({ message_id: "locked-w", state: "delivered" });
			expect(said()).toHaveLength(1);
		} finally {
			expect(await w.stop()).toBe(0);
		}
	});

	it("in an outbox: it stays, is said, the other notes are routed; once it can be read it is routed", async () => {
		await v.write(`${OUT}/locked.md`, requestNote({ message_id: "locked-1" }));
		await v.write(`${OUT}/open.md`, requestNote({ message_id: "open-1" }));
		const failing = new Set([`${OUT}/locked.md`]);
		failReads(failing, "EACCES");
		const first = await a2a(v.dir, "route");
		expect(first.code).toBe(0);
		expect(await v.frontmatter(`${IN}/open.md`)).toMatchObject({ message_id: "open-1", state: "delivered" });
		expect(await v.exists(`${OUT}/locked.md`)).toBe(true);
		expect(first.stderr).toContain(`could not route ${OUT}/locked.md: it cannot be read (permission denied, EACCES): it stays in its outbox, and is routed once it can be read`);
		failing.clear();
		const second = await a2a(v.dir, "route");
		expect(second.code).toBe(0);
		expect(second.stderr.filter((l) => l.includes("cannot be read"))).toEqual([]);
		expect(await v.frontmatter(`${IN}/locked.md`)).toMatchObject({ message_id: "locked-1", state: "delivered" });
		expect(await v.exists(`${OUT}/locked.md`)).toBe(false);
	});

	it("in an archive: routing goes on without it, with a warning", async () => {
		const archived = `${ARCHIVED(FRONTEND)}/old.md`;
		await v.write(archived, requestNote({ message_id: "old-1", state: "answered" }));
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "new-1" }));
		failReads(new Set([archived]), "EIO");
		// Without the device's copy of the history, the pass reads every archived note.
		vi.stubEnv("A2A_CACHE_DIR", "off");
		const run = await a2a(v.dir, "route");
		expect(run.code).toBe(0);
		expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "new-1", state: "delivered" });
		expect(run.stderr).toContain(`warning: ${archived} cannot be read (input/output error, EIO): the router goes on without what it says, and reads it again when it next looks at it`);
		expect(await v.exists(archived)).toBe(true);
	});

	it("in an inbox, a delivered request: it stays delivered there (never taken for a note the router did not deliver)", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "held-1" }));
		expect((await a2a(v.dir, "route")).code).toBe(0);
		// Busy once: the read when the inboxes are listed fails, the next one would succeed.
		failReads(new Set([`${IN}/ask.md`]), "EBUSY", 1);
		const run = await a2a(v.dir, "route");
		expect(run.code).toBe(0);
		expect(run.stderr).toContain(`warning: ${IN}/ask.md cannot be read (busy, EBUSY): the router goes on without what it says, and reads it again when it next looks at it`);
		expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "held-1", state: "delivered" });
		// The next run reads it: it is the delivered request, left alone.
		expect((await a2a(v.dir, "route")).code).toBe(0);
		expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "held-1", state: "delivered" });
		expect(await v.files("A2A/dead-letter")).toEqual([]);
		expect(await v.files(BOX(BACKEND, "inbox"))).toEqual([]);
	});

	it("in an inbox, for a2a inbox and a2a read: the other messages are listed and it is said once", async () => {
		await v.write(`${OUT}/a.md`, requestNote({ message_id: "list-1" }));
		await v.write(`${OUT}/b.md`, requestNote({ message_id: "list-2" }));
		expect((await a2a(v.dir, "route")).code).toBe(0);
		failReads(new Set([`${IN}/b.md`]), "EACCES");
		const run = await a2a(v.dir, "inbox", "--group", FRONTEND, "--json");
		expect(run.code).toBe(0);
		expect(JSON.stringify(run.json)).toContain("list-1");
		expect(JSON.stringify(run.json)).not.toContain("list-2");
		expect(run.stderr.filter((l) => l.includes("cannot be read"))).toEqual([`warning: ${IN}/b.md cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`]);
		// a2a read finds no such message in what it can read, and says why.
		const read = await a2a(v.dir, "read", "list-2");
		expect(read.stderr.filter((l) => l.includes("cannot be read"))).toEqual([`warning: ${IN}/b.md cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`]);
	});

	it("a note whose head reads but whose whole text does not (a listing reads it whole, the index its head): said once, however often both look", async () => {
		await v.write(`${OUT}/a.md`, requestNote({ message_id: "half-1" }));
		expect((await a2a(v.dir, "route")).code).toBe(0);
		failReads(new Set([`${IN}/a.md`]), "EIO", Infinity, (options) => (options?.maxBytes ?? Infinity) >= MAX_NOTE_BYTES);
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const said: string[] = [];
		router.warnings.sayAsTheyCome((line) => said.push(line));
		await router.indexSync.ensureLive();
		for (let round = 0; round < 3; round++) {
			expect((await listInbox(router, FRONTEND)).requests).toEqual([]);
			// The note changes (a sync engine touched it): the index reads its head again.
			const at = new Date(Date.now() - 60_000 * (round + 1));
			await fs.utimes(path.join(v.dir, IN, "a.md"), at, at);
			await router.indexSync.refresh(`${IN}/a.md`);
			expect(router.index.withId("half-1").length).toBe(1);
		}
		expect(said).toEqual([`${IN}/a.md cannot be read (input/output error, EIO): the router goes on without what it says, and reads it again when it next looks at it`]);
	});

	it("a sink that fails does not fail the read that met the problem", async () => {
		await v.write(`${OUT}/a.md`, requestNote({ message_id: "sink-1" }));
		await v.write(`${OUT}/b.md`, requestNote({ message_id: "sink-2" }));
		expect((await a2a(v.dir, "route")).code).toBe(0);
		failReads(new Set([`${IN}/a.md`]), "EACCES");
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		let calls = 0;
		router.warnings.sayAsTheyCome(() => {
			calls++;
			throw new Error("EPIPE from the sink");
		});
		expect((await listInbox(router, FRONTEND)).requests.map((r) => r.message_id)).toEqual(["sink-2"]);
		expect(calls).toBe(1);
	});

	it("a failure that is not one file's (too many open files) still stops the pass, with nothing moved", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "emfile-1" }));
		failReads(new Set([`${OUT}/ask.md`]), "EMFILE");
		const run = await a2a(v.dir, "route");
		expect(run.code).not.toBe(0);
		expect(run.stderr.join("\n")).toContain("EMFILE");
		expect(await v.exists(`${OUT}/ask.md`)).toBe(true);
		expect(await v.files(IN)).toEqual([]);
	});
});

describe("a2a route --watch after a round that failed", () => {
	it("says so, pauses (no file event ends the pause, nor the lease's renewal), keeps the lease, and routes again by itself", async () => {
		const failing = new Set<string>();
		failReads(failing, "EMFILE");
		// A lease renewed every 250 ms: its renewal does not end a pause either.
		const w = watchInProcess("--margin", "1");
		const failures = () => w.errors.filter((l) => l.startsWith("Routing failed"));
		try {
			await until("the watcher to start", () => w.errors.some((l) => l.startsWith("Watching")));
			failing.add(`${OUT}/ask.md`);
			await v.write(`${OUT}/ask.md`, requestNote({ message_id: "after-failure" }));
			await until("the failure to be said", () => failures().length === 1);
			expect(failures()[0]).toBe("Routing failed: EMFILE: failed. Trying again in 1 s.");
			// A change during the pause does not end it.
			await v.write(`${OUT}/other.md`, requestNote({ message_id: "during-the-pause" }));
			await new Promise((r) => setTimeout(r, 600));
			expect(failures()).toHaveLength(1);
			// Failing again: the next pause is 2 s, and the lease stays this router's.
			await until("the second failure", () => failures().length === 2);
			expect(failures()[1]).toBe("Routing failed: EMFILE: failed. Trying again in 2 s.");
			expect(await v.frontmatter("A2A/router.md")).toMatchObject({ released: false });
			// The disk is fine again: no file event follows, the pause ends and both notes are routed.
			failing.clear();
			await until("the notes to be delivered", async () => (await v.exists(`${IN}/ask.md`)) && (await v.exists(`${IN}/other.md`)));
			expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "after-failure", state: "delivered" });
			await until("the recovery to be said", () => w.errors.includes("Routing again."));
			expect(failures()).toHaveLength(2);
			expect(await v.frontmatter("A2A/router.md")).toMatchObject({ released: false });
		} finally {
			expect(await w.stop()).toBe(0);
		}
	});
});
