import { Keymap, Menu, TFile } from "obsidian";
import type { App, Component, HoverParent } from "obsidian";
import { locateMessage } from "../obsidian/message-locator";
import type { MessageRef } from "../obsidian/message-locator";
import type { RelayState } from "../obsidian/relay-state";
import { ACTION_NAMES, VIEW_TEXT } from "./strings";
import { HOVER_SOURCE } from "./ui-parts";

// Every note link the plugin draws (sidebar rows, decisions, dead letters, the trace, notices): an
// element that names a message (`data-message-id`, `data-path`, `data-name`) or a note
// (`data-path`). One delegated set of listeners per container resolves the link when it is used,
// never before: a click opens the note where it is now with openFile (Mod-click or a middle click
// in a new tab), never through link text, so nothing is ever created and names with `#` or `|`
// open the file itself; hovering previews it (Page preview), the context menu offers the note's
// actions, and dragging it into a note drops a link to it.

export function noteLinkAttrs(ref: MessageRef): Record<string, string> {
	const attr: Record<string, string> = { href: "#", draggable: "true" };
	if (ref.messageId) attr["data-message-id"] = ref.messageId;
	if (ref.path) attr["data-path"] = ref.path;
	if (ref.name) attr["data-name"] = ref.name;
	return attr;
}

/** A link element for a message or note (resolved when used, see bindNoteLinks). */
export function noteLink(parent: HTMLElement, ref: MessageRef, text: string, cls = ""): HTMLElement {
	return parent.createEl("a", { cls: `a2a-note-link ${cls}`.trim(), text, attr: noteLinkAttrs(ref) });
}

function refOf(el: HTMLElement): MessageRef {
	return {
		messageId: el.getAttribute("data-message-id") ?? undefined,
		path: el.getAttribute("data-path") ?? undefined,
		name: el.getAttribute("data-name") ?? undefined,
	};
}

/** The file a link element means now, or null when it is gone. */
export function resolveLink(app: App, state: RelayState, el: HTMLElement): TFile | null {
	return locateMessage(app, state, refOf(el));
}

/** Opens a file in the active leaf, or a new tab / split (never creates anything). */
export async function openNote(app: App, file: TFile, newLeaf: ReturnType<typeof Keymap.isModEvent> = false): Promise<void> {
	await app.workspace.getLeaf(newLeaf).openFile(file);
}

/** Opens what a link element means now; a notice says so when it is gone. */
export async function openLinkTarget(app: App, state: RelayState, el: HTMLElement, newLeaf: ReturnType<typeof Keymap.isModEvent>, missing: (text: string) => void): Promise<void> {
	const file = resolveLink(app, state, el);
	if (file) await openNote(app, file, newLeaf);
	else missing(VIEW_TEXT.missingNote(el.getAttribute("data-name") ?? el.textContent ?? ""));
}

/** The menu entries every note link has: open in a new tab or to the right. */
export function addOpenItems(menu: Menu, app: App, file: TFile): void {
	menu.addItem((item) => item.setTitle(ACTION_NAMES.openInNewTab).setIcon("file-plus").setSection("open").onClick(() => void openNote(app, file, "tab")));
	menu.addItem((item) => item.setTitle(ACTION_NAMES.openToTheRight).setIcon("separator-vertical").setSection("open").onClick(() => void openNote(app, file, "split")));
}

export interface NoteLinkHandlers {
	/** What shows the hover preview (the view's leaf). */
	hoverParent: HoverParent;
	/** Adds the note's own actions to its context menu. */
	menu?: (menu: Menu, file: TFile) => void;
	/** Says that a link's note is gone (a notice). */
	missing: (text: string) => void;
}

export function bindNoteLinks(component: Component, app: App, state: RelayState, container: HTMLElement, handlers: NoteLinkHandlers): void {
	const linkOf = (evt: Event): HTMLElement | null => {
		const el = evt.target instanceof Element ? evt.target.closest<HTMLElement>("a.a2a-note-link") : null;
		return el && container.contains(el) ? el : null;
	};
	const open = (evt: MouseEvent): void => {
		const el = linkOf(evt);
		if (!el || (evt.type === "auxclick" && evt.button !== 1)) return;
		evt.preventDefault();
		void openLinkTarget(app, state, el, evt.type === "auxclick" ? "tab" : Keymap.isModEvent(evt), handlers.missing);
	};
	component.registerDomEvent(container, "click", open);
	component.registerDomEvent(container, "auxclick", open);
	// A right-click anywhere on a row (a decision, a dead letter, an agent) is one on its link.
	const rowLinkOf = (evt: Event): HTMLElement | null => {
		const row = evt.target instanceof Element ? evt.target.closest<HTMLElement>(".a2a-link-row, .a2a-agent-row") : null;
		return linkOf(evt) ?? (row && container.contains(row) ? row.querySelector<HTMLElement>("a.a2a-note-link") : null);
	};
	component.registerDomEvent(container, "contextmenu", (evt) => {
		const el = rowLinkOf(evt);
		const file = el ? resolveLink(app, state, el) : null;
		if (!file) return;
		evt.preventDefault();
		const menu = new Menu();
		addOpenItems(menu, app, file);
		handlers.menu?.(menu, file);
		menu.showAtMouseEvent(evt);
	});
	component.registerDomEvent(container, "mouseover", (evt) => {
		const el = linkOf(evt);
		const file = el ? resolveLink(app, state, el) : null;
		// A name with link syntax in it cannot be previewed by link text; it still opens on click.
		if (!el || !file || /[#^|[\]]/.test(file.path)) return;
		app.workspace.trigger("hover-link", { event: evt, source: HOVER_SOURCE, hoverParent: handlers.hoverParent, targetEl: el, linktext: file.path, sourcePath: "" });
	});
	component.registerDomEvent(container, "dragstart", (evt) => {
		const el = linkOf(evt);
		const file = el ? resolveLink(app, state, el) : null;
		if (!file || !evt.dataTransfer) return;
		evt.dataTransfer.setData("text/plain", app.fileManager.generateMarkdownLink(file, ""));
		evt.dataTransfer.effectAllowed = "copyLink";
	});
}
