import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseArgs } from "../../cli/args";
import { runRoute } from "../../cli/commands/route";
import { NodeVault } from "../../node/node-vault";
import { useCliBundle } from "../helpers/cli-process";
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
	await v.cleanup();
});

/** An error as Node's file system gives it. */
function fsError(code: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: failed`), { code });
}

/** Reads of the vault paths `failing` names fail with `code` while it holds them (the rest read as usual). */
function failReads(failing: Set<string>, code: string): void {
	const read = NodeVault.prototype.read;
	vi.spyOn(NodeVault.prototype, "read").mockImplementation(function (this: NodeVault, vaultPath, options) {
		if (failing.has(vaultPath)) return Promise.reject(fsError(code));
		return read.call(this, vaultPath, options);
	});
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
});

describe("a note that cannot be read", () => {
	it("in an outbox: it stays, is said once, the other notes are routed; once it can be read it is routed", async () => {
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
	it("says so, pauses, and routes again by itself", async () => {
		const failing = new Set<string>();
		failReads(failing, "EMFILE");
		const errors: string[] = [];
		const lines: string[] = [];
		const stop = new AbortController();
		const args = parseArgs(["--watch", "--grace", "0", "--interval", "50", "--vault", v.dir], { values: ["grace", "interval", "margin", "forward-wait"], booleans: ["watch"] });
		const watching = runRoute(args, { out: (l) => lines.push(l), err: (l) => errors.push(l) }, stop.signal);
		try {
			await until("the watcher to start", () => errors.some((l) => l.startsWith("Watching")));
			failing.add(`${OUT}/ask.md`);
			await v.write(`${OUT}/ask.md`, requestNote({ message_id: "after-failure" }));
			await until("the failure to be said", () => errors.some((l) => l.startsWith("Routing failed: EMFILE")));
			expect(errors.find((l) => l.startsWith("Routing failed"))).toMatch(/Trying again in 1 s\.$/);
			// The disk is fine again: no file event follows, the pause ends and the note is routed.
			failing.clear();
			await until("the note to be delivered", () => v.exists(`${IN}/ask.md`));
			expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "after-failure", state: "delivered" });
			await until("the recovery to be said", () => errors.includes("Routing again."));
		} finally {
			stop.abort();
			expect(await watching).toBe(0);
		}
	});
});
