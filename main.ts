import { Plugin } from "obsidian";
import { startPlugin } from "./src/plugin/start";
import type { PluginParts } from "./src/plugin/start";

// Lifecycle only: the parts are built and registered in src/plugin/start.ts.
export default class A2ARelayPlugin extends Plugin {
	parts!: PluginParts;

	async onload(): Promise<void> {
		this.parts = await startPlugin(this);
	}

	async onExternalSettingsChange(): Promise<void> {
		await this.parts.settings.reload();
	}
}
