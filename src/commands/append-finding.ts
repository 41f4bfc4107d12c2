import type { Command } from "obsidian";
import { activeAgent } from "../obsidian/active-note";
import { FindingModal } from "../ui/modals/finding-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Append finding: a timestamped finding section at the end of the active agent note.

export function appendFindingCommand({ app, agents, vault }: Pick<CommandParts, "app" | "agents" | "vault">): Command {
	return {
		id: COMMAND_IDS.appendFinding,
		name: "Append finding",
		icon: "list-plus",
		checkCallback: (checking) => {
			const target = activeAgent(app, agents);
			if (!target) return false;
			if (!checking) new FindingModal(app, vault, target.file, target.agent.name).open();
			return true;
		},
	};
}
