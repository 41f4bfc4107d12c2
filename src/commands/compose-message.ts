import type { Command } from "obsidian";
import { openCompose } from "../ui/open-compose";
import { COMMAND_NAMES } from "../ui/strings";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Compose message…: a new request from one group to another. Always in the palette, so it can be
// found before the vault is set up: without two groups it says what is missing instead.

export function composeMessageCommand(parts: Pick<CommandParts, "app" | "state" | "settings" | "vault" | "composed">): Command {
	return {
		id: COMMAND_IDS.composeMessage,
		name: COMMAND_NAMES.composeMessage,
		icon: "mail-plus",
		callback: () => openCompose(parts),
	};
}
