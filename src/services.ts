import type { App, Plugin } from "obsidian";
import { AgentStore } from "./obsidian/agent-store";
import { Relay } from "./obsidian/relay";
import { DEFAULT_SETTINGS, normaliseSettings } from "./settings";
import type { RelaySettings } from "./settings";

// What the view, the modals, the commands and the settings tab are given: the app, the settings and
// the two child components that hold state (the relay and the agent store). The plugin owns them;
// nothing here keeps a reference to a view.

export class RelayServices {
	readonly app: App;
	readonly relay: Relay;
	readonly agents: AgentStore;
	private current: RelaySettings = { ...DEFAULT_SETTINGS };
	private saving: Promise<void> = Promise.resolve();

	constructor(private readonly plugin: Plugin) {
		this.app = plugin.app;
		this.relay = new Relay(this.app, () => this.current);
		this.agents = new AgentStore(this.app, () => this.current);
	}

	get settings(): RelaySettings {
		return this.current;
	}

	async loadSettings(): Promise<void> {
		this.current = normaliseSettings(await this.plugin.loadData());
	}

	/** Saves and applies a change; a new root or agent folder takes effect at once. */
	async updateSettings(change: Partial<RelaySettings>): Promise<void> {
		const before = this.current;
		this.current = normaliseSettings({ ...this.current, ...change });
		const settings = this.current;
		// One write at a time: two saves racing could leave data.json half written.
		this.saving = this.saving.then(() => this.plugin.saveData(settings)).catch((error: unknown) => console.error("A2A Relay: could not save the settings", error));
		await this.saving;
		await this.applyChanges(before);
	}

	/** The settings file changed outside Obsidian (sync): read it again and apply it. */
	async reloadSettings(): Promise<void> {
		const before = this.current;
		await this.loadSettings();
		await this.applyChanges(before);
	}

	private async applyChanges(before: RelaySettings): Promise<void> {
		const after = this.current;
		if (before.extraAgentFolders.join("\n") !== after.extraAgentFolders.join("\n") || before.rootFolder !== after.rootFolder) {
			if (this.app.workspace.layoutReady) this.agents.rescan();
		}
		if (before.rootFolder !== after.rootFolder || before.graceSeconds !== after.graceSeconds || (!before.autoRoute && after.autoRoute)) {
			if (this.app.workspace.layoutReady) await this.relay.applySettings();
		}
	}
}
