import type { Plugin } from "obsidian";
import { openAgentStatus } from "../ui/agent-status-view";
import { appendFindingCommand } from "./append-finding";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";
import { composeMessageCommand } from "./compose-message";
import { forwardMessageCommand } from "./forward-message";
import { initVaultCommand } from "./init-vault";
import { newAgentCommand } from "./new-agent";
import { replyToMessageCommand } from "./reply-to-message";
import { retryDeadLetterCommand } from "./retry-dead-letter";
import { routeNowCommand } from "./route-now";
import { setAgentStatusCommand } from "./set-agent-status";
import { showTraceCommand } from "./show-trace";

/** Registers every command of the palette (no default hotkeys; each available only where it applies). */
export function registerCommands(plugin: Plugin, parts: CommandParts): void {
	plugin.addCommand({ id: COMMAND_IDS.openAgentStatus, name: "Open agent status", icon: "radio-tower", callback: () => void openAgentStatus(plugin.app) });
	for (const command of [
		composeMessageCommand(parts),
		replyToMessageCommand(parts),
		forwardMessageCommand(parts),
		showTraceCommand(parts),
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
