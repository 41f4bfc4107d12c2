import type { Command } from "obsidian";
import { ComposeModal } from "../ui/modals/compose-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Compose message: a new request from one group to another (available once the registry has groups).

export function composeMessageCommand({ app, state, settings, vault }: Pick<CommandParts, "app" | "state" | "settings" | "vault">): Command {
	return {
		id: COMMAND_IDS.composeMessage,
		name: "Compose message",
		icon: "mail-plus",
		checkCallback: (checking) => {
			if (state.layout().groupIds().length === 0) return false;
			if (!checking) new ComposeModal(app, state, settings, vault).open();
			return true;
		},
	};
}
