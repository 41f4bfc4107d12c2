import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliIdentity, deviceState, statePaths } from "../../node/device";
import { SYSTEM_PROBE, holderRuns } from "../../node/process-lock";
import { stateFolder } from "../../node/state-folder";
import type { ProcessProbe } from "../../node/process-lock";
import { collectLines, useCliBundle } from "../helpers/cli-process";
import { atomicWrite, makeRoutedVault, outboxCount } from "../helpers/routed-vault";
import { BOX, requestNote } from "../helpers/temp-vault";

// Issue 27, finding 4: the CLI's device state (its id, the routing lock, what it saw of the lease)
// lives in the user's private state folder (node/state-folder.ts), which must be the user's own,
// a real folder, closed to others and outside the vault; nothing in it is written through a link;
// and a lock counts only while the very process that wrote it runs as this user.

const cli = useCliBundle();
const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
let parent = "";
let env: Record<string, string> = {};
afterEach(async () => {
	if (parent) await fs.rm(parent, { recursive: true, force: true });
	parent = "";
});

async function setUp(): Promise<{ dir: string; folder: string }> {
	const made = await makeRoutedVault("a2a-state-");
	parent = made.parent;
	env = { XDG_STATE_HOME: path.join(parent, "state"), A2A_DEVICE: "" };
	await atomicWrite(made.dir, `${BOX("10-backend-group", "outbox")}/ask.md`, requestNote({ message_id: "state-1", target_group: "20-frontend-group" }));
	return { dir: made.dir, folder: path.join(parent, "state", "a2a-relay") };
}

async function route(dir: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; decisions: string[]; errors: string }> {
	const child = cli.spawn(["route", "--json", "--vault", dir], { env: { ...env, ...extraEnv } });
	const lines: string[] = [];
	const errors: string[] = [];
	collectLines(child.stdout, lines);
	collectLines(child.stderr, errors);
	const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
	return { code, decisions: lines.filter((l) => l.startsWith("{")), errors: errors.join("\n") };
}

const paths = (dir: string) => statePaths(deviceState(dir, "A2A", env), env);

describe("the state folder", () => {
	it("is $XDG_STATE_HOME/a2a-relay, else ~/.local/state/a2a-relay (a relative XDG_STATE_HOME is not used)", () => {
		expect(stateFolder({ XDG_STATE_HOME: "/srv/state", HOME: "/home/ann" })).toBe(path.join("/srv/state", "a2a-relay"));
		expect(stateFolder({ XDG_STATE_HOME: "state", HOME: "/home/ann" })).toBe(path.join("/home/ann", ".local", "state", "a2a-relay"));
		expect(stateFolder({ HOME: "/home/ann" })).toBe(path.join("/home/ann", ".local", "state", "a2a-relay"));
	});

	it("is made private (0700) and refused when open to others, a link, or inside the vault: nothing is routed", async () => {
		const { dir, folder } = await setUp();
		await fs.mkdir(folder, { recursive: true, mode: 0o755 });
		await fs.chmod(folder, 0o755);
		const open = await route(dir);
		expect(open.code).toBe(2);
		expect(open.errors).toContain(`${folder} holds the router's device state but is not private to this user`);
		expect(await outboxCount(dir)).toBe(1);
		expect(await fs.readdir(folder)).toEqual([]);

		await fs.rm(folder, { recursive: true });
		const elsewhere = path.join(parent, "elsewhere");
		await fs.mkdir(elsewhere, { mode: 0o700 });
		await fs.symlink(elsewhere, folder);
		const linked = await route(dir);
		expect(linked.code).toBe(2);
		expect(linked.errors).toContain("is not a folder (a link or a file)");
		expect(await fs.readdir(elsewhere)).toEqual([]);

		const inVault = await route(dir, { XDG_STATE_HOME: path.join(dir, "state") });
		expect(inVault.code).toBe(2);
		expect(inVault.errors).toContain("is inside the vault");
		expect(await fs.readdir(dir), "nothing made in the vault").toEqual(["A2A"]);
		expect(await outboxCount(dir)).toBe(1);

		await fs.rm(folder);
		const made = await route(dir);
		expect(made.code).toBe(0);
		expect(made.decisions).toHaveLength(1);
		expect((await fs.lstat(folder)).mode & 0o777).toBe(0o700);
	}, 60_000);

	it.runIf(asRoot)("is refused when another user owns it", async () => {
		const { dir, folder } = await setUp();
		await fs.mkdir(folder, { recursive: true, mode: 0o700 });
		await fs.chown(folder, 65534, 65534);
		const run = await route(dir);
		expect(run.code).toBe(2);
		expect(run.errors).toContain("is not private to this user");
		expect(await outboxCount(dir)).toBe(1);
	}, 60_000);

	it("links planted at the lock's and the observations' names are replaced, never written through; one at the id's name is refused", async () => {
		const { dir, folder } = await setUp();
		await fs.mkdir(folder, { recursive: true, mode: 0o700 });
		const victim = path.join(parent, "victim.txt");
		await fs.writeFile(victim, "precious\n");
		const { lock, observed, device } = paths(dir);
		await fs.symlink(victim, lock);
		await fs.symlink(victim, observed);
		const run = await route(dir);
		expect(run.errors).not.toContain("Not routing");
		expect(run.decisions).toHaveLength(1);
		expect(await fs.readFile(victim, "utf8")).toBe("precious\n");
		expect((await fs.lstat(observed)).isFile()).toBe(true);
		expect(await fs.lstat(lock).then(() => "left", () => "released")).toBe("released");

		// The device's id behind a link: refused, with what to do; the link's target is untouched.
		const id = (await fs.readFile(device, "utf8")).trim();
		await fs.rm(device);
		await fs.writeFile(victim, `${id}\n`, { mode: 0o600 });
		await fs.symlink(victim, device);
		await atomicWrite(dir, `${BOX("10-backend-group", "outbox")}/ask 2.md`, requestNote({ message_id: "state-2", target_group: "20-frontend-group" }));
		const refused = await route(dir);
		expect(refused.code).toBe(2);
		expect(refused.errors).toContain(`${device} should hold this device's id but is not a private file of this user's holding one`);
		expect(await fs.readFile(victim, "utf8")).toBe(`${id}\n`);
		expect(await outboxCount(dir)).toBe(1);
	}, 60_000);
});

describe("the routing lock", () => {
	/** Plants a lock as `a2a route` writes one, for `pid` started at `start`. */
	const plant = async (dir: string, pid: number, start: string | null | undefined) => {
		const { lock } = paths(dir);
		await fs.mkdir(path.dirname(lock), { recursive: true, mode: 0o700 });
		await fs.writeFile(lock, JSON.stringify({ pid, start, what: "a planted lock" }), { mode: 0o600 });
	};

	it("counts while the process that wrote it runs: a planted lock naming this very test runner blocks", async () => {
		const { dir } = await setUp();
		await plant(dir, process.pid, SYSTEM_PROBE.startTime(process.pid) ?? null);
		const run = await route(dir);
		expect(run.errors).toContain(`Not routing: a planted lock (pid ${process.pid}) routes this vault on this machine`);
		expect(run.decisions).toEqual([]);
	}, 60_000);

	it("is stale when its pid now names a process started at another moment (a reused pid)", async () => {
		const { dir } = await setUp();
		// This test runner is alive and this user's, but did not start at the time the lock says.
		await plant(dir, process.pid, "1");
		const run = await route(dir);
		expect(run.errors).not.toContain("Not routing");
		expect(run.decisions).toHaveLength(1);
	}, 60_000);

	it.runIf(asRoot && process.platform === "linux")("is stale when its pid is another user's process, even one that answers the signal", async () => {
		const { dir } = await setUp();
		// A live process of another user, with its real start time: root may signal it, so only its owner tells.
		const other = spawn("sleep", ["60"], { uid: 65534, gid: 65534, stdio: "ignore" });
		try {
			const pid = other.pid as number;
			await plant(dir, pid, SYSTEM_PROBE.startTime(pid));
			expect(SYSTEM_PROBE.owner(pid)).toBe(65534);
			const run = await route(dir);
			expect(run.errors).not.toContain("Not routing");
			expect(run.decisions).toHaveLength(1);
		} finally {
			other.kill("SIGKILL");
		}
	}, 60_000);

	it("holderRuns: gone (ESRCH), another user's (EPERM, or owned by another uid), or reused: stale", () => {
		const fail = (code: string) => () => {
			throw Object.assign(new Error(code), { code });
		};
		const probe = (over: Partial<ProcessProbe>): ProcessProbe => ({ signal: () => undefined, owner: () => 1000, startTime: () => "77", uid: () => 1000, ...over });
		const record = { pid: 4242, start: "77" };
		expect(holderRuns(record, probe({}))).toBe(true);
		expect(holderRuns(record, probe({ signal: fail("ESRCH") }))).toBe(false);
		expect(holderRuns(record, probe({ signal: fail("EPERM") }))).toBe(false);
		expect(holderRuns(record, probe({ owner: () => 1001 }))).toBe(false);
		expect(holderRuns({ pid: 4242, start: "76" }, probe({}))).toBe(false);
		expect(holderRuns({ pid: 4242 }, probe({})), "a lock without the start time its holder would have written").toBe(false);
		expect(holderRuns({ pid: "4242" }, probe({}))).toBe(false);
		// Where the system tells neither owner nor start time (no /proc), a live process of this user's counts.
		expect(holderRuns({ pid: 4242 }, probe({ owner: () => undefined, startTime: () => undefined }))).toBe(true);
	});
});

// Review of issue 27 (M4): a state folder copied to another machine (a cloned VM, a container image
// built after a first route, a restored backup) or shared by two (a home on NFS) must not make the
// two machines one device, nor let one machine's lock be judged by the other's process table.
describe("a state folder on another machine", () => {
	async function machines(): Promise<{ a: Record<string, string>; b: Record<string, string> }> {
		const { dir } = await setUp();
		await fs.writeFile(path.join(parent, "machine-a"), "0123456789abcdef0123456789abcdef\n");
		await fs.writeFile(path.join(parent, "machine-b"), "fedcba9876543210fedcba9876543210\n");
		const a = { ...env, A2A_MACHINE_ID_FILE: path.join(parent, "machine-a") };
		const b = { ...env, A2A_MACHINE_ID_FILE: path.join(parent, "machine-b") };
		return { a: { ...a, dir }, b: { ...b, dir } };
	}
	const idOn = (machine: Record<string, string>, stateHome = machine.XDG_STATE_HOME) => {
		const on = { ...machine, XDG_STATE_HOME: stateHome };
		return cliIdentity("a2a route", deviceState(machine.dir, "A2A", on), on).device;
	};

	it("a copied state folder gives the other machine a new id; the same machine keeps its own", async () => {
		const { a, b } = await machines();
		const first = idOn(a);
		expect(idOn(a), "the same machine keeps its id").toBe(first);
		const copy = path.join(parent, "copied-state");
		await fs.cp(a.XDG_STATE_HOME, copy, { recursive: true });
		const cloned = idOn(b, copy);
		expect(cloned).toMatch(/^cli-/);
		expect(cloned, "a clone on another machine is another device").not.toBe(first);
		expect(idOn(b, copy), "and keeps its new id").toBe(cloned);
		expect(idOn(a, copy), "the copy back on its own machine (a restored backup) is the same device").toBe(first);
		// A shared home: each machine keeps its own id, however the runs alternate.
		expect(idOn(b)).not.toBe(first);
		expect(idOn(a)).toBe(first);
		expect(idOn(b)).toBe(idOn(b));
	});

	it("a lock another machine holds in a shared state folder neither blocks this machine nor is taken from it", async () => {
		const { a, b } = await machines();
		const { dir } = a;
		const other = spawn("sleep", ["60"], { stdio: "ignore" });
		try {
			const pid = other.pid as number;
			// Machine B routes: its lock names a live process (here also one of this machine's, as a pid on B could be).
			const lock = statePaths(deviceState(dir, "A2A", b), b).lock;
			const held = JSON.stringify({ pid, start: SYSTEM_PROBE.startTime(pid) ?? null, what: "a2a route on machine b" });
			await fs.mkdir(path.dirname(lock), { recursive: true, mode: 0o700 });
			await fs.writeFile(lock, held, { mode: 0o600 });
			const run = await route(dir, { A2A_MACHINE_ID_FILE: a.A2A_MACHINE_ID_FILE });
			expect(run.errors).not.toContain("Not routing");
			expect(run.decisions).toHaveLength(1);
			expect(await fs.readFile(lock, "utf8"), "machine B's lock is left as it was").toBe(held);
			const onB = await route(dir, { A2A_MACHINE_ID_FILE: b.A2A_MACHINE_ID_FILE });
			expect(onB.errors, "on machine B the lock still counts").toContain("Not routing: a2a route on machine b");
		} finally {
			other.kill("SIGKILL");
		}
	}, 60_000);
});
