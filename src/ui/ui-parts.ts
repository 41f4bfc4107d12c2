import type { App } from "obsidian";
import type { ActionVault } from "../actions/vault";
import type { AgentStore } from "../obsidian/agent-store";
import type { ComposedMessages } from "../obsidian/composed-messages";
import type { RelayState } from "../obsidian/relay-state";
import type { SettingsStore } from "../obsidian/settings-store";
import type { PassReport } from "../router/router";

// The parts a view, a menu, a modal or a command may be given, built once in src/plugin/start.ts.
// Each user names the ones it uses (Pick<UiParts, ...>), so what it depends on is in its signature.

export interface UiParts {
	app: App;
	state: RelayState;
	settings: SettingsStore;
	agents: Pick<AgentStore, "get">;
	vault: ActionVault;
	/** The message_ids written in this app (their problems notify). */
	composed: ComposedMessages;
	/** One full routing sweep now. */
	routeNow(): Promise<PassReport>;
}

/** The hover-link source of the plugin's views (Settings > Page preview lists it). */
export const HOVER_SOURCE = "a2a-relay";
