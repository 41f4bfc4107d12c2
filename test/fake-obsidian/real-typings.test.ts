import { TFile as ObsidianTFile } from "obsidian";
import { afterEach, describe, expect, it } from "vitest";
import SamplePlugin, { SAMPLE_VIEW, SampleView } from "./fixtures/sample-plugin";
import { TFile as FakeTFile } from "../../test-support/fake-obsidian/index";
import { createTempHost, type TempHost } from "../../test-support/fake-obsidian/node-host";

let host: TempHost | undefined;
afterEach(async () => {
	await host?.cleanup();
	host = undefined;
});

const manifest = { id: "sample", name: "Sample" };

describe("a plugin compiled against the real typings runs on the fake", () => {
	it("the obsidian alias resolves to this fake", () => {
		expect(ObsidianTFile).toBe(FakeTFile);
	});

	it("boots in Obsidian's order: startup creates are not seen by handlers registered on layout ready", async () => {
		host = await createTempHost({ files: { "inbox/old.md": "old", "other/x.md": "x" } });
		const plugin = await host.boot(SamplePlugin, manifest);
		expect(plugin.seen).toEqual([]);
		await host.app.vault.create("inbox/new.md", "new");
		await host.externalWrite("inbox/outside.md", "o");
		await host.app.vault.create("other/y.md", "y");
		await host.settled();
		expect(plugin.seen).toEqual(["inbox/new.md", "inbox/outside.md"]);
		expect(host.file("inbox/new.md")).toBeInstanceOf(ObsidianTFile);
	});

	it("opens its view through a command, re-renders on metadata changes, and never holds a deferred view", async () => {
		host = await createTempHost({ files: { "inbox/a.md": "# A" } });
		const plugin = await host.boot(SamplePlugin, manifest);
		expect(plugin.currentView()).toBeNull();
		expect(host.executeCommand("sample:open-view")).toBe(true);
		await host.settled();
		const view = plugin.currentView();
		expect(view).toBeInstanceOf(SampleView);
		expect(view?.contentEl.textContent).toBe("Renders: 1");
		await host.app.vault.modify(host.file("inbox/a.md"), "# A2");
		await host.settled();
		expect(view?.contentEl.textContent).toBe("Renders: 2");

		host.setDeferMode("always");
		host.app.workspace.detachLeavesOfType(SAMPLE_VIEW);
		await host.settled();
		await host.restoreLeaf({ type: SAMPLE_VIEW });
		expect(plugin.currentView()).toBeNull();
		host.executeCommand("sample:open-view");
		await host.settled();
		expect(plugin.currentView()).toBeInstanceOf(SampleView);
	});

	it("copes with getRightLeaf returning null", async () => {
		host = await createTempHost();
		await host.boot(SamplePlugin, manifest);
		host.setRightLeafAvailable(false);
		host.executeCommand("sample:open-view");
		await host.settled();
		expect(host.notices).toEqual(["No room for the view"]);
	});

	it("the checkCallback command needs an active file and edits its frontmatter", async () => {
		host = await createTempHost({ files: { "inbox/a.md": "---\ncount: 1\n---\nBody\n" } });
		await host.boot(SamplePlugin, manifest);
		expect(host.executeCommand("sample:mark")).toBe(false);
		await host.setActiveFile(host.file("inbox/a.md"));
		expect(host.executeCommand("sample:mark")).toBe(true);
		await host.settled();
		expect(await host.read("inbox/a.md")).toBe("---\ncount: 2\n---\nBody\n");
		expect(host.notices).toEqual(["Marked a"]);
	});

	it("its settings tab saves through the DOM, and unload leaves no listener or interval behind", async () => {
		host = await createTempHost();
		const baseline = host.listenerCount();
		const plugin = await host.boot(SamplePlugin, manifest);
		const tab = host.openSettings("sample");
		const input = tab.querySelector("input") as HTMLInputElement;
		expect(input.value).toBe("inbox");
		input.value = "/queue//";
		input.dispatchEvent(new Event("input"));
		await host.settled();
		expect(JSON.parse(await host.read(".obsidian/plugins/sample/data.json"))).toEqual({ folder: "queue" });
		host.closeSettings();
		expect(host.listenerCount()).toBeGreaterThan(baseline);
		expect(host.activeIntervals()).toBe(1);
		await host.unloadPlugin(plugin);
		expect(host.listenerCount()).toBe(baseline);
		expect(host.activeIntervals()).toBe(0);
		expect(host.commandIds()).toEqual([]);
	});
});
