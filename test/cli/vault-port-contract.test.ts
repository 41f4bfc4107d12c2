import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { createUnderFreeName } from "../../src/router/free-names";
import { listingDigest, visitedDigest } from "../../src/router/history-digest";
import type { FileInfo, ReadFile, VaultPort } from "../../src/router/vault-port";
import { createTempHost } from "../../test-support/fake-obsidian/node-host";
import type { TempHost } from "../../test-support/fake-obsidian/node-host";
import { MemoryVault } from "../helpers/memory-vault";

// One contract for the vault port, run against its three adapters: the in-memory one the fuzz suite
// uses, the CLI's NodeVault, and the plugin's ObsidianVault over the fake Obsidian. The same script
// of calls gives the same results, call by call.

let dir: string;
let host: TempHost | null = null;
beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-port-"));
});
afterEach(async () => {
	await host?.cleanup();
	host = null;
	await fs.rm(dir, { recursive: true, force: true });
});

/** What a read says, without what differs by adapter (file identities, times). */
const shown = (read: ReadFile | null) => (read ? { text: read.text, size: read.info.size, truncated: read.truncated === true } : null);

async function script(port: VaultPort): Promise<unknown[]> {
	const out: unknown[] = [];
	const step = async (label: string, run: () => Promise<unknown>) => {
		try {
			out.push([label, await run()]);
		} catch {
			out.push([label, "throws"]);
		}
	};
	const note = "---\na: 1\n---\nbody ✓\n";
	await step("read missing", async () => shown(await port.read("A2A/x.md")));
	await step("stat missing", () => port.stat("A2A/x.md"));
	await step("list missing folder", () => port.list("A2A/nope"));
	await step("create", () => port.create("A2A/g/outbox/a.md", note));
	await step("create taken", () => port.create("A2A/g/outbox/a.md", "other"));
	await step("read", async () => shown(await port.read("A2A/g/outbox/a.md")));
	// With maxBytes an adapter may read more (Obsidian reads whole notes), but says the file is longer.
	await step("read the head", async () => {
		const head = await port.read("A2A/g/outbox/a.md", { maxBytes: 4 });
		return { start: head?.text.slice(0, 4), truncated: head?.truncated };
	});
	await step("stat size", async () => (await port.stat("A2A/g/outbox/a.md"))?.size);
	await step("create over a folder", () => port.create("A2A/g/outbox", "x"));
	await step("move missing", () => port.move("A2A/g/outbox/none.md", "A2A/g/inbox/none.md"));
	await step("create b", () => port.create("A2A/g/inbox/b.md", note));
	await step("move onto a taken name", () => port.move("A2A/g/outbox/a.md", "A2A/g/inbox/b.md"));
	await step("move into a new folder", () => port.move("A2A/g/outbox/a.md", "A2A/g/archive/a.md"));
	await step("moved away", async () => shown(await port.read("A2A/g/outbox/a.md")));
	await step("moved here", async () => shown(await port.read("A2A/g/archive/a.md")));
	const before = await port.read("A2A/g/archive/a.md");
	await step("replace", () => port.replace("A2A/g/archive/a.md", note.replace("body", "BODY"), before as ReadFile));
	await step("after replace", async () => shown(await port.read("A2A/g/archive/a.md")));
	await step("replace what changed since it was read", () => port.replace("A2A/g/archive/a.md", "stale", before as ReadFile));
	await step("not replaced", async () => shown(await port.read("A2A/g/archive/a.md")));
	await step("remove what changed since it was read", () => port.remove("A2A/g/archive/a.md", before as ReadFile));
	await step("replace missing", () => port.replace("A2A/g/archive/none.md", "x", before as ReadFile));
	await step("append new", () => port.append("A2A/log/d.md", "line 1\n", "# head\n"));
	await step("append more", () => port.append("A2A/log/d.md", "line 2\n", "# head\n"));
	const log = await port.read("A2A/log/d.md");
	// Another writer (a sync engine bringing another device's log) rewrites it with a row of its own.
	await step("the log rewritten by another writer", () => port.replace("A2A/log/d.md", `${log?.text ?? ""}line 3\n`, log as ReadFile));
	await step("append a line the log holds", () => port.append("A2A/log/d.md", "line 3\n", "# head\n"));
	await step("append after that", () => port.append("A2A/log/d.md", "line 4\n", "# head\n"));
	await step("append to a folder", () => port.append("A2A/log", "line\n", "# head\n"));
	await step("log", async () => shown(await port.read("A2A/log/d.md")));
	const photo = Uint8Array.from([0xff, 0xd8, 0x00, 0x10]);
	await step("createBytes", () => port.createBytes("A2A/g/artifacts/photo.jpg", photo));
	await step("createBytes again, the same bytes", () => port.createBytes("A2A/g/artifacts/photo.jpg", photo.slice()));
	await step("createBytes over other bytes", () => port.createBytes("A2A/g/artifacts/photo.jpg", Uint8Array.from([1, 2])));
	await step("createBytes over a note", () => port.createBytes("A2A/log/d.md", photo));
	await step("bytes size", async () => (await port.stat("A2A/g/artifacts/photo.jpg"))?.size);
	await step("ensureFolder", () => port.ensureFolder("A2A/dead-letter"));
	await step("list", async () => (await port.list("A2A/g/inbox")).sort());
	await step("list empty folder", () => port.list("A2A/dead-letter"));
	// listInfo (optional) says of each file of a folder, in list's order, what stat says of it.
	for (const folder of ["A2A/g/inbox", "A2A/dead-letter", "A2A/nope"]) {
		await step(`listInfo ${folder} is list and stat`, async () => {
			if (!port.listInfo) return "no listInfo";
			const infos = await port.listInfo(folder);
			const paths = await port.list(folder);
			const stats = await Promise.all(paths.map((p) => port.stat(p)));
			// eachFileIn (optional, with listInfo) visits the same files with the same facts, and so gives the same digest.
			const visited: FileInfo[] = [];
			port.eachFileIn?.(folder, (name, facts) => visited.push({ path: `${folder}/${name}`, size: facts.size, mtime: facts.mtime, id: facts.id, changed: facts.changed }));
			const visits = !port.eachFileIn || (JSON.stringify(visited) === JSON.stringify(infos) && visitedDigest((visit) => port.eachFileIn?.(folder, visit)) === listingDigest(folder, infos));
			return infos.map((i) => i.path).join() === paths.join() && JSON.stringify(infos) === JSON.stringify(stats) && visits ? "same" : { infos, stats, visited };
		});
	}
	await step("listRecursive", async () => (await port.listRecursive("A2A")).map((f) => f.path).sort());
	// transfer: the router's delivery (a copy under the first free name, then the note removed if unchanged).
	await step("create t", () => port.create("A2A/g/outbox/t.md", note));
	await step("create the name t takes first", () => port.create("A2A/g/inbox/t.md", "someone else's"));
	const t = await port.read("A2A/g/outbox/t.md");
	const events: string[] = [];
	await step("transfer past a taken name", () =>
		port.transfer(t as ReadFile, "A2A/g/inbox", ["t.md", "t-2.md"], note.replace("a: 1", "a: 1\nstate: delivered"), {
			beforeFinish: async (p, existed) => {
				events.push(`before finish ${p} ${existed}`);
			},
		}),
	);
	await step("what transfer did before it finished", async () => events);
	await step("the note is gone from the outbox", async () => shown(await port.read("A2A/g/outbox/t.md")));
	await step("the copy", async () => shown(await port.read("A2A/g/inbox/t-2.md")));
	await step("the taken name kept", async () => shown(await port.read("A2A/g/inbox/t.md")));
	await step("create u", () => port.create("A2A/g/outbox/u.md", note));
	const u = await port.read("A2A/g/outbox/u.md");
	await step("u rewritten after it was read", () => port.replace("A2A/g/outbox/u.md", note.replace("body", "new body"), u as ReadFile));
	await step("transfer of a note changed since it was read", () => port.transfer(u as ReadFile, "A2A/g/inbox", ["u.md"], note));
	await step("nothing written for u", async () => shown(await port.read("A2A/g/inbox/u.md")));
	await step("u stays as rewritten", async () => shown(await port.read("A2A/g/outbox/u.md")));
	// A writer's new note under the first free name (NodeVault writes it once and links it to each name in turn).
	await step("create n", () => port.create("A2A/g/outbox/n.md", "taken"));
	await step("create n-1", () => port.create("A2A/g/outbox/n-1.md", "taken too"));
	await step("create under the first free name, past two taken", () => createUnderFreeName(port, "A2A/g/outbox", "n.md", note));
	await step("the note under its name", async () => shown(await port.read("A2A/g/outbox/n-2.md")));
	await step("the taken names kept", async () => [shown(await port.read("A2A/g/outbox/n.md")), shown(await port.read("A2A/g/outbox/n-1.md"))]);
	await step("create under the first free name in a new folder", () => createUnderFreeName(port, "A2A/g/new", "n.md", note, "id-1"));
	await step("no temporary file left", async () => (await port.list("A2A/g/outbox")).filter((p) => p.includes("/.")));
	const current = await port.read("A2A/g/archive/a.md");
	await step("remove", () => port.remove("A2A/g/archive/a.md", current as ReadFile));
	await step("removed", async () => shown(await port.read("A2A/g/archive/a.md")));
	await step("remove missing", () => port.remove("A2A/g/archive/a.md"));
	return out;
}

async function obsidianPort(): Promise<ObsidianVault> {
	host = await createTempHost({ prefix: "a2a-port-obsidian-" });
	await host.loadVault();
	await host.setLayoutReady();
	return new ObsidianVault(host.app as never);
}

/** ObsidianVault over a started host, with one note created at `path`, and the host's vault (its reads to wrap). */
async function obsidianPortWithNote(path: string, text: string): Promise<{ port: ObsidianVault; vault: TempHost["app"]["vault"] }> {
	const port = await obsidianPort();
	if (!host) throw new Error("the Obsidian host did not start");
	expect(await port.create(path, text)).toBe(true);
	return { port, vault: host.app.vault };
}

describe("the vault port contract", () => {
	it("ObsidianVault reads a note again when Obsidian updated its facts while it was read: the facts given are the text's", async () => {
		const { port, vault } = await obsidianPortWithNote("A2A/g/archive/a.md", "---\nmessage_id: a\n---\nfirst\n");
		const read = vault.read.bind(vault);
		const reads: string[] = [];
		let rewrites = 1;
		vault.read = async (file) => {
			const text = await read(file);
			reads.push(text);
			// Another writer's change, which Obsidian has taken in (its stat updated) by the time this read returns.
			if (rewrites-- > 0) await vault.modify(file, "---\nmessage_id: a2\n---\nrewritten, and longer\n");
			return text;
		};
		const got = await port.read("A2A/g/archive/a.md");
		// Read again (a third time when Obsidian's watcher updates the stat once more during the second read).
		expect(reads.length).toBeGreaterThanOrEqual(2);
		expect(got?.text).toBe("---\nmessage_id: a2\n---\nrewritten, and longer\n");
		expect(got?.info.size).toBe(Buffer.byteLength(got?.text ?? ""));
	});

	it("ObsidianVault tells a read as unsettled when the note changed during every attempt, and only then", async () => {
		const { port, vault } = await obsidianPortWithNote("A2A/g/archive/b.md", "---\nmessage_id: b\n---\nfirst\n");
		const read = vault.read.bind(vault);
		let reads = 0;
		vault.read = async (file) => {
			const text = await read(file);
			// A writer that does not stop: by the end of each read, Obsidian has taken in another change
			// (its stat moved on; the text it gave is older).
			reads++;
			file.stat = { ...file.stat, size: file.stat.size + 1, mtime: file.stat.mtime + 1 };
			return text;
		};
		const got = await port.read("A2A/g/archive/b.md");
		// Three attempts at least (the app's own readers may read the note meanwhile too).
		expect(reads).toBeGreaterThanOrEqual(3);
		expect(got?.unsettled).toBe(true);
		expect(got?.info.size).not.toBe(Buffer.byteLength(got?.text ?? ""));
		vault.read = read;
		const calm = await port.read("A2A/g/archive/b.md");
		expect(calm?.unsettled).toBeUndefined();
	});

	it("MemoryVault, NodeVault and ObsidianVault give the same result for every call of a script", async () => {
		const memory = await script(new MemoryVault());
		const disk = await script(new NodeVault(dir));
		const obsidian = await script(await obsidianPort());
		// The Obsidian adapter and the Node vault tell a folder's file facts in one call (the memory vault says it cannot).
		const withoutListInfo = (out: unknown[]) => out.filter((s) => !String((s as [string])[0]).startsWith("listInfo"));
		for (const port of [obsidian, disk]) expect(port.filter((s) => String((s as [string])[0]).startsWith("listInfo"))).toEqual(["A2A/g/inbox", "A2A/dead-letter", "A2A/nope"].map((f) => [`listInfo ${f} is list and stat`, "same"]));
		expect(memory.filter((s) => String((s as [string])[0]).startsWith("listInfo")).map((s) => (s as [string, string])[1])).toEqual(["no listInfo", "no listInfo", "no listInfo"]);
		expect(withoutListInfo(disk)).toEqual(withoutListInfo(memory));
		expect(withoutListInfo(obsidian)).toEqual(withoutListInfo(memory));
		// And the script did exercise the edges it names.
		expect(memory).toContainEqual(["move onto a taken name", "exists"]);
		expect(memory).toContainEqual(["replace what changed since it was read", "changed"]);
		expect(memory).toContainEqual(["remove what changed since it was read", "changed"]);
		expect(memory).toContainEqual(["read the head", { start: "---\n", truncated: true }]);
		expect(memory).toContainEqual(["append a line the log holds", "present"]);
		expect(memory).toContainEqual(["transfer past a taken name", { path: "A2A/g/inbox/t-2.md", existed: false }]);
		expect(memory).toContainEqual(["what transfer did before it finished", ["before finish A2A/g/inbox/t-2.md false"]]);
		expect(memory).toContainEqual(["transfer of a note changed since it was read", "changed"]);
		expect(memory).toContainEqual(["log", { text: "# head\nline 1\nline 2\nline 3\nline 4\n", size: 35, truncated: false }]);
	});

	it("NodeVault and MemoryVault, which copy a note and then remove it, finish a transfer that a stop left half done (the copy is there)", async () => {
		const note = "---\na: 1\n---\nbody\n";
		for (const port of [new MemoryVault(), new NodeVault(dir)]) {
			await port.create("A2A/g/outbox/v.md", note);
			await port.create("A2A/g/inbox/v.md", note);
			const v = (await port.read("A2A/g/outbox/v.md")) as ReadFile;
			expect(await port.transfer(v, "A2A/g/inbox", ["v.md", "v-2.md"], note, { isEarlierCopy: (text) => text === note })).toEqual({ path: "A2A/g/inbox/v.md", existed: true });
			expect(await port.read("A2A/g/outbox/v.md")).toBeNull();
			expect(await port.list("A2A/g/inbox")).toEqual(["A2A/g/inbox/v.md"]);
		}
	});

	it("NodeVault and MemoryVault refuse any path with a '..' segment, and take a backslash as part of a name", async () => {
		for (const port of [new MemoryVault(), new NodeVault(dir)]) {
			await expect(port.read("../outside.md")).rejects.toThrow(/outside the vault/);
			await expect(port.create("A2A/../../outside.md", "x")).rejects.toThrow(/outside the vault/);
			expect(await port.create("A2A/g/outbox/x\\..\\..\\planted.md", "x")).toBe(true);
			expect(await port.list("A2A/g/outbox")).toEqual(["A2A/g/outbox/x\\..\\..\\planted.md"]);
		}
		expect(await fs.readdir(path.join(dir, "A2A/g/outbox"))).toEqual(["x\\..\\..\\planted.md"]);
	});

	it("NodeVault.abs joins a plain path as it is and tidies any other, refusing a '..' segment", () => {
		const port = new NodeVault(dir);
		const abs = (p: string) => {
			try {
				return path.relative(dir, port.abs(p)).split(path.sep).join("/");
			} catch {
				return "refused";
			}
		};
		const cases: [string, string][] = [
			["A2A/groups/g/inbox/x.md", "A2A/groups/g/inbox/x.md"],
			["A2A//g/./x.md", "A2A/g/x.md"],
			["/A2A/x.md/", "A2A/x.md"],
			["A2A/.hidden/...", "A2A/.hidden/..."],
			["A2A/..x/x..", "A2A/..x/x.."],
			["A2A/../x.md", "refused"],
			["..", "refused"],
			["", ""],
		];
		for (const [given, expected] of cases) expect(abs(given), given).toBe(expected);
	});

	it("NodeVault.createBytes never follows a link that holds the name: it is taken, whatever the file it leads to holds", async () => {
		const outside = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-outside-"));
		try {
			await fs.writeFile(path.join(outside, "secret.bin"), Buffer.from([1, 2, 3]));
			await fs.mkdir(path.join(dir, "A2A/g/artifacts"), { recursive: true });
			await fs.symlink(path.join(outside, "secret.bin"), path.join(dir, "A2A/g/artifacts/link.bin"));
			const port = new NodeVault(dir);
			expect(await port.createBytes("A2A/g/artifacts/link.bin", Uint8Array.from([1, 2, 3]))).toBe("taken");
			expect(await port.createBytes("A2A/g/artifacts/link.bin", Uint8Array.from([9]))).toBe("taken");
			expect([...(await fs.readFile(path.join(outside, "secret.bin")))]).toEqual([1, 2, 3]);
		} finally {
			await fs.rm(outside, { recursive: true, force: true });
		}
	});
});

/** Races two moves to one name `rounds` times; returns what the moves said and the files left. */
async function raceMoves(port: VaultPort, rounds: number): Promise<{ moved: number; exists: number; files: number }> {
	let moved = 0;
	let exists = 0;
	for (let i = 0; i < rounds; i++) {
		await port.create(`A2A/g/outbox/a${i}.md`, `a ${i}`);
		await port.create(`A2A/g/outbox/b${i}.md`, `b ${i}`);
		const results = await Promise.all([port.move(`A2A/g/outbox/a${i}.md`, `A2A/g/inbox/n${i}.md`), port.move(`A2A/g/outbox/b${i}.md`, `A2A/g/inbox/n${i}.md`)]);
		moved += results.filter((r) => r === "moved").length;
		exists += results.filter((r) => r === "exists").length;
	}
	const files = (await port.list("A2A/g/inbox")).length + (await port.list("A2A/g/outbox")).length;
	return { moved, exists, files };
}

describe("moves never overwrite (issue 10, item 5)", () => {
	it("NodeVault finishes a move that a stop left between its link and its unlink (both names one file), and still refuses another file there", async () => {
		const port = new NodeVault(dir);
		await port.create("A2A/g/inbox/a.md", "the note");
		await port.create("A2A/g/inbox/b.md", "another note");
		await fs.mkdir(path.join(dir, "A2A/g/archive"), { recursive: true });
		await fs.link(path.join(dir, "A2A/g/inbox/a.md"), path.join(dir, "A2A/g/archive/a.md"));
		expect(await port.move("A2A/g/inbox/a.md", "A2A/g/archive/a.md")).toBe("moved");
		expect((await fs.readdir(path.join(dir, "A2A/g/inbox"))).sort()).toEqual(["b.md"]);
		expect(await fs.readFile(path.join(dir, "A2A/g/archive/a.md"), "utf8")).toBe("the note");
		expect(await port.move("A2A/g/inbox/b.md", "A2A/g/archive/a.md")).toBe("exists");
		expect(await fs.readFile(path.join(dir, "A2A/g/archive/a.md"), "utf8")).toBe("the note");
		expect(await fs.readFile(path.join(dir, "A2A/g/inbox/b.md"), "utf8")).toBe("another note");
	});

	it("two moves to one name, raced a thousand times in one app: one moves, one is told the name is taken, both notes survive", async () => {
		for (const port of [new MemoryVault(), await obsidianPort()]) {
			expect(await raceMoves(port, 1000)).toEqual({ moved: 1000, exists: 1000, files: 2000 });
		}
	});

	it("NodeVault in two processes, moving notes to the same thousand names at once, loses none", async () => {
		const { spawn } = await import("node:child_process");
		const { buildSync } = await import("esbuild");
		const bundle = path.join(dir, "node-vault.cjs");
		buildSync({ entryPoints: [path.resolve("node/node-vault.ts")], bundle: true, platform: "node", format: "cjs", outfile: bundle, logLevel: "silent" });
		const vault = path.join(dir, "vault");
		const script = `
			const { NodeVault } = require(process.argv[1]);
			(async () => {
				const port = new NodeVault(process.argv[2]), who = process.argv[3];
				const seen = { moved: 0, exists: 0 };
				for (let i = 0; i < 1000; i++) {
					await port.create("A2A/g/outbox/" + who + i + ".md", who + " " + i);
					seen[await port.move("A2A/g/outbox/" + who + i + ".md", "A2A/g/inbox/n" + i + ".md")]++;
				}
				process.stdout.write(JSON.stringify(seen));
			})();
		`;
		const run = (who: string) =>
			new Promise<{ moved: number; exists: number }>((resolve, reject) => {
				const child = spawn(process.execPath, ["-e", script, bundle, vault, who], { stdio: ["ignore", "pipe", "inherit"] });
				let out = "";
				child.stdout.on("data", (d: Buffer) => (out += d.toString()));
				child.on("error", reject);
				child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as { moved: number; exists: number }) : reject(new Error(`racer exited ${code}`))));
			});
		const [a, b] = await Promise.all([run("a"), run("b")]);
		expect(a.moved + b.moved).toBe(1000);
		expect(a.exists + b.exists).toBe(1000);
		const inbox = await fs.readdir(path.join(vault, "A2A/g/inbox"));
		const outbox = await fs.readdir(path.join(vault, "A2A/g/outbox"));
		expect(inbox).toHaveLength(1000);
		expect(outbox).toHaveLength(1000);
	});
});
