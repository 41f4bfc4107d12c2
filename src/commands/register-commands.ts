import type { Plugin } from "obsidian";
import { openAgentStatus } from "../ui/agent-status-view";
import { COMMAND_NAMES } from "../ui/strings";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";
import { composeMessageCommand } from "./compose-message";
import { initVaultCommand } from "./init-vault";
import { appendFindingCommand, exportTraceCommand, forwardMessageCommand, replyToMessageCommand, retryDeadLetterCommand, setAgentStatusCommand, showTraceCommand } from "./message-commands";
import { newAgentCommand } from "./new-agent";
import { routeNowCommand } from "./route-now";

/** Registers every command of the palette (no default hotkeys; each available only where it applies). */
export function registerCommands(plugin: Plugin, parts: CommandParts): void {
	plugin.addCommand({ id: COMMAND_IDS.openAgentStatus, name: COMMAND_NAMES.openAgentStatus, icon: "radio-tower", callback: () => openAgentStatus(plugin.app) });
	for (const command of [
		composeMessageCommand(parts),
		replyToMessageCommand(parts),
		forwardMessageCommand(parts),
		showTraceCommand(parts),
		exportTraceCommand(parts),
		routeNowCommand(parts),
		newAgentCommand(parts),
		setAgentStatusCommand(parts),
		appendFindingCommand(parts),
		retryDeadLetterCommand(parts),
		initVaultCommand(parts),
	]) {
		plugin.addCommand(command);
	}
}
