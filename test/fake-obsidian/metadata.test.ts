import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import type { CachedMetadata, TFile } from "../../test-support/fake-obsidian/index";
import { memoryHost } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	await host?.dispose();
	host = undefined;
});

const NOTE = "---\ntitle: Hello\ncount: 3\n---\n# Top\n\nText [[other]] and #tag\n\n## Sub ##\n```\n# not a heading\n```\n";

describe("metadata cache", () => {
	it("fills at load without 'changed' and fires 'resolved'", async () => {
		host = memoryHost({ "n.md": NOTE, "data.json": "{}" });
		const log: string[] = [];
		host.fakeApp.metadataCache.on("changed", (file) => log.push(`changed ${file.path}`));
		host.fakeApp.metadataCache.on("resolved", () => log.push("resolved"));
		await host.loadVault();
		expect(log).toEqual(["resolved"]);
		const cache = host.fakeApp.metadataCache.getFileCache(host.fakeApp.vault.getFileByPath("n.md") as TFile);
		expect(cache?.frontmatter).toEqual({ title: "Hello", count: 3 });
		expect(cache?.frontmatterPosition?.start.line).toBe(0);
		expect(cache?.frontmatterPosition?.end.line).toBe(3);
		expect(cache?.headings?.map((h) => [h.heading, h.level, h.position.start.line])).toEqual([
			["Top", 1, 4],
			["Sub", 2, 8],
		]);
		expect(cache?.links?.map((l) => l.link)).toEqual(["other"]);
		expect(cache?.tags?.map((t) => t.tag)).toEqual(["#tag"]);
		expect(host.fakeApp.metadataCache.getCache("data.json")).toBeNull();
	});

	it("updates asynchronously after the vault event: create → 'changed' → 'resolved'", async () => {
		host = memoryHost();
		await host.loadVault();
		const { vault, metadataCache } = host.fakeApp;
		const log: string[] = [];
		vault.on("create", (file) => log.push(`vault create ${file.path} cache=${metadataCache.getCache(file.path) ? "yes" : "no"}`));
		metadataCache.on("changed", (file, data, cache: CachedMetadata) =>
			log.push(`changed ${file.path} ${data.length} ${String(cache.frontmatter?.count)}`),
		);
		metadataCache.on("resolved", () => log.push("resolved"));
		const file = await vault.create("new.md", NOTE);
		expect(metadataCache.getFileCache(file)).toBeNull();
		await host.settled();
		expect(log).toEqual(["vault create new.md cache=no", `changed new.md ${NOTE.length} 3`, "resolved"]);
		await vault.modify(file, "# Changed\n");
		await host.settled();
		expect(metadataCache.getFileCache(file)?.headings?.[0]?.heading).toBe("Changed");
		expect(metadataCache.getFileCache(file)?.frontmatter).toBeUndefined();
	});

	it("follows a rename without firing 'changed'", async () => {
		host = memoryHost({ "a.md": NOTE });
		await host.loadVault();
		const { vault, metadataCache } = host.fakeApp;
		const changed: string[] = [];
		metadataCache.on("changed", (file) => changed.push(file.path));
		const file = vault.getFileByPath("a.md") as TFile;
		await vault.rename(file, "b.md");
		expect(metadataCache.getFileCache(file)?.frontmatter?.title).toBe("Hello");
		expect(metadataCache.getCache("a.md")).toBeNull();
		await host.settled();
		expect(changed).toEqual([]);
		expect(metadataCache.getCache("b.md")?.frontmatter?.count).toBe(3);
	});

	it("drops the entry on delete and fires 'deleted' with the previous cache", async () => {
		host = memoryHost({ "a.md": NOTE });
		await host.loadVault();
		const { vault, metadataCache } = host.fakeApp;
		const deleted: Array<[string, unknown]> = [];
		metadataCache.on("deleted", (file, prev) => deleted.push([file.path, prev?.frontmatter?.title]));
		await vault.delete(vault.getFileByPath("a.md") as TFile);
		await host.settled();
		expect(deleted).toEqual([["a.md", "Hello"]]);
		expect(metadataCache.getCache("a.md")).toBeNull();
	});

	it("keeps a note with invalid YAML without frontmatter", async () => {
		host = memoryHost({ "bad.md": "---\na: [1, 2\n---\nbody\n" });
		await host.loadVault();
		const cache = host.fakeApp.metadataCache.getCache("bad.md");
		expect(cache).not.toBeNull();
		expect(cache?.frontmatter).toBeUndefined();
		expect(cache?.frontmatterPosition).toBeDefined();
	});

	it("resolves links like Obsidian: exact, relative, then by name", async () => {
		host = memoryHost({ "x/target.md": "", "y/target.md": "", "x/src.md": "", "z/unique.md": "" });
		await host.loadVault();
		const mc = host.fakeApp.metadataCache;
		expect(mc.getFirstLinkpathDest("target", "x/src.md")?.path).toBe("x/target.md");
		expect(mc.getFirstLinkpathDest("y/target", "x/src.md")?.path).toBe("y/target.md");
		expect(mc.getFirstLinkpathDest("unique#Heading", "x/src.md")?.path).toBe("z/unique.md");
		expect(mc.getFirstLinkpathDest("nothing", "x/src.md")).toBeNull();
	});
});

describe("processFrontMatter", () => {
	it("keeps the body byte for byte and preserves number types", async () => {
		const body = "# Title\r\n\r\n---\nnot frontmatter\n---\ntrailing spaces   \n\n";
		host = memoryHost({ "n.md": `---\ncount: 3\nratio: 0.5\nname: x\ntags:\n  - a\n---\n${body}` });
		await host.loadVault();
		const file = host.fakeApp.vault.getFileByPath("n.md") as TFile;
		const seen: unknown[] = [];
		await host.fakeApp.fileManager.processFrontMatter(file, (fm) => {
			seen.push(typeof fm.count, typeof fm.ratio, fm.tags);
			fm.count = (fm.count as number) + 1;
			fm.status = "done";
		});
		expect(seen).toEqual(["number", "number", ["a"]]);
		const text = await host.read("n.md");
		expect(text.endsWith(`---\n${body}`)).toBe(true);
		expect(text.slice(text.length - body.length)).toBe(body);
		expect(text).toContain("count: 4\n");
		expect(text).toContain("ratio: 0.5\n");
		expect(text).toContain("status: done\n");
		await host.settled();
		expect(host.fakeApp.metadataCache.getFileCache(file)?.frontmatter?.count).toBe(4);
	});

	it("adds a block to a note without one, and removes the block when emptied", async () => {
		host = memoryHost({ "n.md": "just text\n" });
		await host.loadVault();
		const file = host.fakeApp.vault.getFileByPath("n.md") as TFile;
		let received: unknown;
		await host.fakeApp.fileManager.processFrontMatter(file, (fm) => {
			received = { ...fm };
			fm.id = 7;
		});
		expect(received).toEqual({});
		expect(await host.read("n.md")).toBe("---\nid: 7\n---\njust text\n");
		await host.fakeApp.fileManager.processFrontMatter(file, (fm) => {
			delete fm.id;
		});
		expect(await host.read("n.md")).toBe("just text\n");
	});

	it("throws on invalid YAML (and on an async callback) without writing", async () => {
		const bad = "---\nkey: [unclosed\n---\nbody\n";
		host = memoryHost({ "bad.md": bad, "ok.md": "---\na: 1\n---\n" });
		await host.loadVault();
		const { fileManager, vault } = host.fakeApp;
		let called = false;
		await expect(
			fileManager.processFrontMatter(vault.getFileByPath("bad.md") as TFile, () => {
				called = true;
			}),
		).rejects.toThrow();
		expect(called).toBe(false);
		expect(await host.read("bad.md")).toBe(bad);
		const asyncFn = (async () => undefined) as unknown as (fm: Record<string, unknown>) => void;
		await expect(fileManager.processFrontMatter(vault.getFileByPath("ok.md") as TFile, asyncFn)).rejects.toThrow(/synchronous/);
		expect(await host.read("ok.md")).toBe("---\na: 1\n---\n");
	});
});

describe("FileManager", () => {
	it("renameFile moves, trashFile deletes, generateMarkdownLink makes a wikilink", async () => {
		host = memoryHost({ "a.md": "A", "dir/b.md": "B" });
		await host.loadVault();
		const { fileManager, vault } = host.fakeApp;
		const a = vault.getFileByPath("a.md") as TFile;
		await fileManager.renameFile(a, "dir/a2.md");
		expect(a.path).toBe("dir/a2.md");
		expect(fileManager.generateMarkdownLink(a, "x.md")).toBe("[[a2]]");
		expect(fileManager.generateMarkdownLink(a, "x.md", "#H", "alias")).toBe("[[a2#H|alias]]");
		await fileManager.trashFile(vault.getFileByPath("dir/b.md") as TFile);
		expect(await host.exists("dir/b.md")).toBe(false);
		expect(fileManager.trashed).toEqual(["dir/b.md"]);
	});
});
