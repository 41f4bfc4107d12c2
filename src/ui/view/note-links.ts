import { Keymap } from "obsidian";
import type { App, Component } from "obsidian";

// One delegated listener opens every note link of the view (`data-open-path`): a plain click opens
// the note in place, Mod-click (or a middle click) in a new tab, like Obsidian's own links.

export function handleNoteLinks(component: Component, app: App, container: HTMLElement): void {
	const open = (evt: MouseEvent): void => {
		const target = evt.target instanceof Element ? evt.target.closest<HTMLElement>("[data-open-path]") : null;
		if (!target || !container.contains(target)) return;
		if (evt.type === "auxclick" && evt.button !== 1) return;
		evt.preventDefault();
		const path = target.getAttribute("data-open-path");
		if (path) void app.workspace.openLinkText(path, "", Keymap.isModEvent(evt));
	};
	component.registerDomEvent(container, "click", open);
	component.registerDomEvent(container, "auxclick", open);
}
