import { MarkdownView } from "obsidian";
import type { App } from "obsidian";
import { Router } from "../router/router";
import type { RelaySettings } from "../settings";
import { deviceIdentity, localObservations } from "./device";
import { HistoryIndexFolder } from "./history-index-folder";
import type { ObsidianVault } from "./obsidian-vault";
import { RequestUrlRemoteAgents } from "./request-url-remote-agents";

// The router the relay runs, built from the settings as they are when it is built (new settings
// build another): this device's identity, Obsidian's timers and editors, requestUrl for remote
// groups, the plugin's copy of the history index.

/**
 * A router over the app's one vault port (the names a write reserves are seen by every other write
 * of this app); `historyFolder` is where the plugin keeps its copy of the history index, or null for none.
 */
export function relayRouter(app: App, settings: () => RelaySettings, port: ObsidianVault, historyFolder: string | null): Router {
	const s = settings();
	const yieldNow = () => new Promise<void>((resolve) => window.setTimeout(resolve, 0));
	return new Router(port, {
		root: s.rootFolder,
		graceMs: s.graceSeconds * 1000,
		identity: deviceIdentity(app, s),
		mode: () => settings().routeOnDevice,
		marginMs: s.syncMarginSeconds * 1000,
		observations: localObservations(app),
		isEditing: (path) => isOpenInEditor(app, path),
		yieldNow,
		historyCache: historyFolder === null ? undefined : new HistoryIndexFolder(app, historyFolder, s.rootFolder, yieldNow, `${historyFolder}.json`),
		remotes: { remotes: new RequestUrlRemoteAgents(app), timers: { set: (callback, ms) => window.setTimeout(callback, ms), clear: (handle) => window.clearTimeout(handle as number) } },
	});
}

/** True when a note is open in a Markdown editor: a person may still be writing it. */
function isOpenInEditor(app: App, path: string): boolean {
	let open = false;
	app.workspace.iterateAllLeaves((leaf) => {
		if (leaf.view instanceof MarkdownView && leaf.view.file?.path === path && leaf.view.getMode() === "source") open = true;
	});
	return open;
}
