/** SettingTab / PluginSettingTab and the App's settings window (`app.setting`). */
import type { App } from "./app";
import type { Plugin } from "./plugin";

export abstract class SettingTab {
	icon = "";
	app: App;
	containerEl: HTMLElement;
	/** Fake-only (Obsidian's tabs carry these internally). */
	id = "";
	name = "";

	constructor(app: App) {
		this.app = app;
		this.containerEl = createDiv({ cls: "vertical-tab-content" });
	}

	display(): void {}

	/** Empties the tab, like Obsidian's default. */
	hide(): void {
		this.containerEl.empty();
	}
}

export abstract class PluginSettingTab extends SettingTab {
	plugin: Plugin;

	constructor(app: App, plugin: Plugin) {
		super(app);
		this.plugin = plugin;
		this.id = plugin.manifest.id;
		this.name = plugin.manifest.name;
	}
}

/** Fake-only: the settings window. `open(id)` shows a plugin's tab (attached, display() called). */
export class SettingRegistry {
	readonly containerEl: HTMLElement;
	readonly pluginTabs: SettingTab[] = [];
	activeTab: SettingTab | null = null;
	private readonly app: App;

	constructor(app: App) {
		this.app = app;
		this.containerEl = createDiv({ cls: "modal-container mod-settings" });
	}

	addSettingTab(tab: SettingTab): void {
		this.pluginTabs.push(tab);
	}

	removeSettingTab(tab: SettingTab): void {
		if (this.activeTab === tab) this.close();
		const i = this.pluginTabs.indexOf(tab);
		if (i >= 0) this.pluginTabs.splice(i, 1);
	}

	/** Opens the settings window on a tab (by plugin id, or the first tab). */
	openTabById(id?: string): SettingTab {
		const tab = id === undefined ? this.pluginTabs[0] : this.pluginTabs.find((t) => t.id === id);
		if (!tab) throw new Error(`fake-obsidian: no setting tab '${id ?? "(any)"}'`);
		if (this.activeTab && this.activeTab !== tab) this.activeTab.hide();
		if (!this.containerEl.isConnected) document.body.appendChild(this.containerEl);
		this.containerEl.appendChild(tab.containerEl);
		this.activeTab = tab;
		tab.display();
		return tab;
	}

	open(): void {
		this.openTabById();
	}

	close(): void {
		if (this.activeTab) {
			try {
				this.activeTab.hide();
			} catch (error) {
				this.app.runtime.recordError("SettingTab.hide", error);
			}
			this.activeTab.containerEl.detach();
		}
		this.activeTab = null;
		this.containerEl.detach();
	}
}
