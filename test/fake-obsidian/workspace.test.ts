import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { ItemView, MarkdownView, Plugin, type TFile, type WorkspaceLeaf } from "../../test-support/fake-obsidian/index";
import { memoryHost, sleep } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	await host?.dispose();
	host = undefined;
});

const VIEW_TYPE = "relay-view";
const lifecycle: string[] = [];

class RelayView extends ItemView {
	getViewType(): string {
		return VIEW_TYPE;
	}
	getDisplayText(): string {
		return "Relay";
	}
	protected async onOpen(): Promise<void> {
		await sleep(5);
		this.contentEl.createDiv({ cls: "relay-body", text: "hello" });
		this.registerEvent(this.app.vault.on("modify", () => undefined));
		this.registerInterval(window.setInterval(() => undefined, 1000));
		lifecycle.push("open");
	}
	protected async onClose(): Promise<void> {
		lifecycle.push("close");
	}
}

class ViewPlugin extends Plugin {
	onload(): void {
		this.registerView(VIEW_TYPE, (leaf) => new RelayView(leaf));
	}
}

async function withView(): Promise<FakeHost> {
	host = memoryHost({ "a.md": "# A", "b.md": "# B" });
	await host.loadPlugin(ViewPlugin, { id: "views" });
	await host.loadVault();
	await host.setLayoutReady();
	lifecycle.length = 0;
	return host;
}

describe("leaves and views", () => {
	it("getRightLeaf returns a leaf, or null when configured so", async () => {
		const h = await withView();
		const leaf = h.fakeApp.workspace.getRightLeaf(false);
		expect(leaf).not.toBeNull();
		expect(leaf?.getRoot()).toBe(h.fakeApp.workspace.rightSplit);
		h.setRightLeafAvailable(false);
		expect(h.fakeApp.workspace.getRightLeaf(false)).toBeNull();
	});

	it("setViewState builds the registered view, puts it in the document and awaits onOpen", async () => {
		const h = await withView();
		const { workspace } = h.fakeApp;
		const leaf = workspace.getRightLeaf(false) as WorkspaceLeaf;
		await leaf.setViewState({ type: VIEW_TYPE, active: true });
		expect(lifecycle).toEqual(["open"]);
		const view = leaf.view;
		expect(view).toBeInstanceOf(RelayView);
		expect(view.containerEl.isConnected).toBe(true);
		expect(view.containerEl.children[1]).toBe((view as RelayView).contentEl);
		expect(view.containerEl.children[0]?.classList.contains("view-header")).toBe(true);
		expect(view.containerEl.isShown()).toBe(true);
		expect(document.querySelector(".relay-body")?.textContent).toBe("hello");
		expect(workspace.getLeavesOfType(VIEW_TYPE)).toEqual([leaf]);
		expect(workspace.activeLeaf).toBe(leaf);
		expect(workspace.getActiveViewOfType(RelayView)).toBe(view);
		expect(leaf.getViewState().type).toBe(VIEW_TYPE);
	});

	it("a deferred leaf's view is not an instance of the view class until loaded", async () => {
		const h = await withView();
		const restored = (await h.restoreLeaf({ type: VIEW_TYPE, side: "right" })) as unknown as WorkspaceLeaf;
		expect(restored.isDeferred).toBe(true);
		expect(restored.view).not.toBeInstanceOf(RelayView);
		expect(restored.view.getViewType()).toBe(VIEW_TYPE);
		expect(h.fakeApp.workspace.getLeavesOfType(VIEW_TYPE)).toEqual([restored]);
		await restored.loadIfDeferred();
		expect(restored.isDeferred).toBe(false);
		expect(restored.view).toBeInstanceOf(RelayView);

		h.setDeferMode("always");
		const leaf = h.fakeApp.workspace.getRightLeaf(false) as WorkspaceLeaf;
		await leaf.setViewState({ type: VIEW_TYPE, active: true });
		expect(leaf.view).not.toBeInstanceOf(RelayView);
		await h.fakeApp.workspace.revealLeaf(leaf);
		expect(leaf.view).toBeInstanceOf(RelayView);
	});

	it("setLeafVisible toggles isShown() and fires 'layout-change'; revealLeaf shows it again", async () => {
		const h = await withView();
		const { workspace } = h.fakeApp;
		const leaf = workspace.getRightLeaf(false) as WorkspaceLeaf;
		await leaf.setViewState({ type: VIEW_TYPE });
		await h.settled();
		let changes = 0;
		workspace.on("layout-change", () => changes++);
		h.setLeafVisible(leaf, false);
		expect(leaf.view.containerEl.isShown()).toBe(false);
		await h.settled();
		expect(changes).toBe(1);
		await workspace.revealLeaf(leaf);
		expect(leaf.view.containerEl.isShown()).toBe(true);
		workspace.rightSplit.collapse();
		expect(leaf.view.containerEl.isShown()).toBe(false);
		await workspace.revealLeaf(leaf);
		expect(leaf.view.containerEl.isShown()).toBe(true);
	});

	it("detach runs onClose, removes the DOM and undoes the view's registrations", async () => {
		const h = await withView();
		const baseline = h.listenerCount();
		const leaf = h.fakeApp.workspace.getRightLeaf(false) as WorkspaceLeaf;
		await leaf.setViewState({ type: VIEW_TYPE });
		const el = leaf.view.containerEl;
		expect(h.listenerCount()).toBe(baseline + 1);
		expect(h.activeIntervals()).toBe(1);
		h.fakeApp.workspace.detachLeavesOfType(VIEW_TYPE);
		await h.settled();
		expect(lifecycle).toEqual(["open", "close"]);
		expect(el.isConnected).toBe(false);
		expect(h.listenerCount()).toBe(baseline);
		expect(h.activeIntervals()).toBe(0);
		expect(h.fakeApp.workspace.getLeavesOfType(VIEW_TYPE)).toEqual([]);
	});

	it("unloading the plugin closes its views and leaves placeholders that load again with the plugin", async () => {
		const h = await withView();
		const leaf = h.fakeApp.workspace.getRightLeaf(false) as WorkspaceLeaf;
		await leaf.setViewState({ type: VIEW_TYPE });
		const plugin = h.plugins[0];
		if (!plugin) throw new Error("no plugin");
		await h.unloadPlugin(plugin);
		await h.settled();
		expect(lifecycle).toEqual(["open", "close"]);
		expect(leaf.view).not.toBeInstanceOf(RelayView);
		expect(leaf.isDeferred).toBe(true);
		await h.loadPlugin(ViewPlugin, { id: "views" });
		await h.fakeApp.workspace.revealLeaf(leaf);
		expect(leaf.view).toBeInstanceOf(RelayView);
	});
});

describe("active file and links", () => {
	it("setActiveFile fires 'active-leaf-change' then 'file-open'", async () => {
		const h = await withView();
		const { workspace } = h.fakeApp;
		const log: string[] = [];
		workspace.on("active-leaf-change", (leaf) => log.push(`leaf ${leaf ? leaf.view.getViewType() : "null"}`));
		workspace.on("file-open", (file) => log.push(`file ${file?.path ?? "null"}`));
		const a = h.fakeApp.vault.getFileByPath("a.md") as TFile;
		await h.setActiveFile(a);
		expect(log).toEqual(["leaf markdown", "file a.md"]);
		expect(workspace.getActiveFile()).toBe(a);
		const md = workspace.getActiveViewOfType(MarkdownView);
		expect(md?.file).toBe(a);
		expect(md?.editor.getValue()).toBe("# A");
		await h.setActiveFile(null);
		expect(workspace.getActiveFile()).toBeNull();
		expect(log.slice(2)).toEqual(["leaf null", "file null"]);
	});

	it("openLinkText records the opening and makes the file active (creating an unresolved target)", async () => {
		const h = await withView();
		const { workspace } = h.fakeApp;
		await workspace.openLinkText("b#Heading", "a.md", true);
		expect(workspace.getActiveFile()?.path).toBe("b.md");
		await workspace.openLinkText("brand new", "a.md");
		expect(h.openedLinks).toEqual([
			{ linktext: "b#Heading", sourcePath: "a.md", newLeaf: true, path: "b.md", created: false },
			{ linktext: "brand new", sourcePath: "a.md", newLeaf: undefined, path: "brand new.md", created: true },
		]);
		expect(await h.read("brand new.md")).toBe("");
	});

	it("editor commands run with an active markdown view", async () => {
		const h = await withView();
		let seen = "";
		h.fakeApp.commands.addCommand({
			id: "x:edit",
			name: "Edit",
			editorCallback: (editor) => {
				seen = editor.getValue();
				editor.replaceRange("!", { line: 0, ch: 3 });
			},
		});
		expect(h.executeCommand("x:edit")).toBe(false);
		await h.setActiveFile(h.fakeApp.vault.getFileByPath("a.md"));
		expect(h.executeCommand("x:edit")).toBe(true);
		expect(seen).toBe("# A");
		await h.settled();
		expect(await h.read("a.md")).toBe("# A!");
	});
});
