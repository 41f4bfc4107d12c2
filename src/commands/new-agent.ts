import type { Command } from "obsidian";
import { NewAgentModal } from "../ui/modals/new-agent-modal";
import { COMMAND_NAMES } from "../ui/strings";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Create agent note: an agent status note `<root>/agents/<name>.md` with status spawned.

export function newAgentCommand({ app, state, settings, vault }: Pick<CommandParts, "app" | "state" | "settings" | "vault">): Command {
	return {
		id: COMMAND_IDS.newAgent,
		name: COMMAND_NAMES.newAgent,
		icon: "bot",
		callback: () => new NewAgentModal(app, state, settings, vault).open(),
	};
}
