import * as path from "node:path";
import { normalizeSettings } from "../src/settings";
import { readConfigText } from "./file-ops";
import type { RelaySettings } from "../src/settings";

// The CLI reads the plugin's own settings from the vault when they are there, cleaned by the
// plugin's own normalizeSettings (same defaults, same limits), so `a2a status` sees the same agent
// folders and stale limit as the sidebar.

/** Obsidian's config folder in a vault, unless a device names another (the CLI cannot know that). */
export const CONFIG_FOLDER = ".obsidian";

export async function readPluginSettings(vaultDir: string): Promise<RelaySettings> {
	let data: unknown = {};
	try {
		data = JSON.parse((await readConfigText(path.join(vaultDir, CONFIG_FOLDER, "plugins", "a2a-relay", "data.json"))) ?? "{}");
	} catch {
		// No plugin settings in this vault (or unreadable ones): the defaults apply.
	}
	return normalizeSettings(data);
}

/**
 * Whether Obsidian Sync is switched on in this vault: its core plugin `sync` is enabled in
 * `.obsidian/core-plugins.json` (a list of enabled ids, or a mapping of id to on/off in newer
 * versions). The one sync service known to skip `.yaml` files by default.
 */
export async function obsidianSyncOn(vaultDir: string): Promise<boolean> {
	let data: unknown;
	try {
		data = JSON.parse((await readConfigText(path.join(vaultDir, CONFIG_FOLDER, "core-plugins.json"))) ?? "null");
	} catch {
		return false;
	}
	if (Array.isArray(data)) return data.includes("sync");
	return typeof data === "object" && data !== null && (data as Record<string, unknown>).sync === true;
}
