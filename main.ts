import { Plugin } from "obsidian";
import { registerCommands } from "./src/commands/register-commands";
import { RelayServices } from "./src/services";
import { RelaySettingTab } from "./src/ui/settings-tab";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS, openAgentStatus } from "./src/ui/agent-status-view";

// Lifecycle only: every piece is registered here and lives in src/.
export default class A2ARelayPlugin extends Plugin {
	services!: RelayServices;

	async onload(): Promise<void> {
		this.services = new RelayServices(this);
		await this.services.loadSettings();
		this.addChild(this.services.relay);
		this.addChild(this.services.agents);
		this.registerView(VIEW_TYPE_AGENT_STATUS, (leaf) => new AgentStatusView(leaf, this.services));
		this.addRibbonIcon("radio-tower", "Open agent status", () => void openAgentStatus(this.app));
		registerCommands(this, this.services);
		this.addSettingTab(new RelaySettingTab(this.app, this, this.services));
	}

	async onExternalSettingsChange(): Promise<void> {
		await this.services.reloadSettings();
	}
}
