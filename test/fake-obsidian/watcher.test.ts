import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { TFile } from "../../test-support/fake-obsidian/index";
import { createTempHost, type TempHost } from "../../test-support/fake-obsidian/node-host";
import { memoryHost, recordVaultEvents, sleep } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	if (host && "cleanup" in host) await (host as TempHost).cleanup();
	else await host?.dispose();
	host = undefined;
});

describe("outside writers (the watcher)", () => {
	it("externalWrite changes the disk at once and fires create/modify only later", async () => {
		host = memoryHost({ "old.md": "1" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		await host.externalWrite("new.md", "N");
		await host.externalWrite("old.md", "2");
		expect(await host.read("new.md")).toBe("N");
		expect(events).toEqual([]);
		expect(host.fakeApp.vault.getAbstractFileByPath("new.md")).toBeNull();
		await host.settled();
		expect(events).toEqual([
			{ name: "create", path: "new.md" },
			{ name: "modify", path: "old.md" },
		]);
		expect(host.file("old.md").stat.size).toBe(1);
	});

	it("an external rename arrives as delete + create, never as rename", async () => {
		host = await createTempHost({ files: { "a.md": "A" } });
		await host.loadVault();
		const before = host.file("a.md");
		const events = recordVaultEvents(host);
		await host.externalRename("a.md", "moved/b.md");
		await host.settled();
		expect(events).toEqual([
			{ name: "delete", path: "a.md" },
			{ name: "create", path: "moved" },
			{ name: "create", path: "moved/b.md" },
		]);
		expect(host.file("moved/b.md")).not.toBe(before);
	});

	it("an external folder delete fires delete for everything in it", async () => {
		host = memoryHost({ "f/a.md": "A", "f/b.md": "B" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		await host.externalDelete("f");
		await host.settled();
		expect(events.map((e) => `${e.name} ${e.path}`).sort()).toEqual(["delete f", "delete f/a.md", "delete f/b.md"]);
		expect(host.abstractFile("f")).toBeNull();
	});

	it("rescan() diffs the disk against the tree (same-size edits included)", async () => {
		host = await createTempHost({ files: { "keep.md": "same", "edit.md": "sent", "gone.md": "x" } });
		await host.loadVault();
		const events = recordVaultEvents(host);
		await host.disk.write("edit.md", "read");
		await host.disk.remove("gone.md");
		await host.disk.write("sub/new.md", "n");
		await host.disk.write(".obsidian/ignored.json", "{}");
		await host.rescan();
		expect(events.map((e) => `${e.name} ${e.path}`).sort()).toEqual([
			"create sub",
			"create sub/new.md",
			"delete gone.md",
			"modify edit.md",
		]);
		events.length = 0;
		await host.rescan();
		expect(events).toEqual([]);
	});

	it("the watcher delay is configurable", async () => {
		host = memoryHost({}, { watcherDelayMs: 60 });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const started = Date.now();
		await host.externalWrite("slow.md", "s");
		expect(events).toEqual([]);
		await host.settled();
		expect(Date.now() - started).toBeGreaterThanOrEqual(55);
		expect(events).toEqual([{ name: "create", path: "slow.md" }]);
	});
});

describe("settled()", () => {
	it("waits for promises returned by event handlers (and the work they start)", async () => {
		host = memoryHost();
		await host.loadVault();
		const done: string[] = [];
		host.fakeApp.vault.on("create", async (file) => {
			await sleep(30);
			if (file instanceof TFile) await host?.fakeApp.vault.append(file, " handled");
			done.push(file.path);
		});
		await host.externalWrite("x.md", "x");
		await host.settled();
		expect(done).toEqual(["x.md"]);
		expect(await host.read("x.md")).toBe("x handled");
	});

	it("records handler errors without stopping other handlers", async () => {
		host = memoryHost({}, { logErrors: false });
		await host.loadVault();
		const seen: string[] = [];
		host.fakeApp.vault.on("create", () => {
			throw new Error("sync boom");
		});
		host.fakeApp.vault.on("create", async () => {
			throw new Error("async boom");
		});
		host.fakeApp.vault.on("create", (file) => seen.push(file.path));
		await host.fakeApp.vault.create("e.md", "");
		await host.settled();
		expect(seen).toEqual(["e.md"]);
		expect(host.errors.map((e) => (e.error as Error).message).sort()).toEqual(["async boom", "sync boom"]);
	});
});

describe("fault injection", () => {
	it("failNext(op) makes the next such operation throw before touching the disk", async () => {
		host = memoryHost({ "n.md": "v1" });
		await host.loadVault();
		const events = recordVaultEvents(host);
		const file = host.file("n.md") as unknown as TFile;
		const { vault } = host.fakeApp;
		host.failNext("modify", new Error("disk full"));
		await expect(vault.modify(file, "v2")).rejects.toThrow("disk full");
		expect(await host.read("n.md")).toBe("v1");
		await vault.modify(file, "v3");
		expect(await host.read("n.md")).toBe("v3");
		for (const op of ["create", "process", "rename", "delete", "append", "processFrontMatter"] as const) host.failNext(op);
		await expect(vault.create("c.md", "")).rejects.toThrow(/injected failure in create/);
		await expect(vault.process(file, (d) => d)).rejects.toThrow(/process/);
		await expect(vault.rename(file, "r.md")).rejects.toThrow(/rename/);
		await expect(vault.delete(file)).rejects.toThrow(/delete/);
		await expect(vault.append(file, "+")).rejects.toThrow(/append/);
		await expect(host.fakeApp.fileManager.processFrontMatter(file, (fm) => (fm.a = 1))).rejects.toThrow(/processFrontMatter/);
		await host.settled();
		expect(events).toEqual([{ name: "modify", path: "n.md" }]);
		expect(await host.read("n.md")).toBe("v3");
	});

	it("phase 'after' writes and fires the event, then throws (a crash after the write)", async () => {
		host = memoryHost();
		await host.loadVault();
		const events = recordVaultEvents(host);
		host.failNext("create", new Error("crash"), "after");
		await expect(host.fakeApp.vault.create("half.md", "data")).rejects.toThrow("crash");
		await host.settled();
		expect(await host.read("half.md")).toBe("data");
		expect(events).toEqual([{ name: "create", path: "half.md" }]);
	});
});
