import type { Plugin } from "obsidian";
import { normalizeSettings } from "../settings";
import type { RelaySettings } from "../settings";

// The plugin's settings as saved in data.json: read once before anything is built, changed and
// saved one change at a time (two saves racing could leave data.json half written), and read
// again when sync changes the file. Listeners hear of each change, with the settings before it.

export type SettingsListener = (before: RelaySettings, after: RelaySettings) => void | Promise<void>;

export class SettingsStore {
	private value: RelaySettings;
	private queue: Promise<void> = Promise.resolve();
	private readonly listeners: SettingsListener[] = [];

	private constructor(
		private readonly plugin: Plugin,
		initial: RelaySettings,
	) {
		this.value = initial;
	}

	static async load(plugin: Plugin): Promise<SettingsStore> {
		return new SettingsStore(plugin, normalizeSettings(await plugin.loadData()));
	}

	get current(): RelaySettings {
		return this.value;
	}

	onChange(listener: SettingsListener): void {
		this.listeners.push(listener);
	}

	/** Saves and applies a change; the promise resolves once listeners have applied it. */
	update(change: Partial<RelaySettings>): Promise<void> {
		return this.enqueue(async () => {
			const before = this.value;
			this.value = normalizeSettings({ ...before, ...change });
			const settings = this.value;
			await this.plugin.saveData(settings).catch((error: unknown) => console.error("A2A Relay: could not save the settings", error));
			await this.tell(before);
		});
	}

	/** The settings file changed outside Obsidian (sync): read it again and apply it. */
	reload(): Promise<void> {
		return this.enqueue(async () => {
			const before = this.value;
			this.value = normalizeSettings(await this.plugin.loadData());
			await this.tell(before);
		});
	}

	private enqueue(work: () => Promise<void>): Promise<void> {
		this.queue = this.queue.then(work).catch((error: unknown) => console.error("A2A Relay: could not apply the settings", error));
		return this.queue;
	}

	private async tell(before: RelaySettings): Promise<void> {
		for (const listener of this.listeners) await listener(before, this.value);
	}
}
