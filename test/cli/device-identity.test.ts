import { realpathSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hash128 } from "../../src/core/hash";
import { leaseNoteText, parseLease } from "../../src/core/lease";
import { collectLines, useCliBundle } from "../helpers/cli-process";
import type { SpawnOptions } from "../helpers/cli-process";
import { atomicWrite, makeRoutedVault, outboxCount, sleep } from "../helpers/routed-vault";
import { BOX, requestNote } from "../helpers/temp-vault";

// Issue 27, findings 1 and 4 (docs/protocol.md, "One router at a time"): a device's identity in the
// lease is a random id made once per user and vault and kept in the user's private state folder;
// the host name is only the name people read. Two machines with one host name (containers, cloned
// VMs) are two devices: the second stands by while the first routes. Each simulated machine here has
// its own state folder (XDG_STATE_HOME) and its own temporary folder (TMPDIR); they share this
// machine's host name. And nothing at the old, computable paths in the shared temporary folder is
// obeyed (a planted lock) or written through (a planted link).

const cli = useCliBundle();
const HOST = os.hostname();
let parent = "";
let machines = "";
afterEach(async () => {
	for (const dir of [parent, machines]) if (dir) await fs.rm(dir, { recursive: true, force: true });
	parent = machines = "";
});

/** A simulated machine: its own private state folder and temporary folder, no A2A_DEVICE. */
async function machine(name: string): Promise<Record<string, string>> {
	machines ||= await fs.mkdtemp(path.join(os.tmpdir(), "a2a-machines-"));
	const home = path.join(machines, name);
	await fs.mkdir(path.join(home, "tmp"), { recursive: true });
	return { XDG_STATE_HOME: path.join(home, "state"), TMPDIR: path.join(home, "tmp"), A2A_DEVICE: "" };
}

/** One `a2a route --json` run to its end: exit code, decisions printed, stderr lines. */
async function routeOnce(dir: string, options: SpawnOptions, ...extra: string[]): Promise<{ code: number | null; decisions: string[]; errors: string[] }> {
	const child = cli.spawn(["route", "--json", "--vault", dir, ...extra], options);
	const lines: string[] = [];
	const errors: string[] = [];
	collectLines(child.stdout, lines);
	collectLines(child.stderr, errors);
	const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
	return { code, decisions: lines.filter((l) => l.startsWith("{")), errors };
}

const lease = async (dir: string) => parseLease(await fs.readFile(path.join(dir, "A2A/router.md"), "utf8").catch(() => null));
const ask = (dir: string, id: string) => atomicWrite(dir, `${BOX("10-backend-group", "outbox")}/${id}.md`, requestNote({ message_id: id, target_group: "20-frontend-group" }));

async function vault(): Promise<string> {
	const made = await makeRoutedVault("a2a-identity-");
	parent = made.parent;
	return made.dir;
}

describe("a device's identity in the lease", () => {
	it("two machines with one host name are two devices: while one routes, the other stands by and routes nothing", async () => {
		const dir = await vault();
		const [one, two] = [await machine("one"), await machine("two")];
		const first = cli.startWatcher(dir, { env: one, extra: ["--margin", "120"] });
		const deadline = Date.now() + 20_000;
		while ((await lease(dir))?.released !== false && Date.now() < deadline) await sleep(50);
		const held = await lease(dir);
		expect(held?.name).toBe(`a2a route --watch on ${HOST}`);
		await ask(dir, "same-host-1");
		const second = await routeOnce(dir, { env: two }, "--margin", "120");
		expect(second.code).toBe(0);
		expect(second.errors.join("\n")).toContain(`Not routing: a2a route --watch on ${HOST} routes this vault`);
		expect(second.decisions, "the second machine routed nothing").toEqual([]);
		expect((await lease(dir))?.device, "the lease still names the first machine").toBe(held?.device);
		// The first machine routes the note, and never lost the lease.
		while ((await outboxCount(dir)) > 0 && Date.now() < deadline) await sleep(50);
		expect(await outboxCount(dir)).toBe(0);
		expect(first.errors.filter((l) => l.startsWith("Stopped routing"))).toEqual([]);
		first.child.kill("SIGTERM");
		await first.closed;
		// Once the first released the lease, the second takes it: under an id of its own.
		const after = await routeOnce(dir, { env: two });
		expect(after.errors.join("\n")).not.toContain("Not routing");
		const taken = await lease(dir);
		expect(taken?.device).not.toBe(held?.device);
		for (const id of [held?.device, taken?.device]) expect(id).toMatch(/^cli-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	}, 60_000);

	it("is made once per user and vault, kept private in the user's state folder; A2A_DEVICE overrides it", async () => {
		const dir = await vault();
		const env = await machine("one");
		expect((await routeOnce(dir, { env })).code).toBe(0);
		const id = (await lease(dir))?.device as string;
		expect(id).not.toContain(HOST);
		expect((await lease(dir))?.name).toBe(`a2a route on ${HOST}`);
		// The same user and vault again: the same device (it takes its own released lease back).
		expect((await routeOnce(dir, { env })).code).toBe(0);
		expect((await lease(dir))?.device).toBe(id);
		// Kept in the state folder, private to the user, and nowhere in the vault.
		const folder = path.join(env.XDG_STATE_HOME, "a2a-relay");
		expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
		const kept = [];
		for (const name of await fs.readdir(folder)) if ((await fs.readFile(path.join(folder, name), "utf8")).trim() === id) kept.push(name);
		expect(kept).toHaveLength(1);
		expect((await fs.stat(path.join(folder, kept[0]))).mode & 0o777).toBe(0o600);
		expect(await fs.readdir(env.TMPDIR), "nothing in the temporary folder").toEqual([]);
		// Another vault of the same user is another device.
		const other = await makeRoutedVault("a2a-identity-other-");
		try {
			expect((await routeOnce(other.dir, { env })).code).toBe(0);
			expect((await lease(other.dir))?.device).not.toBe(id);
		} finally {
			await fs.rm(other.parent, { recursive: true, force: true });
		}
		// A2A_DEVICE names the device instead.
		expect((await routeOnce(dir, { env: { ...env, A2A_DEVICE: "lab-router-1" } })).code).toBe(0);
		expect(await lease(dir)).toMatchObject({ device: "lab-router-1", name: "a2a route on lab-router-1" });
	}, 60_000);

	it("a lease an older version wrote as cli@<host name> is honoured: taken over after the sync margin, or at once when released", async () => {
		const dir = await vault();
		const env = await machine("one");
		const now = new Date().toISOString();
		const old = { device: `cli@${HOST}`, name: `a2a route --watch on ${HOST}`, since: now, renewed: now, renewal: 41, yields: false, released: false };
		await fs.writeFile(path.join(dir, "A2A/router.md"), leaseNoteText(old));
		await ask(dir, "legacy-1");
		const first = await routeOnce(dir, { env }, "--margin", "1");
		expect(first.errors.join("\n")).toContain(`Not routing: a2a route --watch on ${HOST} routes this vault`);
		expect(first.decisions).toEqual([]);
		expect(await outboxCount(dir)).toBe(1);
		// No renewal for longer than the margin: taken over.
		await sleep(1500);
		const second = await routeOnce(dir, { env }, "--margin", "1");
		expect(second.decisions.map((l) => (JSON.parse(l) as { outcome: string }).outcome)).toEqual(["delivered"]);
		expect((await lease(dir))?.device).toMatch(/^cli-/);
		// A released one is taken at once.
		await fs.writeFile(path.join(dir, "A2A/router.md"), leaseNoteText({ ...old, released: true }));
		await ask(dir, "legacy-2");
		const third = await routeOnce(dir, { env }, "--margin", "120");
		expect(third.decisions).toHaveLength(1);
	}, 60_000);
});

describe("nothing at the old paths in the shared temporary folder counts", () => {
	/** Where versions before 0.3 kept a vault's device state: names any local user can compute. */
	const oldPath = (dir: string, suffix: string) => {
		const key = hash128(`${realpathSync(dir)}\nA2A\n`).map((n) => n.toString(16)).join("").slice(0, 20);
		return path.join(os.tmpdir(), `a2a-relay-${key}.${suffix}`);
	};

	it("a planted lock naming a live process does not block routing, and a planted link is not written through", async () => {
		const dir = await vault();
		const lock = oldPath(dir, "lock");
		const observed = oldPath(dir, "observed.json");
		const target = path.join(parent, "victim.txt");
		await fs.writeFile(target, "precious\n");
		try {
			// A live process (this test runner) that is not routing anything.
			await fs.writeFile(lock, JSON.stringify({ pid: process.pid, what: "a planted lock" }));
			await fs.symlink(target, observed);
			await ask(dir, "planted-1");
			const run = await routeOnce(dir, {});
			expect(run.errors.join("\n")).not.toContain("Not routing");
			expect(run.decisions).toHaveLength(1);
			expect(await fs.readFile(target, "utf8")).toBe("precious\n");
		} finally {
			await fs.rm(lock, { force: true });
			await fs.rm(observed, { force: true });
		}
	}, 60_000);
});
