// The parts of the fake the plugin's UI relies on beyond views and commands, each pinned as
// Obsidian behaves: moment, hover-link sources, markdown post processors in the reading view,
// file and editor menus, fenced and mermaid blocks, opening files, view actions, fragment notices.
import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { ItemView, MarkdownRenderer, Component, Menu, Notice, Plugin, moment } from "../../test-support/fake-obsidian/index";
import type { MarkdownPostProcessorContext, TFile, WorkspaceLeaf } from "../../test-support/fake-obsidian/index";
import { memoryHost } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	await host?.dispose();
	host = undefined;
});

const seen: { section: number | null; frontmatter: unknown; text: string }[] = [];

class UiPlugin extends Plugin {
	onload(): void {
		this.registerHoverLinkSource("ui-plugin", { display: "UI plugin", defaultMod: true });
		this.registerMarkdownPostProcessor((el: HTMLElement, ctx: MarkdownPostProcessorContext) => {
			seen.push({ section: ctx.getSectionInfo(el)?.lineStart ?? null, frontmatter: ctx.frontmatter, text: el.textContent ?? "" });
			if (ctx.getSectionInfo(el)?.lineStart === 0) el.prepend(createDiv({ cls: "ui-header", text: `header of ${ctx.sourcePath}` }));
		});
		this.registerEvent(this.app.workspace.on("file-menu", (menu: Menu, file: TFile, source: string) => menu.addItem((i) => i.setTitle(`Act on ${file.name} from ${source}`))));
		this.registerEvent(this.app.workspace.on("editor-menu", (menu: Menu, _editor: unknown, info: { file: TFile | null }) => menu.addItem((i) => i.setTitle(`Edit ${info.file?.name ?? "?"}`))));
	}
}

class ActionsView extends ItemView {
	getViewType(): string {
		return "actions";
	}
	getDisplayText(): string {
		return "Actions";
	}
}

describe("the fake's UI surfaces", () => {
	it("moment is the real library: relative and absolute times", () => {
		const now = Date.parse("2026-01-15T12:00:00Z");
		expect(moment(now - 4 * 60_000).from(now)).toBe("4 minutes ago");
		expect(moment(now + 30_000).from(now)).toBe("in a few seconds");
		expect(moment.utc(now).format("YYYY-MM-DD HH:mm")).toBe("2026-01-15 12:00");
	});

	it("hover-link sources and post processors are registered, and removed with the plugin", async () => {
		host = memoryHost({ "note.md": "---\nkind: request\n---\n# Title\n\nBody line\n" });
		const plugin = await host.boot(UiPlugin, { id: "ui-plugin" });
		expect(host.fakeApp.hoverLinkSources.get("ui-plugin")).toEqual({ display: "UI plugin", defaultMod: true });
		seen.length = 0;
		const el = await host.renderReadingView("note.md");
		// Sections like Obsidian's: the frontmatter block, then blocks between blank lines.
		expect(seen.map((s) => s.section)).toEqual([0, 3, 5]);
		expect(seen[0]?.frontmatter).toEqual({ kind: "request" });
		expect(el.querySelector(".mod-frontmatter .ui-header")?.textContent).toBe("header of note.md");
		expect(el.querySelector("h1")?.textContent).toBe("Title");
		await host.unloadPlugin(plugin);
		expect(host.fakeApp.hoverLinkSources.size).toBe(0);
		expect(host.fakeApp.markdownPostProcessors).toHaveLength(0);
	});

	it("file and editor menus go through every handler with the file (and the editor's note)", async () => {
		host = memoryHost({ "a.md": "A\n" });
		await host.boot(UiPlugin, { id: "ui-plugin" });
		expect(host.fileMenu(host.file("a.md")).titles).toEqual(["Act on a.md from file-explorer"]);
		expect(host.fileMenu(host.file("a.md"), "link-context-menu").titles).toEqual(["Act on a.md from link-context-menu"]);
		expect((await host.editorMenu("a.md")).titles).toEqual(["Edit a.md"]);
	});

	it("renders fenced blocks as pre > code, and a mermaid block as div.mermaid holding its source without the library", async () => {
		const el = createDiv();
		await MarkdownRenderer.render(undefined as never, "Intro\n```js\nlet a = 1;\n```\n```mermaid\nsequenceDiagram\n    a->>b: hi\n```", el, "", new Component());
		expect(el.querySelector("p")?.textContent).toBe("Intro");
		expect(el.querySelector("pre > code.language-js")?.textContent).toBe("let a = 1;");
		expect(el.querySelector("div.mermaid")?.textContent).toBe("sequenceDiagram\n    a->>b: hi");
	});

	it("records every file opened in a leaf; openFile never creates a file, openLinkText creates a missing one", async () => {
		host = memoryHost({ "Issue #42.md": "x\n" });
		await host.loadVault();
		await host.app.workspace.getLeaf("tab").openFile(host.file("Issue #42.md"));
		expect(host.openedFiles.at(-1)).toMatchObject({ path: "Issue #42.md", side: "root" });
		await host.app.workspace.openLinkText("Issue #42.md", "", false);
		expect(host.openedLinks.at(-1)).toMatchObject({ path: "Issue .md", created: true });
	});

	it("view actions go first (leftmost), like Obsidian's", async () => {
		host = memoryHost();
		await host.setLayoutReady();
		const leaf = host.app.workspace.getLeaf(true) as unknown as WorkspaceLeaf;
		const view = new ActionsView(leaf as never);
		await (leaf as unknown as { open(v: unknown): Promise<void> }).open(view);
		view.addAction("a", "First", () => undefined);
		view.addAction("b", "Second", () => undefined);
		expect(Array.from(view.containerEl.querySelectorAll(".view-action")).map((e) => e.getAttribute("aria-label"))).toEqual(["Second", "First"]);
	});

	it("a notice built from a fragment records its text", () => {
		host = memoryHost();
		const fragment = createFragment();
		fragment.appendText("Written: ");
		fragment.createEl("a", { text: "note.md" });
		new Notice(fragment, 1);
		expect(host.notices.at(-1)).toBe("Written: note.md");
	});
});
