import { Notice } from "obsidian";
import type { App, Menu, TFile } from "obsidian";
import type { RelayState } from "../../obsidian/relay-state";
import { resolveLink } from "../note-links";
import { VIEW_TEXT } from "../strings";

// The view's buttons: every one carries its action in `data-a2a-action` (`actionButton` in
// flow-lists.ts), and one delegated listener on the view runs them. What they do the view is handed
// as callbacks, so it holds no plugin part.

/** What the view's buttons and menus do (built in src/plugin/start.ts). */
export interface ViewActions {
	compose: () => void;
	routeNow: () => void;
	initVault: () => void;
	newAgent: () => void;
	openSettings: () => void;
	retry: (file: TFile) => void;
	/** Adds a note's own actions (Reply…, Retry…, Set status…) to its context menu. */
	noteMenu: (menu: Menu, file: TFile) => void;
}

/** Runs a button of the view (`data-a2a-action`): one listener for all of them. `clearFilter` is the view's own. */
export function runViewAction(evt: MouseEvent, app: App, state: RelayState, actions: ViewActions, clearFilter: () => void): void {
	const button = evt.target instanceof Element ? evt.target.closest<HTMLElement>("[data-a2a-action]") : null;
	if (!button) return;
	evt.preventDefault();
	const action = button.getAttribute("data-a2a-action");
	if (action === "retry") {
		const link = button.closest(".a2a-link-row")?.querySelector<HTMLElement>("a.a2a-note-link");
		const file = link ? resolveLink(app, state, link) : null;
		if (file) actions.retry(file);
		else new Notice(VIEW_TEXT.missingNote(link?.textContent ?? ""));
	} else if (action === "init-vault") actions.initVault();
	else if (action === "open-settings") actions.openSettings();
	else if (action === "new-agent") actions.newAgent();
	else if (action === "compose") actions.compose();
	else if (action === "clear-filter") clearFilter();
}
