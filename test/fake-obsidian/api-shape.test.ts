/**
 * Pins the fake's coverage of the real API. The type-level part is checked by
 * `tsc -p tsconfig.node.json`: each line stops compiling when the fake lacks a public member of
 * the real class that is not in the deliberate skip list next to it.
 */
import type * as Real from "obsidian";
import { describe, expect, it } from "vitest";
import * as Fake from "../../test-support/fake-obsidian/index";

type Missing<R, F, Skip extends PropertyKey = never> = Exclude<keyof R, keyof F | Skip>;
type None<T extends never> = T;

export type ApiCoverage = [
	None<Missing<Real.App, Fake.App, "renderContext">>,
	None<Missing<Real.Vault, Fake.Vault>>,
	None<Missing<Real.FileSystemAdapter, Fake.FileSystemAdapter>>,
	None<Missing<Real.DataAdapter, Fake.FileSystemAdapter>>,
	None<Missing<Real.TFile, Fake.TFile>>,
	None<Missing<Real.TFolder, Fake.TFolder>>,
	None<Missing<Real.MetadataCache, Fake.MetadataCache>>,
	None<Missing<Real.FileManager, Fake.FileManager>>,
	None<Missing<Real.Events, Fake.Events>>,
	None<Missing<Real.Component, Fake.Component>>,
	None<Missing<Real.Plugin, Fake.Plugin, "settings">>,
	None<Missing<Real.Workspace, Fake.Workspace, "moveLeafToPopout">>,
	None<Missing<Real.WorkspaceLeaf, Fake.WorkspaceLeaf>>,
	None<Missing<Real.View, Fake.View>>,
	None<Missing<Real.ItemView, Fake.ItemView>>,
	None<Missing<Real.MarkdownView, Fake.MarkdownView, "hoverPopover" | "previewMode" | "currentMode">>,
	None<Missing<Real.Editor, Fake.Editor>>,
	None<Missing<Real.Modal, Fake.Modal>>,
	None<Missing<Real.Notice, Fake.Notice>>,
	None<Missing<Real.Scope, Fake.Scope>>,
	None<Missing<Real.Keymap, Fake.Keymap>>,
	None<Missing<Real.Setting, Fake.Setting>>,
	None<
		Missing<
			Real.PluginSettingTab,
			Fake.PluginSettingTab,
			"getSettingDefinitions" | "getControlValue" | "setControlValue" | "settingItems" | "update" | "refreshDomState"
		>
	>,
	None<Missing<Real.TextComponent, Fake.TextComponent>>,
	None<Missing<Real.TextAreaComponent, Fake.TextAreaComponent>>,
	None<Missing<Real.SearchComponent, Fake.SearchComponent>>,
	None<Missing<Real.DropdownComponent, Fake.DropdownComponent>>,
	None<Missing<Real.ToggleComponent, Fake.ToggleComponent>>,
	None<Missing<Real.SliderComponent, Fake.SliderComponent>>,
	None<Missing<Real.ButtonComponent, Fake.ButtonComponent>>,
	None<Missing<Real.ExtraButtonComponent, Fake.ExtraButtonComponent>>,
	None<Missing<Real.AbstractInputSuggest<string>, Fake.AbstractInputSuggest<string>>>,
	None<Missing<Real.SuggestModal<string>, Fake.SuggestModal<string>>>,
	None<Missing<Real.FuzzySuggestModal<string>, Fake.FuzzySuggestModal<string>>>,
	None<Missing<Real.Menu, Fake.Menu>>,
	None<Missing<Real.MenuItem, Fake.MenuItem>>,
	None<Missing<typeof Real.Platform, typeof Fake.Platform>>,
	None<Missing<Real.SecretStorage, Fake.SecretStorage>>,
	None<Missing<Real.SecretComponent, Fake.SecretComponent>>,
];

/** Module-level values the fake provides (the rest of obsidian.d.ts is not faked). */
const VALUES = [
	"AbstractInputSuggest",
	"App",
	"ButtonComponent",
	"Component",
	"DropdownComponent",
	"Editor",
	"Events",
	"ExtraButtonComponent",
	"FileManager",
	"FileSystemAdapter",
	"FileView",
	"FuzzySuggestModal",
	"ItemView",
	"Keymap",
	"MarkdownRenderChild",
	"MarkdownRenderer",
	"MarkdownView",
	"Menu",
	"MenuItem",
	"MetadataCache",
	"Modal",
	"Notice",
	"Platform",
	"Plugin",
	"PluginSettingTab",
	"Scope",
	"SearchComponent",
	"SecretComponent",
	"SecretStorage",
	"Setting",
	"SliderComponent",
	"SuggestModal",
	"TAbstractFile",
	"TextAreaComponent",
	"TextComponent",
	"TextFileView",
	"TFile",
	"TFolder",
	"ToggleComponent",
	"Vault",
	"View",
	"Workspace",
	"WorkspaceLeaf",
	"addIcon",
	"apiVersion",
	"debounce",
	"getFrontMatterInfo",
	"getIcon",
	"getLanguage",
	"normalizePath",
	"parseYaml",
	"requestUrl",
	"requireApiVersion",
	"sanitizeHTMLToDom",
	"setIcon",
	"setTooltip",
	"stringifyYaml",
] as const satisfies ReadonlyArray<keyof typeof Real>;

describe("API shape", () => {
	it("exports the values plugin code imports from obsidian", () => {
		const module = Fake as Record<string, unknown>;
		const missing = VALUES.filter((name) => module[name] === undefined);
		expect(missing).toEqual([]);
		expect(Fake.apiVersion).toBe("1.13.1");
		expect(Fake.requireApiVersion("1.7.2")).toBe(true);
		expect(Fake.getLanguage()).toBe("en");
		expect(Fake.Platform.isDesktop).toBe(true);
		expect(Fake.Platform.isMobile).toBe(false);
	});

	it("parseYaml/stringifyYaml round-trip through the yaml package", () => {
		const text = Fake.stringifyYaml({ a: 1, list: ["x", "y"], nested: { b: true } });
		expect(text).toBe("a: 1\nlist:\n  - x\n  - y\nnested:\n  b: true\n");
		expect(Fake.parseYaml(text)).toEqual({ a: 1, list: ["x", "y"], nested: { b: true } });
	});

	it("getFrontMatterInfo finds the block offsets", () => {
		const info = Fake.getFrontMatterInfo("---\na: 1\n---\nbody");
		expect(info.exists).toBe(true);
		expect(info.frontmatter).toBe("a: 1");
		expect(info.contentStart).toBe(13);
		expect(Fake.getFrontMatterInfo("no block").exists).toBe(false);
	});
});
