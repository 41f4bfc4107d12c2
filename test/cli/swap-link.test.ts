import fsModule, { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { useCliBundle } from "../helpers/cli-process";
import { BOX, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Issue 27, finding 3: `a2a route --watch` checks each folder at the moment it writes. A box swapped
// for a symbolic link to a folder elsewhere while the watcher runs gets nothing written through it:
// the refusal is reported and the note stays where it was. (MCP's send_request and serve's
// SendMessage: test/mcp/mcp-swap-link.test.ts, test/a2a/serve-swap-link.test.ts.)

const A = "10-backend-group";
const B = "20-frontend-group";
const cli = useCliBundle();
let v: TempVault;
let outside: string;

beforeEach(async () => {
	v = await makeTempVault("a2a-swap-");
	expect((await a2a(v.dir, "init")).code).toBe(0);
	outside = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-outside-"));
});
afterEach(async () => {
	await v.cleanup();
	await fs.rm(outside, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
	for (let i = 0; i < 400; i++) {
		const value = await probe();
		if (value) return value;
		await new Promise((r) => setTimeout(r, 25));
	}
	throw new Error(`gave up waiting for ${what}`);
}

/** Swaps `folder` of the vault for a symbolic link to `target`, its notes moved out of the way. */
async function swapForLink(folder: string, target: string): Promise<void> {
	const full = path.join(v.dir, folder);
	await fs.rename(full, `${full}-away`);
	await fs.symlink(target, full);
}

describe("route --watch checks every write", () => {
	it("an inbox swapped for a link while the watcher runs: the next delivery is refused and reported, nothing lands outside the vault", async () => {
		const watcher = cli.startWatcher(v.dir);
		await v.write(`${BOX(A, "outbox")}/first.md`, requestNote({ message_id: "swap-1", target_group: B }));
		await until("the first delivery", () => watcher.lines.some((l) => l.includes('"swap-1"') && l.includes('"delivered"')));
		await swapForLink(BOX(B, "inbox"), outside);
		await v.write(`${BOX(A, "outbox")}/second.md`, requestNote({ message_id: "swap-2", target_group: B, trace_id: "22222222-2222-4222-8222-222222222222" }));
		await until("the refusal", () => watcher.errors.some((l) => l.includes(`${BOX(B, "inbox")} leads to`) && l.includes("outside the vault")));
		expect(await fs.readdir(outside)).toEqual([]);
		expect(watcher.lines.some((l) => l.includes('"swap-2"') && l.includes('"delivered"'))).toBe(false);
		expect(await v.files(BOX(A, "outbox"))).toEqual([`${BOX(A, "outbox")}/second.md`]);
		watcher.child.kill("SIGTERM");
		await watcher.closed;
	});

	it("an outbox swapped for a link to a folder elsewhere: its note is neither carried in nor removed there", async () => {
		const watcher = cli.startWatcher(v.dir);
		await v.write(`${BOX(A, "outbox")}/first.md`, requestNote({ message_id: "swap-3", target_group: B }));
		await until("the first delivery", () => watcher.lines.some((l) => l.includes('"swap-3"') && l.includes('"delivered"')));
		await swapForLink(BOX(A, "outbox"), outside);
		// The watcher watches the folder it found at start (now moved away): a registry edit makes it watch the boxes again.
		await v.write("A2A/registry.yaml", `${await v.read("A2A/registry.yaml")}\n# edited\n`);
		await new Promise((r) => setTimeout(r, 300));
		await fs.writeFile(path.join(v.dir, BOX(A, "outbox"), "planted.md"), requestNote({ message_id: "swap-4", target_group: B, trace_id: "33333333-3333-4333-8333-333333333333" }));
		await until("the refusal", () => watcher.errors.some((l) => l.includes(`${BOX(A, "outbox")} leads to`) && l.includes("outside the vault")));
		expect(await fs.readdir(outside)).toEqual(["planted.md"]);
		expect(watcher.lines.some((l) => l.includes('"swap-4"') && l.includes('"delivered"'))).toBe(false);
		expect(await v.files(BOX(B, "inbox"))).toHaveLength(1);
		watcher.child.kill("SIGTERM");
		await watcher.closed;
	});
});

describe("a2a init and a linked .obsidian", () => {
	it("writes types.json through a .obsidian that is a symbolic link (users link it on purpose), replacing no link inside it", async () => {
		const config = path.join(outside, "shared-obsidian-config");
		await fs.mkdir(config);
		await fs.writeFile(path.join(config, "types.json"), JSON.stringify({ types: { status: "checkbox" } }));
		await fs.rm(path.join(v.dir, ".obsidian"), { recursive: true, force: true });
		await fs.symlink(config, path.join(v.dir, ".obsidian"));
		const init = await a2a(v.dir, "init", "--json");
		expect(init.code, init.stderr.join("\n")).toBe(0);
		expect((init.json[0].property_types as string[]).length).toBeGreaterThan(0);
		const types = JSON.parse(await fs.readFile(path.join(config, "types.json"), "utf8")) as { types: Record<string, string> };
		// What was there stays as it was; A2A's properties are added.
		expect(types.types.status).toBe("checkbox");
		expect(types.types.trace_id).toBe("text");
		expect((await fs.lstat(path.join(v.dir, ".obsidian"))).isSymbolicLink()).toBe(true);
	});
});

/**
 * The race of a local process that swaps `folder` for a link to `target` in the window between the
 * folder check (its realpath) and the write, made deterministic: the swap is done right after the
 * check's realpath of that folder returns, once.
 */
function swapAfterCheck(folder: string, target: string): () => void {
	const full = path.join(v.dir, folder);
	const api = fsModule.realpathSync as unknown as { native: (p: string) => string };
	const original = api.native;
	let armed = true;
	api.native = (p: string): string => {
		const real = original(p);
		if (armed && p === full) {
			armed = false;
			fsModule.renameSync(full, `${full}-away`);
			fsModule.symlinkSync(target, full);
		}
		return real;
	};
	return () => {
		api.native = original;
	};
}

describe("a folder swapped for a link between its check and the write (review of issue 27, M1)", () => {
	const IN = BOX(B, "inbox");
	const OUT = BOX(A, "outbox");

	it("create: refused, nothing left outside the vault nor in the inbox", async () => {
		await v.write(`${IN}/.keep`, "");
		const vault = new NodeVault(v.dir);
		const restore = swapAfterCheck(IN, outside);
		try {
			await expect(vault.create(`${IN}/note.md`, "---\nid: 1\n---\n")).rejects.toThrow(/outside the vault/);
		} finally {
			restore();
		}
		expect(await fs.readdir(outside)).toEqual([]);
		expect(await fs.readdir(path.join(v.dir, `${IN}-away`))).toEqual([".keep"]);
	});

	it("move: refused, the note stays in its outbox and no name of it is left outside", async () => {
		await v.write(`${IN}/.keep`, "");
		await v.write(`${OUT}/note.md`, "hello");
		const vault = new NodeVault(v.dir);
		const restore = swapAfterCheck(IN, outside);
		try {
			await expect(vault.move(`${OUT}/note.md`, `${IN}/note.md`)).rejects.toThrow(/outside the vault/);
		} finally {
			restore();
		}
		expect(await fs.readdir(outside)).toEqual([]);
		expect(await v.read(`${OUT}/note.md`)).toBe("hello");
	});

	it("replace: refused, the new text is not left outside the vault", async () => {
		await v.write(`${IN}/note.md`, "old");
		const vault = new NodeVault(v.dir);
		const read = await vault.read(`${IN}/note.md`);
		const restore = swapAfterCheck(IN, outside);
		try {
			await expect(vault.replace(`${IN}/note.md`, "new", read as NonNullable<typeof read>)).rejects.toThrow(/outside the vault/);
		} finally {
			restore();
		}
		expect(await fs.readdir(outside)).toEqual([]);
		expect(await fs.readFile(path.join(v.dir, `${IN}-away`, "note.md"), "utf8")).toBe("old");
	});

	it("the router: the delivery is not reported, the request stays in its outbox, nothing lands outside", async () => {
		await v.write(`${IN}/.keep`, "");
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "race-1", target_group: B }));
		const r = new Router(new NodeVault(v.dir));
		await r.loadRegistry();
		await r.indexSync.rescan();
		const restore = swapAfterCheck(IN, outside);
		let decisions: { outcome: string }[] = [];
		try {
			decisions = (await r.pass()).decisions;
		} catch {
			// A refusal may surface as the pass's error: what counts is what is on disk.
		} finally {
			restore();
		}
		expect(decisions.some((d) => d.outcome === "delivered")).toBe(false);
		expect(await fs.readdir(outside)).toEqual([]);
		expect(await v.files(OUT)).toEqual([`${OUT}/ask.md`]);
	});
});
