import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { initVault } from "../actions/init-vault";
import { propertyTypesFile } from "../obsidian/property-types-file";
import { describeInit } from "../ui/init-words";
import { COMMAND_NAMES } from "../ui/strings";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Create registry and group folders: registry.yaml,
// every missing folder of the layout, the bases and the property types (never overwrites).

/** Runs init as the settings say (root folder, extra agent folders) and says what it made. */
export async function initVaultInApp({ app, settings, vault }: Pick<CommandParts, "app" | "settings" | "vault">): Promise<void> {
	const { rootFolder, extraAgentFolders } = settings.current;
	const result = await initVault(vault, rootFolder, { extraAgentFolders, propertyTypes: propertyTypesFile(app) });
	new Notice(describeInit(result), 8000);
}

export function initVaultCommand(parts: Pick<CommandParts, "app" | "settings" | "vault">): Command {
	return {
		id: COMMAND_IDS.initVault,
		name: COMMAND_NAMES.initVault,
		icon: "folder-plus",
		callback: () => initVaultInApp(parts),
	};
}
