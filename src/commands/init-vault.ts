import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { describeInit, initVault } from "../actions/init-vault";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Initialize A2A vault: registry.yaml and every missing folder of the layout (never overwrites).

export function initVaultCommand({ settings, vault }: Pick<CommandParts, "settings" | "vault">): Command {
	return {
		id: COMMAND_IDS.initVault,
		name: "Initialize A2A vault",
		icon: "folder-plus",
		callback: async () => {
			const result = await initVault(vault, settings.current.rootFolder);
			new Notice(describeInit(result), 8000);
		},
	};
}
