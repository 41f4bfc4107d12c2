import type { App, Plugin } from "obsidian";
import { registerCommands } from "../commands/register-commands";
import { ObsidianActionVault } from "../obsidian/action-vault";
import { AgentStore } from "../obsidian/agent-store";
import { ObsidianVault } from "../obsidian/obsidian-vault";
import { Relay } from "../obsidian/relay";
import { relayState } from "../obsidian/relay-state";
import { SettingsStore } from "../obsidian/settings-store";
import type { RelaySettings } from "../settings";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS, openAgentStatus } from "../ui/agent-status-view";
import { RelaySettingTab } from "../ui/settings-tab";

// The composition root: the settings are read first, then each part is built once and handed only
// what it needs. The relay and the agent store are child components of the plugin (unloaded with
// it); they touch the vault only once the workspace layout is ready. Nothing here keeps a
// reference to a view.

/** The parts the plugin keeps: the settings (for external changes) and the two stateful components. */
export interface PluginParts {
	settings: SettingsStore;
	relay: Relay;
	agents: AgentStore;
}

export async function startPlugin(plugin: Plugin): Promise<PluginParts> {
	const { app } = plugin;
	const settings = await SettingsStore.load(plugin);
	const relay = plugin.addChild(new Relay(app, () => settings.current));
	const agents = plugin.addChild(new AgentStore(app, () => settings.current));
	settings.onChange((before, after) => applySettings(app, relay, agents, before, after));
	const state = relayState(relay);
	const vault = new ObsidianActionVault(app, new ObsidianVault(app));
	plugin.registerView(VIEW_TYPE_AGENT_STATUS, (leaf) => new AgentStatusView(leaf, state, agents, settings));
	plugin.addRibbonIcon("radio-tower", "Open agent status", () => void openAgentStatus(app));
	registerCommands(plugin, { app, state, settings, agents, vault, routeNow: () => relay.routeNow() });
	plugin.addSettingTab(new RelaySettingTab(app, plugin, settings));
	return { settings, relay, agents };
}

/** A new root or agent folder rescans the agents; a new root, grace period or routing switched on rebuilds the relay. */
async function applySettings(app: App, relay: Relay, agents: AgentStore, before: RelaySettings, after: RelaySettings): Promise<void> {
	if (!app.workspace.layoutReady) return;
	if (before.extraAgentFolders.join("\n") !== after.extraAgentFolders.join("\n") || before.rootFolder !== after.rootFolder) agents.rescan();
	if (before.rootFolder !== after.rootFolder || before.graceSeconds !== after.graceSeconds || (!before.autoRoute && after.autoRoute)) await relay.applySettings();
}
