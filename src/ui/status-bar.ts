import { Platform } from "obsidian";
import type { Plugin } from "obsidian";
import type { RelayState } from "../obsidian/relay-state";
import { VIEW_TEXT } from "./strings";

// The status bar counter (desktop: phones have no status bar): "2 in flight · 1 overdue · 3 dead",
// kept current from the relay's changes (a request becomes overdue when the relay wakes for it at
// its expiry, so no timer of its own is needed); a click opens the view.

export function registerStatusBar(plugin: Plugin, state: RelayState, open: () => void): void {
	if (!Platform.isDesktop) return;
	const el = plugin.addStatusBarItem();
	el.addClass("a2a-status-bar", "mod-clickable");
	el.setAttr("role", "button");
	el.setAttr("tabindex", "0");
	const update = () => {
		const queues = state.queues();
		const inFlight = queues.groups.reduce((n, g) => n + g.inFlight, 0);
		const overdue = queues.groups.reduce((n, g) => n + g.overdue, 0);
		const text = VIEW_TEXT.flow(inFlight, overdue, queues.deadLetters);
		if (el.textContent !== text) el.setText(text);
		el.toggleClass("a2a-has-problems", overdue > 0 || queues.deadLetters > 0);
	};
	plugin.registerDomEvent(el, "click", open);
	plugin.registerDomEvent(el, "keydown", (evt) => {
		if (evt.key !== "Enter" && evt.key !== " ") return;
		evt.preventDefault();
		open();
	});
	plugin.registerEvent(state.onChanged(update));
	update();
}
