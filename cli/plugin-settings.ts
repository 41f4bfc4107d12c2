import { promises as fs } from "node:fs";
import * as path from "node:path";
import { safeRelativeFolder } from "../src/core/paths";

// The CLI reads the plugin's own settings from the vault when they are there, so `a2a status` sees
// the same agent folders and stale limit as the sidebar.

export interface SharedSettings {
	extraAgentFolders: string[];
	staleMinutes: number;
}

export async function readPluginSettings(vaultDir: string): Promise<SharedSettings> {
	const settings: SharedSettings = { extraAgentFolders: [], staleMinutes: 5 };
	try {
		const data = JSON.parse(await fs.readFile(path.join(vaultDir, ".obsidian", "plugins", "a2a-relay", "data.json"), "utf8")) as Record<string, unknown>;
		if (Array.isArray(data.extraAgentFolders)) {
			settings.extraAgentFolders = data.extraAgentFolders.map((f) => (typeof f === "string" ? safeRelativeFolder(f) : null)).filter((f): f is string => f !== null);
		}
		if (typeof data.staleMinutes === "number" && data.staleMinutes > 0) settings.staleMinutes = data.staleMinutes;
	} catch {
		// No plugin settings in this vault: the defaults apply.
	}
	return settings;
}
