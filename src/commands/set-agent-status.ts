import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { noNextStatus } from "../actions/set-status";
import { legalNextStates } from "../core/lifecycle";
import { activeAgent } from "../obsidian/active-note";
import { AgentStatusModal } from "../ui/modals/agent-status-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Set agent status: a lifecycle move that is legal from the active agent's status.

export function setAgentStatusCommand({ app, agents, vault }: Pick<CommandParts, "app" | "agents" | "vault">): Command {
	return {
		id: COMMAND_IDS.setAgentStatus,
		name: "Set agent status",
		icon: "activity",
		checkCallback: (checking) => {
			const target = activeAgent(app, agents);
			if (!target) return false;
			if (checking) return true;
			const why = noNextStatus(target.agent);
			if (why) new Notice(why);
			else new AgentStatusModal(app, vault, target.file, target.agent, legalNextStates(target.agent.status)).open();
			return true;
		},
	};
}
