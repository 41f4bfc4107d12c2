import type { App, Plugin } from "obsidian";
import { Notice } from "obsidian";
import { initVaultInApp } from "../commands/init-vault";
import { registerCommands } from "../commands/register-commands";
import { ObsidianActionVault } from "../obsidian/action-vault";
import { AgentStore } from "../obsidian/agent-store";
import { ComposedMessages } from "../obsidian/composed-messages";
import { ObsidianVault } from "../obsidian/obsidian-vault";
import { Relay } from "../obsidian/relay";
import { relayState } from "../obsidian/relay-state";
import { SettingsStore } from "../obsidian/settings-store";
import type { RelaySettings } from "../settings";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS, openAgentStatus } from "../ui/agent-status-view";
import { registerMessageHeader } from "../ui/message-header";
import { NewAgentModal } from "../ui/modals/new-agent-modal";
import { addNoteActions, noteActions, openRetry } from "../ui/note-actions";
import { registerNoteMenus } from "../ui/note-menus";
import { DecisionNotices } from "../ui/notices/decision-notices";
import { openCompose } from "../ui/open-compose";
import { registerRibbonMenu } from "../ui/ribbon-menu";
import { RelaySettingTab } from "../ui/settings-tab";
import { registerStatusBar } from "../ui/status-bar";
import { exportTrace } from "../ui/trace/export-trace";
import { TraceView, VIEW_TYPE_TRACE } from "../ui/trace/trace-view";
import { HOVER_SOURCE } from "../ui/ui-parts";
import type { UiParts } from "../ui/ui-parts";
import type { ViewActions } from "../ui/view/view-actions";
import { describePass } from "../ui/pass-words";

// The composition root: the settings are read first, then each part is built once and handed only
// what it needs. The relay, the agent store and the decision notices are child components of the
// plugin (unloaded with it); they touch the vault only once the workspace layout is ready. Nothing
// here keeps a reference to a view.

/** The parts the plugin keeps: the settings (for external changes) and the stateful components. */
export interface PluginParts {
	settings: SettingsStore;
	relay: Relay;
	agents: AgentStore;
}

export async function startPlugin(plugin: Plugin): Promise<PluginParts> {
	const { app } = plugin;
	const settings = await SettingsStore.load(plugin);
	// One vault port for the router and the commands: two would not see each other's reserved names.
	const port = new ObsidianVault(app);
	// The copy of the history index lives in the plugin's own folder (never a note, never routed).
	const historyFolder = `${plugin.manifest.dir ?? `${app.vault.configDir}/plugins/${plugin.manifest.id}`}/history-index`;
	const relay = plugin.addChild(new Relay(app, () => settings.current, port, historyFolder));
	const agents = plugin.addChild(new AgentStore(app, () => settings.current));
	settings.onChange((before, after) => applySettings(app, relay, agents, before, after));
	const state = relayState(relay);
	const vault = new ObsidianActionVault(app, port);
	const composed = new ComposedMessages(app);
	const parts: UiParts = { app, state, settings, agents, vault, composed, routeNow: () => notices.manualPass(() => relay.routeNow()) };
	const notices = plugin.addChild(new DecisionNotices(app, state, () => settings.current, composed, (file) => void openRetry(parts, file)));

	const routeNowWithNotice = async () => new Notice(describePass(await parts.routeNow(), state.registry().usable));
	const viewActions: ViewActions = {
		compose: () => openCompose(parts),
		routeNow: () => void routeNowWithNotice(),
		initVault: () => void initVaultInApp(parts),
		newAgent: () => new NewAgentModal(app, state, settings, vault).open(),
		openSettings: () => openSettingsTab(app, plugin.manifest.id),
		retry: (file) => void openRetry(parts, file),
		noteMenu: (menu, file) => addNoteActions(menu, noteActions(parts, file)),
	};
	plugin.registerView(VIEW_TYPE_AGENT_STATUS, (leaf) => new AgentStatusView(leaf, state, agents, settings, viewActions));
	plugin.registerView(VIEW_TYPE_TRACE, (leaf) => new TraceView(leaf, state, viewActions.noteMenu, (traceId) => void exportTrace(parts, traceId)));
	plugin.registerHoverLinkSource(HOVER_SOURCE, { display: "A2A Relay", defaultMod: true });
	registerRibbonMenu(plugin, { compose: viewActions.compose, routeNow: viewActions.routeNow, openStatus: () => void openAgentStatus(app) });
	registerStatusBar(plugin, state, () => void openAgentStatus(app));
	registerCommands(plugin, parts);
	registerNoteMenus(plugin, parts);
	registerMessageHeader(plugin, state);
	plugin.addSettingTab(new RelaySettingTab(app, plugin, settings, state, vault));
	app.workspace.onLayoutReady(() => void showOnce(app, settings));
	return { settings, relay, agents };
}

/** The view opens by itself once, the first time the plugin runs, so a new user finds it. */
async function showOnce(app: App, settings: SettingsStore): Promise<void> {
	if (settings.current.viewShown) return;
	await settings.update({ viewShown: true });
	await openAgentStatus(app);
}

/** Opens this plugin's tab of the settings (an API Obsidian has but does not type). */
function openSettingsTab(app: App, id: string): void {
	const setting = (app as unknown as { setting?: { open(): void; openTabById(id: string): unknown } }).setting;
	setting?.open();
	setting?.openTabById(id);
}

/** A new root or agent folder rescans the agents; a new root, grace period or routing switched on rebuilds the relay. */
async function applySettings(app: App, relay: Relay, agents: AgentStore, before: RelaySettings, after: RelaySettings): Promise<void> {
	if (!app.workspace.layoutReady) return;
	if (before.extraAgentFolders.join("\n") !== after.extraAgentFolders.join("\n") || before.rootFolder !== after.rootFolder) agents.rescan();
	const routing = before.routeOnDevice !== after.routeOnDevice || before.syncMarginSeconds !== after.syncMarginSeconds || before.deviceName !== after.deviceName;
	if (before.rootFolder !== after.rootFolder || before.graceSeconds !== after.graceSeconds || routing || (!before.autoRoute && after.autoRoute)) await relay.applySettings();
}
