import type { Plugin } from "obsidian";
import type { RelayServices } from "../services";
import { COMMAND_IDS } from "./command-ids";
import { openAgentStatus } from "../ui/agent-status-view";

/** PLACEHOLDER, being replaced: registers every command of the palette. */
export function registerCommands(plugin: Plugin, services: RelayServices): void {
	plugin.addCommand({ id: COMMAND_IDS.openAgentStatus, name: "Open agent status", callback: () => void openAgentStatus(plugin.app) });
	plugin.addCommand({
		id: COMMAND_IDS.routeNow,
		name: "Route now",
		callback: () => void services.relay.routeNow(),
	});
}
