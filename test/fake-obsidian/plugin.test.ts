import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { Component, Events, ItemView, Plugin, PluginSettingTab, type WorkspaceLeaf } from "../../test-support/fake-obsidian/index";
import { memoryHost, recordVaultEvents, sleep } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	await host?.dispose();
	host = undefined;
});

describe("Component", () => {
	it("unload detaches every event ref, clears every interval, removes DOM listeners and runs callbacks, children too", async () => {
		host = memoryHost();
		const { vault, workspace } = host.fakeApp;
		const baseline = host.listenerCount();
		const parent = new Component();
		const child = new Component();
		let ticks = 0;
		let clicks = 0;
		let cleaned = 0;
		let childUnloaded = false;
		child.onunload = () => {
			childUnloaded = true;
		};
		const button = document.body.createEl("button");
		parent.load();
		parent.addChild(child);
		parent.registerEvent(vault.on("create", () => undefined));
		child.registerEvent(workspace.on("layout-change", () => undefined));
		parent.registerInterval(window.setInterval(() => ticks++, 5));
		parent.registerDomEvent(button, "click", () => clicks++);
		parent.register(() => cleaned++);
		expect(host.listenerCount()).toBe(baseline + 2);
		expect(host.activeIntervals()).toBe(1);
		expect(host.domListenerCount()).toBe(1);
		button.click();
		await sleep(20);
		expect(clicks).toBe(1);
		expect(ticks).toBeGreaterThan(0);
		parent.unload();
		expect(host.listenerCount()).toBe(baseline);
		expect(host.activeIntervals()).toBe(0);
		expect(host.domListenerCount()).toBe(0);
		expect(cleaned).toBe(1);
		expect(childUnloaded).toBe(true);
		const ticksAfter = ticks;
		button.click();
		await sleep(20);
		expect(ticks).toBe(ticksAfter);
		expect(clicks).toBe(1);
		button.remove();
	});

	it("loads a child added after load, and removeChild unloads it", () => {
		const parent = new Component();
		const child = new Component();
		const log: string[] = [];
		child.onload = () => {
			log.push("child load");
		};
		child.onunload = () => {
			log.push("child unload");
		};
		parent.load();
		parent.addChild(child);
		parent.removeChild(child);
		expect(log).toEqual(["child load", "child unload"]);
	});

	it("Events.off / offref stop delivery", () => {
		const events = new Events();
		const seen: unknown[] = [];
		const fn = (x: unknown): void => {
			seen.push(x);
		};
		const ref = events.on("a", fn);
		events.trigger("a", 1);
		events.offref(ref);
		events.trigger("a", 2);
		events.on("b", fn);
		events.off("b", fn);
		events.trigger("b", 3);
		expect(seen).toEqual([1]);
	});
});

class TestView extends ItemView {
	getViewType(): string {
		return "test-view";
	}
	getDisplayText(): string {
		return "Test view";
	}
}

class SettingsTab extends PluginSettingTab {
	display(): void {
		this.containerEl.createEl("h2", { text: "Settings" });
	}
}

class TestPlugin extends Plugin {
	ran: string[] = [];
	enabled = false;
	externalChanges = 0;

	async onload(): Promise<void> {
		await sleep(5);
		this.addCommand({ id: "plain", name: "Plain", callback: () => this.ran.push("plain") });
		this.addCommand({
			id: "guarded",
			name: "Guarded",
			checkCallback: (checking) => {
				if (!this.enabled) return false;
				if (!checking) this.ran.push("guarded");
				return true;
			},
		});
		this.addCommand({ id: "editor", name: "Editor", editorCallback: () => this.ran.push("editor") });
		this.addRibbonIcon("dice", "Roll", () => this.ran.push("ribbon"));
		this.addStatusBarItem().setText("status");
		this.addSettingTab(new SettingsTab(this.app, this));
		this.registerView("test-view", (leaf: WorkspaceLeaf) => new TestView(leaf));
		this.registerEvent(this.app.vault.on("modify", () => undefined));
	}

	onExternalSettingsChange(): void {
		this.externalChanges++;
	}
}

describe("Plugin", () => {
	it("prefixes command ids and names, and executeCommandById honours checkCallback", async () => {
		host = memoryHost();
		const plugin = await host.loadPlugin(TestPlugin, { id: "test-plugin", name: "Test Plugin" });
		expect(host.commandIds()).toEqual(["test-plugin:plain", "test-plugin:guarded", "test-plugin:editor"]);
		expect(host.fakeApp.commands.findCommand("test-plugin:plain")?.name).toBe("Test Plugin: Plain");
		expect(host.executeCommand("test-plugin:plain")).toBe(true);
		expect(host.executeCommand("test-plugin:guarded")).toBe(false);
		plugin.enabled = true;
		expect(host.executeCommand("test-plugin:guarded")).toBe(true);
		expect(host.executeCommand("test-plugin:editor")).toBe(false);
		expect(host.executeCommand("test-plugin:missing")).toBe(false);
		expect(plugin.ran).toEqual(["plain", "guarded"]);
		plugin.removeCommand("plain");
		expect(host.commandIds()).not.toContain("test-plugin:plain");
	});

	it("registers ribbon icons, status bar items, setting tabs and views, and unload removes them all", async () => {
		host = memoryHost();
		const baseline = host.listenerCount();
		const plugin = await host.loadPlugin(TestPlugin, { id: "p" });
		expect(host.ribbonIcons().length).toBe(1);
		expect(host.ribbonIcons()[0]?.getAttribute("aria-label")).toBe("Roll");
		host.ribbonIcons()[0]?.click();
		expect(plugin.ran).toContain("ribbon");
		expect(host.statusBarItems()[0]?.textContent).toBe("status");
		expect(host.settingTabs().length).toBe(1);
		expect(host.openSettings("p").textContent).toContain("Settings");
		host.closeSettings();
		expect(host.registeredViews()).toEqual(["test-view"]);
		expect(host.listenerCount()).toBe(baseline + 1);
		await host.unloadPlugin(plugin);
		expect(host.commandIds()).toEqual([]);
		expect(host.ribbonIcons()).toEqual([]);
		expect(host.statusBarItems()).toEqual([]);
		expect(host.settingTabs()).toEqual([]);
		expect(host.registeredViews()).toEqual([]);
		expect(host.listenerCount()).toBe(baseline);
	});

	it("loadData/saveData use <configDir>/plugins/<id>/data.json and fire no vault event", async () => {
		host = memoryHost();
		await host.loadVault();
		const events = recordVaultEvents(host);
		const plugin = await host.loadPlugin(TestPlugin, { id: "store" });
		expect(await plugin.loadData()).toBeNull();
		await plugin.saveData({ a: 1, list: [1, 2] });
		expect(JSON.parse(await host.read(".obsidian/plugins/store/data.json"))).toEqual({ a: 1, list: [1, 2] });
		expect(await plugin.loadData()).toEqual({ a: 1, list: [1, 2] });
		await host.settled();
		expect(events).toEqual([]);
	});

	it("calls onExternalSettingsChange when data.json changes outside Obsidian", async () => {
		host = memoryHost();
		await host.loadVault();
		const plugin = await host.loadPlugin(TestPlugin, { id: "ext" });
		await plugin.saveData({ v: 1 });
		await host.settled();
		expect(plugin.externalChanges).toBe(0);
		await host.externalWrite(".obsidian/plugins/ext/data.json", '{"v":2}');
		await host.settled();
		expect(plugin.externalChanges).toBe(1);
	});

	it("loadPlugin awaits an async onload and surfaces its rejection", async () => {
		host = memoryHost();
		class Failing extends Plugin {
			async onload(): Promise<void> {
				await sleep(1);
				throw new Error("onload failed");
			}
		}
		await expect(host.loadPlugin(Failing, { id: "failing" })).rejects.toThrow("onload failed");
	});
});
