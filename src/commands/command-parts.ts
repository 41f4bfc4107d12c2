import type { App } from "obsidian";
import type { ActionVault } from "../actions/vault";
import type { AgentStore } from "../obsidian/agent-store";
import type { RelayState } from "../obsidian/relay-state";
import type { SettingsStore } from "../obsidian/settings-store";
import type { PassReport } from "../router/router";

// The parts a command may be given. Each command names the ones it uses (Pick<CommandParts, ...>),
// so what it depends on is in its signature.

export interface CommandParts {
	app: App;
	state: RelayState;
	settings: SettingsStore;
	agents: Pick<AgentStore, "get">;
	vault: ActionVault;
	/** One full routing sweep now. */
	routeNow(): Promise<PassReport>;
}
