/**
 * Plugin: data.json under `<configDir>/plugins/<id>/` through the adapter (no vault events),
 * commands prefixed `<id>:` (and names prefixed `<name>: `) like Obsidian, ribbon icons,
 * status bar items, setting tabs and views, each undone on unload.
 */
import type { App } from "./app";
import type { MarkdownPostProcessor } from "./markdown-preview";
import type { Command } from "./commands";
import { Component } from "./component";
import type { SettingTab } from "./setting-tab";
import type { ViewCreator } from "./workspace";

export interface PluginManifest {
	dir?: string;
	id: string;
	name: string;
	author: string;
	version: string;
	minAppVersion: string;
	description: string;
	authorUrl?: string;
	isDesktopOnly?: boolean;
}

export interface HoverLinkSource {
	display: string;
	defaultMod: boolean;
}

export type { MarkdownPostProcessor, MarkdownPostProcessorContext } from "./markdown-preview";

export abstract class Plugin extends Component {
	app: App;
	manifest: PluginManifest;

	constructor(app: App, manifest: PluginManifest) {
		super();
		this.app = app;
		this.manifest = manifest;
	}

	onload(): Promise<void> | void {}

	/** Fake-only: where loadData/saveData keep the settings. */
	get dataPath(): string {
		return `${this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`}/data.json`;
	}

	async loadData(): Promise<unknown> {
		const adapter = this.app.vault.adapter;
		if (!(await adapter.exists(this.dataPath))) return null;
		return JSON.parse(await adapter.read(this.dataPath)) as unknown;
	}

	async saveData(data: unknown): Promise<void> {
		const adapter = this.app.vault.adapter;
		const dir = this.dataPath.slice(0, this.dataPath.lastIndexOf("/"));
		await adapter.mkdir(dir);
		await adapter.write(this.dataPath, JSON.stringify(data, null, 2));
	}

	addCommand(command: Command): Command {
		command.id = `${this.manifest.id}:${command.id}`;
		command.name = `${this.manifest.name}: ${command.name}`;
		this.app.commands.addCommand(command);
		this.register(() => this.app.commands.removeCommand(command.id));
		return command;
	}

	removeCommand(commandId: string): void {
		this.app.commands.removeCommand(`${this.manifest.id}:${commandId}`);
	}

	addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.app.workspace.addRibbonIcon(icon, title, callback);
		this.register(() => el.detach());
		return el;
	}

	addStatusBarItem(): HTMLElement {
		const el = this.app.workspace.statusBarEl.createDiv({ cls: "status-bar-item" });
		this.register(() => el.detach());
		return el;
	}

	addSettingTab(settingTab: SettingTab): void {
		this.app.setting.addSettingTab(settingTab);
		this.register(() => this.app.setting.removeSettingTab(settingTab));
	}

	registerView(type: string, viewCreator: ViewCreator): void {
		this.app.workspace.registerView(type, viewCreator);
		this.register(() => this.app.workspace.unregisterView(type));
	}

	registerExtensions(extensions: string[], viewType: string): void {
		void extensions;
		void viewType;
	}

	/** Recorded in `app.hoverLinkSources` (the page preview core plugin reads it), removed on unload. */
	registerHoverLinkSource(id: string, info: HoverLinkSource): void {
		this.app.hoverLinkSources.set(id, info);
		this.register(() => this.app.hoverLinkSources.delete(id));
	}

	/** Run by the reading view on each rendered section (`host.renderReadingView`), removed on unload. */
	registerMarkdownPostProcessor(postProcessor: MarkdownPostProcessor, sortOrder?: number): MarkdownPostProcessor {
		if (sortOrder !== undefined) postProcessor.sortOrder = sortOrder;
		this.app.markdownPostProcessors.push(postProcessor);
		this.register(() => {
			const i = this.app.markdownPostProcessors.indexOf(postProcessor);
			if (i >= 0) this.app.markdownPostProcessors.splice(i, 1);
		});
		return postProcessor;
	}

	registerMarkdownCodeBlockProcessor(language: string, handler: unknown, sortOrder?: number): unknown {
		void language;
		void sortOrder;
		return handler;
	}

	registerEditorExtension(extension: unknown): void {
		void extension;
	}

	registerEditorSuggest(editorSuggest: unknown): void {
		void editorSuggest;
	}

	registerObsidianProtocolHandler(action: string, handler: (params: Record<string, string>) => unknown): void {
		this.app.protocolHandlers.set(action, handler);
		this.register(() => this.app.protocolHandlers.delete(action));
	}

	registerBasesView(viewId: string, registration: unknown): boolean {
		void viewId;
		void registration;
		return true;
	}

	registerCliHandler(command: string, description: string, flags: unknown, handler: unknown): void {
		void command;
		void description;
		void flags;
		void handler;
	}

	onUserEnable(): void {}

	onExternalSettingsChange?(): unknown;
}
