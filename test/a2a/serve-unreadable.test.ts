import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Gateway } from "../../servers/a2a/gateway";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { failReads } from "../helpers/failing-reads";
import { ARCHIVED, BOX, a2a, requestNote } from "../helpers/temp-vault";
import { collectLines } from "../helpers/cli-process";
import { A_GROUP, GATEWAY, exited, until, useHarness } from "./harness";

// `a2a serve` runs no routing pass, yet its index reads the notes the router would: a note that
// cannot be read is said once (the pass's own words), while it stays so, as `a2a route` says it.

const h = useHarness();
afterEach(() => vi.restoreAllMocks());

const said = (path: string) => `${path} cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`;

describe("a2a serve and a note that cannot be read", () => {
	it("says it once at start and once when another appears, reads them again at its checks without saying them again, and goes on serving", async () => {
		const v = await h.vault();
		const archived = `${ARCHIVED(A_GROUP)}/old.md`;
		const inbox = `${BOX(A_GROUP, "inbox")}/new.md`;
		const outbox = `${BOX(GATEWAY, "outbox")}/sent.md`;
		await v.write(archived, requestNote({ message_id: "old-1", target_group: A_GROUP, source_group: "20-frontend-group", state: "answered" }));
		const failing = failReads(new Set([archived, inbox, outbox]), "EACCES");
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const warnings: string[] = [];
		router.warnings.sayAsTheyCome((line) => warnings.push(line));
		// The slow check every 50 ms; every tenth of them reads the history again.
		const gateway = new Gateway(router, new NodeVault(v.dir), { intervalMs: 50, onError: (e) => warnings.push(`error: ${String(e)}`) });
		try {
			await gateway.start();
			expect(warnings).toEqual([said(archived)]);
			await v.write(inbox, requestNote({ message_id: "new-1", target_group: A_GROUP, source_group: "20-frontend-group" }));
			await until("the new note said", async () => warnings.length >= 2);
			await until("both read again", async () => failing.attempts(archived) >= 3 && failing.attempts(inbox) >= 3);
			expect(warnings).toEqual([said(archived), said(inbox)]);
			// One in the gateway's own outbox (the notes its tasks start from): said once, nothing stops.
			await v.write(outbox, requestNote({ message_id: "sent-1", source_group: GATEWAY, target_group: A_GROUP }));
			await until("the outbox note read again", async () => failing.attempts(outbox) >= 3);
			expect(warnings).toEqual([said(archived), said(inbox), said(outbox)]);
			expect(gateway.servedGroups().map((g) => g.id)).toContain(A_GROUP);
		} finally {
			await gateway.stop();
		}
	});

	it("a task whose answer cannot be read fails the call (the client may ask again), never a finished task without its answer", async () => {
		const v = await h.vault();
		await v.write(`${BOX(GATEWAY, "outbox")}/sent.md`, requestNote({ message_id: "sent-1", source_group: GATEWAY, target_group: A_GROUP }));
		expect((await a2a(v.dir, "route")).code).toBe(0);
		expect((await a2a(v.dir, "reply", "--message", "sent-1", "--status", "success", "--answer", "Done")).code).toBe(0);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const [answer] = (await v.files(BOX(GATEWAY, "inbox"))).filter((p) => p.endsWith(".md"));
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const gateway = new Gateway(router, new NodeVault(v.dir), { intervalMs: 60_000, onError: () => undefined });
		try {
			await gateway.start();
			const done = await gateway.tasks.load("sent-1");
			expect([done?.status?.state, done?.artifacts.length]).toEqual([TaskState.TASK_STATE_COMPLETED, 1]);
			// The answer's head is in the index; its whole text cannot be read now.
			failReads(new Set([answer]), "EIO", Infinity, (options) => options?.maxBytes === undefined);
			await expect(gateway.tasks.load("sent-1")).rejects.toThrow(/EIO/);
		} finally {
			await gateway.stop();
		}
	});

	// A real permission error needs another user than root (root reads a note of mode 000): the
	// bundle runs as nobody, on a vault it may write but for the two notes.
	it.skipIf(process.getuid?.() !== 0)("as another user, notes it may not read, named with control characters: said once each, escaped, and it goes on serving", async () => {
		const v = await h.vault();
		const state = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-nobody-"));
		const inbox = `${BOX(A_GROUP, "inbox")}/in\u001b[31mred.md`;
		const outbox = `${BOX(GATEWAY, "outbox")}/out\nFORGED line.md`;
		let child: ChildProcess | undefined;
		try {
			for (const [rel, id, from, to] of [[inbox, "locked-in", "20-frontend-group", A_GROUP], [outbox, "locked-out", GATEWAY, A_GROUP]]) {
				await v.write(rel, requestNote({ message_id: id, source_group: from, target_group: to }));
			}
			await fs.chmod(path.dirname(h.cli.path()), 0o755);
			await fs.chmod(state, 0o777);
			const open = async (dir: string): Promise<void> => {
				await fs.chmod(dir, 0o777);
				for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
					const full = path.join(dir, entry.name);
					if (entry.isDirectory()) await open(full);
					else await fs.chmod(full, 0o666);
				}
			};
			await open(v.dir);
			for (const rel of [inbox, outbox]) await fs.chmod(path.join(v.dir, ...rel.split("/")), 0o000);
			const stderr: string[] = [];
			const stdout: string[] = [];
			child = spawn(process.execPath, [h.cli.path(), "serve", "--port", "0", "--json", "--interval", "100", "--vault", v.dir], {
				uid: 65534,
				gid: 65534,
				env: { PATH: process.env.PATH ?? "", HOME: state, XDG_STATE_HOME: state, A2A_CACHE_DIR: "off" },
				stdio: ["ignore", "pipe", "pipe"],
			});
			collectLines(child.stdout, stdout);
			collectLines(child.stderr, stderr);
			await until("a2a serve listening", async () => stdout.some((l) => l.includes('"url"')) || child?.exitCode !== null);
			expect(stdout.some((l) => l.includes('"url"'))).toBe(true);
			// Ten slow checks and more: each reads both notes again.
			await new Promise((r) => setTimeout(r, 1500));
			const said = stderr.filter((l) => l.includes("cannot be read"));
			expect(said).toEqual([
				`a2a serve: warning: A2A/groups/${A_GROUP}/inbox/in\\x1b[31mred.md cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`,
				`a2a serve: warning: A2A/groups/${GATEWAY}/outbox/out\\nFORGED line.md cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`,
			].sort((a, b) => (stderr.indexOf(a) < stderr.indexOf(b) ? -1 : 1)));
			expect(stderr.filter((l) => l.startsWith("FORGED") || l.includes("\u001b"))).toEqual([]);
			expect(child.exitCode).toBe(null);
		} finally {
			if (child && child.exitCode === null) {
				const done = exited(child);
				child.kill("SIGTERM");
				await done;
			}
			await fs.rm(state, { recursive: true, force: true });
		}
	});
});
