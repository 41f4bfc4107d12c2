import { Platform } from "obsidian";
import type { Plugin } from "obsidian";
import type { RelayState } from "../obsidian/relay-state";
import { VIEW_TEXT } from "./strings";

// The status bar item (desktop: phones have no status bar) shows only what needs attention
// ("1 overdue · 3 not delivered") and is hidden when nothing does; a coloured dot marks it, the
// text stays in the bar's own colour. Kept current from the relay's changes (a request becomes
// overdue when the relay wakes for it at its expiry, so no timer of its own is needed); a click
// opens the view.

export function registerStatusBar(plugin: Plugin, state: RelayState, open: () => void): void {
	if (!Platform.isDesktop) return;
	const el = plugin.addStatusBarItem();
	el.addClass("a2a-status-bar", "mod-clickable");
	el.setAttr("role", "button");
	el.setAttr("tabindex", "0");
	el.setAttr("title", VIEW_TEXT.attentionTitle);
	const update = () => {
		const queues = state.queues();
		const overdue = queues.groups.reduce((n, g) => n + g.overdue, 0);
		const text = VIEW_TEXT.attention(overdue, queues.deadLetters);
		if (el.textContent !== text) el.setText(text);
		el.toggleClass("a2a-has-problems", text !== "");
		el.toggleClass("a2a-hidden", text === "");
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
