import { MarkdownView, TFile } from "obsidian";
import type { Plugin } from "obsidian";
import { addNoteActions, noteActions } from "./note-actions";
import type { NoteAction, Parts } from "./note-actions";

// The note's actions where the user is: its file menu (file explorer, tab header, links), the
// editor's context menu, and buttons in the header of the note's own view while it is open. The
// header buttons carry a class and are found again through the DOM: no view is referenced.

const HEADER_CLASS = "a2a-header-action";
/** The actions worth a button in the header (the menus have all of them). */
const HEADER_ACTIONS: ReadonlySet<NoteAction["id"]> = new Set(["reply", "forward", "retry", "show-trace", "set-status"]);

function syncHeader(parts: Parts, view: MarkdownView): void {
	const file = view.file;
	const actions = file ? noteActions(parts, file).filter((a) => HEADER_ACTIONS.has(a.id)) : [];
	const signature = `${file?.path ?? ""}|${actions.map((a) => a.id).join(",")}`;
	if (view.containerEl.getAttribute("data-a2a-actions") === signature) return;
	view.containerEl.setAttribute("data-a2a-actions", signature);
	for (const el of Array.from(view.containerEl.querySelectorAll(`.${HEADER_CLASS}`))) el.remove();
	// addAction puts each new button first: add them last to first to keep the menu's order.
	for (const action of actions.slice().reverse()) view.addAction(action.icon, action.title, () => action.run()).addClass(HEADER_CLASS);
}

function clearHeaders(plugin: Plugin): void {
	plugin.app.workspace.iterateAllLeaves((leaf) => {
		leaf.view.containerEl.removeAttribute("data-a2a-actions");
		for (const el of Array.from(leaf.view.containerEl.querySelectorAll(`.${HEADER_CLASS}`))) el.remove();
	});
}

export function registerNoteMenus(plugin: Plugin, parts: Parts): void {
	const { app } = plugin;
	plugin.registerEvent(
		app.workspace.on("file-menu", (menu, file) => {
			if (file instanceof TFile) addNoteActions(menu, noteActions(parts, file));
		}),
	);
	plugin.registerEvent(
		app.workspace.on("editor-menu", (menu, _editor, info) => {
			if (info.file) addNoteActions(menu, noteActions(parts, info.file));
		}),
	);
	const refresh = () =>
		app.workspace.iterateAllLeaves((leaf) => {
			if (leaf.view instanceof MarkdownView) syncHeader(parts, leaf.view);
		});
	plugin.registerEvent(app.workspace.on("file-open", refresh));
	plugin.registerEvent(app.workspace.on("layout-change", refresh));
	// A note's actions change as it is routed (a request answered has no Reply… any more).
	plugin.registerEvent(parts.state.onChanged(refresh));
	plugin.register(() => clearHeaders(plugin));
}
