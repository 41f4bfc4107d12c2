import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { describeInit, initVault } from "../actions/init-vault";
import { COMMAND_NAMES } from "../ui/strings";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Create registry and group folders (the command once named Initialize A2A vault): registry.yaml,
// every missing folder of the layout and the bases (never overwrites).

export function initVaultCommand({ settings, vault }: Pick<CommandParts, "settings" | "vault">): Command {
	return {
		id: COMMAND_IDS.initVault,
		name: COMMAND_NAMES.initVault,
		icon: "folder-plus",
		callback: async () => {
			const result = await initVault(vault, settings.current.rootFolder);
			new Notice(describeInit(result), 8000);
		},
	};
}
