import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { normalizePath, TFile, TFolder } from "../../test-support/fake-obsidian/index";
import { createTempHost, type TempHost } from "../../test-support/fake-obsidian/node-host";
import { memoryHost, recordVaultEvents } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	if (host && "cleanup" in host) await (host as TempHost).cleanup();
	else await host?.dispose();
	host = undefined;
});

describe("startup order", () => {
	it("fires 'create' for every existing file and folder while the vault loads, before layout ready", async () => {
		host = await createTempHost({
			files: { "a.md": "A", "f/b.md": "B", ".obsidian/app.json": "{}", ".hidden/c.md": "C", "f/.dot.md": "D" },
		});
		const log: string[] = [];
		host.fakeApp.vault.on("create", (file) => log.push(`create ${file.path}`));
		host.fakeApp.workspace.onLayoutReady(() => log.push("layout ready"));
		await host.loadVault();
		expect(host.fakeApp.workspace.layoutReady).toBe(false);
		expect(log.sort()).toEqual(["create a.md", "create f", "create f/b.md"]);
		await host.setLayoutReady();
		expect(log[log.length - 1]).toBe("layout ready");
		expect(host.fakeApp.workspace.layoutReady).toBe(true);
	});

	it("runs a late onLayoutReady callback asynchronously", async () => {
		host = memoryHost();
		await host.loadVault();
		await host.setLayoutReady();
		let ran = false;
		host.fakeApp.workspace.onLayoutReady(() => {
			ran = true;
		});
		expect(ran).toBe(false);
		await host.settled();
		expect(ran).toBe(true);
	});
});

describe("vault events", () => {
	it("are delivered asynchronously, never inside the call, before the operation resolves", async () => {
		host = memoryHost();
		await host.loadVault();
		let insideCall = false;
		const seen: Array<{ path: string; insideCall: boolean }> = [];
		host.fakeApp.vault.on("create", (file) => seen.push({ path: file.path, insideCall }));
		insideCall = true;
		const pending = host.fakeApp.vault.create("n.md", "x");
		insideCall = false;
		expect(seen).toEqual([]);
		await pending;
		expect(seen).toEqual([{ path: "n.md", insideCall: false }]);
	});

	it("fire create/modify/delete/rename with Obsidian's arguments", async () => {
		host = memoryHost();
		await host.loadVault();
		const events = recordVaultEvents(host);
		const vault = host.fakeApp.vault;
		const file = await vault.create("x.md", "1");
		await vault.modify(file, "2");
		await vault.append(file, "3");
		await vault.rename(file, "y.md");
		await vault.delete(file);
		await host.settled();
		expect(events).toEqual([
			{ name: "create", path: "x.md" },
			{ name: "modify", path: "x.md" },
			{ name: "modify", path: "x.md" },
			{ name: "rename", path: "y.md", oldPath: "x.md" },
			{ name: "delete", path: "y.md" },
		]);
	});

	it("never fire for dot-files or anything in dot-folders, which are only reachable through the adapter", async () => {
		host = memoryHost({ ".obsidian/app.json": "{}", "visible.md": "v" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const { vault } = host.fakeApp;
		await vault.adapter.write(".obsidian/plugins/p/data.json", "{}");
		await vault.adapter.write(".hidden/note.md", "h");
		await vault.adapter.write(".dotfile", "d");
		await host.externalWrite(".hidden/other.md", "o");
		await host.externalWrite("folder/.dot.md", "o");
		await expect(vault.create(".nope.md", "")).rejects.toThrow(/adapter/);
		await expect(vault.create(".obsidian/x.md", "")).rejects.toThrow(/adapter/);
		await host.settled();
		expect(events.filter((e) => e.path.includes(".") && !e.path.endsWith("visible.md") && e.path !== "folder")).toEqual([]);
		expect(vault.getAbstractFileByPath(".obsidian")).toBeNull();
		expect(vault.getAbstractFileByPath(".hidden/note.md")).toBeNull();
		expect(vault.getAllLoadedFiles().map((f) => f.path)).not.toContain("folder/.dot.md");
		expect(vault.getFiles().map((f) => f.path)).toEqual(["visible.md"]);
		expect(await vault.adapter.read(".hidden/note.md")).toBe("h");
		expect(await vault.adapter.exists(".dotfile")).toBe(true);
		expect((await vault.adapter.list(".obsidian")).folders).toEqual([".obsidian/plugins"]);
	});

	it("adapter writes to visible paths are noticed by the watcher later, like Obsidian's", async () => {
		host = memoryHost();
		await host.loadVault();
		const events = recordVaultEvents(host);
		await host.fakeApp.vault.adapter.write("from-adapter.md", "x");
		expect(events).toEqual([]);
		expect(host.fakeApp.vault.getAbstractFileByPath("from-adapter.md")).toBeNull();
		await host.settled();
		expect(events).toEqual([{ name: "create", path: "from-adapter.md" }]);
	});
});

describe("create / createFolder / rename / delete", () => {
	it("create throws 'File already exists.' and creates missing parent folders (each firing create)", async () => {
		host = memoryHost({ "a.md": "A" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const { vault } = host.fakeApp;
		await expect(vault.create("a.md", "again")).rejects.toThrow("File already exists.");
		expect(await host.read("a.md")).toBe("A");
		const deep = await vault.create("p/q/r.md", "R");
		expect(deep).toBeInstanceOf(TFile);
		expect(deep.parent?.path).toBe("p/q");
		expect(deep.parent?.parent?.path).toBe("p");
		expect(deep.parent?.parent?.parent?.isRoot()).toBe(true);
		expect(deep.basename).toBe("r");
		expect(deep.extension).toBe("md");
		expect(deep.stat.size).toBe(1);
		await host.settled();
		expect(events).toEqual([
			{ name: "create", path: "p" },
			{ name: "create", path: "p/q" },
			{ name: "create", path: "p/q/r.md" },
		]);
		await expect(vault.createFolder("p")).rejects.toThrow("Folder already exists.");
		const folder = await vault.createFolder("z");
		expect(folder).toBeInstanceOf(TFolder);
		expect(vault.getFolderByPath("z")?.children).toEqual([]);
	});

	it("createBinary writes the bytes as they are (readBinary gives them back), fires create, and refuses a taken path", async () => {
		host = memoryHost({ "a.md": "A" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const { vault } = host.fakeApp;
		const bytes = Uint8Array.from([0xff, 0xd8, 0x00, 0x10]);
		const file = await vault.createBinary("img/photo.jpg", bytes.slice().buffer);
		expect(file.stat.size).toBe(4);
		expect([...new Uint8Array(await vault.readBinary(file))]).toEqual([...bytes]);
		expect([...new Uint8Array(await vault.adapter.readBinary("img/photo.jpg"))]).toEqual([...bytes]);
		await expect(vault.createBinary("a.md", bytes.slice().buffer)).rejects.toThrow("File already exists.");
		await host.settled();
		expect(events).toEqual([
			{ name: "create", path: "img" },
			{ name: "create", path: "img/photo.jpg" },
		]);
	});

	it("rename throws when the destination exists or its folder is missing, and keeps the TFile identity", async () => {
		host = memoryHost({ "a.md": "A", "b.md": "B" });
		await host.loadVault();
		const { vault } = host.fakeApp;
		const a = host.fakeApp.vault.getFileByPath("a.md") as TFile;
		await expect(vault.rename(a, "b.md")).rejects.toThrow("Destination file already exists!");
		await expect(vault.rename(a, "missing/a.md")).rejects.toThrow(/ENOENT/);
		expect(await host.read("b.md")).toBe("B");
		await vault.rename(a, "c.md");
		expect(a.path).toBe("c.md");
		expect(vault.getFileByPath("c.md")).toBe(a);
		expect(vault.getFileByPath("a.md")).toBeNull();
		expect(await vault.read(a)).toBe("A");
	});

	it("renaming a folder moves its children and fires rename for each", async () => {
		host = memoryHost({ "f/x.md": "X", "f/g/y.md": "Y" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const { vault } = host.fakeApp;
		await vault.createFolder("dest");
		const folder = vault.getFolderByPath("f") as TFolder;
		const y = vault.getFileByPath("f/g/y.md") as TFile;
		await vault.rename(folder, "dest/f2");
		await host.settled();
		expect(y.path).toBe("dest/f2/g/y.md");
		expect(vault.getFileByPath("dest/f2/g/y.md")).toBe(y);
		expect(await host.read("dest/f2/x.md")).toBe("X");
		const renames = events.filter((e) => e.name === "rename");
		expect(renames[0]).toEqual({ name: "rename", path: "dest/f2", oldPath: "f" });
		expect(renames.slice(1)).toEqual(
			expect.arrayContaining([
				{ name: "rename", path: "dest/f2/x.md", oldPath: "f/x.md" },
				{ name: "rename", path: "dest/f2/g", oldPath: "f/g" },
				{ name: "rename", path: "dest/f2/g/y.md", oldPath: "f/g/y.md" },
			]),
		);
		expect(renames.length).toBe(4);
	});

	it("deleting a folder fires delete for its children first; a deleted TFile is stale", async () => {
		host = memoryHost({ "f/x.md": "X", "f/g/y.md": "Y" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const { vault } = host.fakeApp;
		const x = vault.getFileByPath("f/x.md") as TFile;
		await vault.delete(vault.getFolderByPath("f") as TFolder);
		await host.settled();
		const order = events.map((e) => e.path);
		expect(events.every((e) => e.name === "delete")).toBe(true);
		expect([...order].sort()).toEqual(["f", "f/g", "f/g/y.md", "f/x.md"]);
		expect(order[order.length - 1]).toBe("f");
		expect(order.indexOf("f/g/y.md")).toBeLessThan(order.indexOf("f/g"));
		expect(await host.exists("f")).toBe(false);
		await expect(vault.modify(x, "again")).rejects.toThrow(/not in the vault/);
	});

	it("trash(file, false) moves it into the hidden .trash folder and fires delete", async () => {
		host = memoryHost({ "t.md": "T" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		await host.fakeApp.vault.trash(host.fakeApp.vault.getFileByPath("t.md") as TFile, false);
		await host.settled();
		expect(events).toEqual([{ name: "delete", path: "t.md" }]);
		expect(await host.read(".trash/t.md")).toBe("T");
	});
});

describe("process", () => {
	it("is an atomic read-modify-write: concurrent calls never lose an update", async () => {
		host = memoryHost({ "counter.md": "" });
		await host.loadVault();
		const { vault } = host.fakeApp;
		const file = vault.getFileByPath("counter.md") as TFile;
		await Promise.all(Array.from({ length: 40 }, () => vault.process(file, (data) => `${data}x`)));
		expect(await host.read("counter.md")).toBe("x".repeat(40));
	});

	it("calls the callback synchronously with the current content and returns the new content", async () => {
		host = memoryHost({ "n.md": "old" });
		await host.loadVault();
		const { vault } = host.fakeApp;
		const file = vault.getFileByPath("n.md") as TFile;
		await host.externalWrite("n.md", "changed outside");
		const result = await vault.process(file, (data) => data.toUpperCase());
		expect(result).toBe("CHANGED OUTSIDE");
		expect(await host.read("n.md")).toBe("CHANGED OUTSIDE");
	});

	it("rejects an async callback and leaves the file untouched", async () => {
		host = memoryHost({ "n.md": "keep" });
		await host.loadVault();
		const { vault } = host.fakeApp;
		const file = vault.getFileByPath("n.md") as TFile;
		const asyncFn = (async (data: string) => `${data}!`) as unknown as (data: string) => string;
		await expect(vault.process(file, asyncFn)).rejects.toThrow(/synchronous/);
		expect(await host.read("n.md")).toBe("keep");
	});
});

describe("normalizePath", () => {
	it("behaves like Obsidian's", () => {
		expect(normalizePath("")).toBe("/");
		expect(normalizePath("/")).toBe("/");
		expect(normalizePath("//a//b\\\\c/")).toBe("a/b/c");
		expect(normalizePath("a\u00A0b")).toBe("a b");
		expect(normalizePath("cafe\u0301.md")).toBe("caf\u00e9.md");
	});
});

describe("lookups", () => {
	it("getAbstractFileByPath is exact, '/' is the root, listings include folders", async () => {
		host = memoryHost({ "a/b.md": "", "c.txt": "" });
		await host.loadVault();
		const { vault } = host.fakeApp;
		expect(vault.getAbstractFileByPath("/")).toBe(vault.getRoot());
		expect(vault.getAbstractFileByPath("a/")).toBeNull();
		expect(vault.getMarkdownFiles().map((f) => f.path)).toEqual(["a/b.md"]);
		expect(vault.getAllFolders().map((f) => f.path)).toEqual(["a"]);
		expect(vault.getAllFolders(true).length).toBe(2);
		expect(vault.getName()).toBe("Test Vault");
		expect(vault.configDir).toBe(".obsidian");
	});
});
