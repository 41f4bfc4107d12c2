import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isDiskError, type Disk } from "../../test-support/fake-obsidian/disk";
import { MemoryDisk } from "../../test-support/fake-obsidian/memory-disk";
import { NodeDisk } from "../../test-support/fake-obsidian/node-disk";

const tempDirs: string[] = [];

afterAll(async () => {
	for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

const makers: Array<[string, () => Promise<Disk>]> = [
	["MemoryDisk", async () => new MemoryDisk("vault")],
	[
		"NodeDisk",
		async () => {
			const dir = await mkdtemp(join(tmpdir(), "fake-obsidian-disk-"));
			tempDirs.push(dir);
			return new NodeDisk(dir, "vault");
		},
	],
];

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
	try {
		await p;
		return undefined;
	} catch (error) {
		return isDiskError(error) ? error.code : `not a disk error: ${String(error)}`;
	}
}

describe.each(makers)("%s (shared Disk contract)", (_name, make) => {
	it("writes and reads back text, creating parent folders", async () => {
		const disk = await make();
		await disk.write("a/b/note.md", "héllo\n");
		expect(await disk.read("a/b/note.md")).toBe("héllo\n");
		expect((await disk.stat("a"))?.type).toBe("folder");
		expect(await disk.exists("a/b")).toBe(true);
		expect(disk.name).toBe("vault");
	});

	it("writes and reads back bytes exactly (not UTF-8), with their byte size", async () => {
		const disk = await make();
		const bytes = Uint8Array.from([0xff, 0xd8, 0x00, 0x10, 0xc3]);
		await disk.write("img/photo.jpg", bytes);
		expect([...(await disk.readBytes("img/photo.jpg"))]).toEqual([...bytes]);
		expect((await disk.stat("img/photo.jpg"))?.size).toBe(5);
		await disk.write("t.md", "é");
		expect([...(await disk.readBytes("t.md"))]).toEqual([0xc3, 0xa9]);
	});

	it("reports stat for files (byte size) and folders, null when missing", async () => {
		const disk = await make();
		await disk.write("x.md", "héllo");
		const st = await disk.stat("x.md");
		expect(st?.type).toBe("file");
		expect(st?.size).toBe(6);
		expect(st?.mtime).toBeGreaterThan(0);
		expect(await disk.stat("nope.md")).toBeNull();
		expect((await disk.stat(""))?.type).toBe("folder");
	});

	it("honours an explicit mtime", async () => {
		const disk = await make();
		await disk.write("t.md", "x", { mtime: 1_600_000_000_000 });
		expect((await disk.stat("t.md"))?.mtime).toBe(1_600_000_000_000);
	});

	it("lists direct children with full paths, hidden entries included", async () => {
		const disk = await make();
		await disk.write("f/one.md", "1");
		await disk.write("f/.hidden", "h");
		await disk.write("f/sub/two.md", "2");
		await disk.write("root.md", "r");
		expect(await disk.list("f")).toEqual({ files: ["f/.hidden", "f/one.md"], folders: ["f/sub"] });
		const root = await disk.list("/");
		expect(root.files).toEqual(["root.md"]);
		expect(root.folders).toEqual(["f"]);
		expect(await codeOf(disk.list("missing"))).toBe("ENOENT");
		expect(await codeOf(disk.list("root.md"))).toBe("ENOTDIR");
	});

	it("appends, creating the file when missing", async () => {
		const disk = await make();
		await disk.append("log.md", "a");
		await disk.append("log.md", "b");
		expect(await disk.read("log.md")).toBe("ab");
	});

	it("renames files and folders without ever overwriting", async () => {
		const disk = await make();
		await disk.write("a.md", "A");
		await disk.write("b.md", "B");
		expect(await codeOf(disk.rename("a.md", "b.md"))).toBe("EEXIST");
		expect(await disk.read("b.md")).toBe("B");
		expect(await codeOf(disk.rename("a.md", "nofolder/a.md"))).toBe("ENOENT");
		expect(await codeOf(disk.rename("ghost.md", "c.md"))).toBe("ENOENT");
		await disk.rename("a.md", "c.md");
		expect(await disk.exists("a.md")).toBe(false);
		expect(await disk.read("c.md")).toBe("A");
		await disk.write("dir/inner/x.md", "X");
		await disk.mkdir("dest");
		await disk.rename("dir", "dest/moved");
		expect(await disk.read("dest/moved/inner/x.md")).toBe("X");
		expect(await disk.exists("dir")).toBe(false);
	});

	it("removes files and folders with the right errors", async () => {
		const disk = await make();
		await disk.write("d/x.md", "x");
		expect(await codeOf(disk.remove("d"))).toBe("EISDIR");
		expect(await codeOf(disk.rmdir("d", false))).toBe("ENOTEMPTY");
		expect(await codeOf(disk.remove("missing.md"))).toBe("ENOENT");
		await disk.remove("d/x.md");
		expect(await disk.exists("d/x.md")).toBe(false);
		await disk.rmdir("d", false);
		expect(await disk.exists("d")).toBe(false);
		await disk.write("e/f/g.md", "g");
		await disk.rmdir("e", true);
		expect(await disk.exists("e")).toBe(false);
	});

	it("reads of missing files fail with ENOENT, mkdir is idempotent", async () => {
		const disk = await make();
		expect(await codeOf(disk.read("missing.md"))).toBe("ENOENT");
		await disk.mkdir("m/n");
		await disk.mkdir("m/n");
		expect((await disk.stat("m/n"))?.type).toBe("folder");
		await disk.write("file.md", "");
		expect(await codeOf(disk.mkdir("file.md"))).toBe("EEXIST");
	});
});
