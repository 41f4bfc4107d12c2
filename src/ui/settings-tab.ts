import { PluginSettingTab } from "obsidian";
import type { App, Plugin } from "obsidian";
import type { RelayServices } from "../services";

/** PLACEHOLDER, being replaced: the settings tab. */
export class RelaySettingTab extends PluginSettingTab {
	constructor(
		app: App,
		plugin: Plugin,
		private readonly services: RelayServices,
	) {
		super(app, plugin);
	}

	display(): void {
		this.containerEl.empty();
		this.containerEl.createEl("p", { text: `Root folder: ${this.services.settings.rootFolder}` });
	}
}
