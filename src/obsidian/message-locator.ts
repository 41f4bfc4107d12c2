import { TFile } from "obsidian";
import type { App } from "obsidian";
import type { IndexEntry } from "../core/message-index";
import { basename } from "../core/paths";
import type { RelayState } from "./relay-state";

// Where a message is NOW. A link in the sidebar, a notice or the log names a message as it was at
// the moment of an event (its message_id, its path then, its file name); the router moves notes on
// (inbox to archive, outbox to inbox, to the dead-letter folder) and keeps their names. So a link
// is resolved when it is clicked: by message_id through the index, else by the path it had, else
// by its file name among the A2A folders. Nothing is ever created: a message that is gone is null.

export interface MessageRef {
	messageId?: string;
	/** The path the message had when the link was made. */
	path?: string;
	/** Its file name (the routing log names notes by name). */
	name?: string;
}

function existing(app: App, path: string): TFile | null {
	const file = app.vault.getAbstractFileByPath(path);
	return file instanceof TFile ? file : null;
}

/** Of several notes with one message_id (an original and its duplicate), the one the link meant. */
function rank(entry: IndexEntry, ref: MessageRef): number {
	const name = ref.name ?? (ref.path ? basename(ref.path) : undefined);
	let score = 0;
	if (entry.path === ref.path) score += 4;
	if (name !== undefined && basename(entry.path) === name) score += 2;
	if (ref.path !== undefined && entry.location.area === "dead-letter" && ref.path.includes("/dead-letter/")) score += 1;
	return score;
}

export function locateMessage(app: App, state: RelayState, ref: MessageRef): TFile | null {
	if (ref.messageId) {
		const found = state
			.index()
			.withId(ref.messageId)
			.map((entry) => ({ entry, file: existing(app, entry.path) }))
			.filter((c): c is { entry: IndexEntry; file: TFile } => c.file !== null)
			.sort((a, b) => rank(b.entry, ref) - rank(a.entry, ref));
		if (found[0]) return found[0].file;
	}
	if (ref.path) {
		const file = existing(app, ref.path);
		const entry = file ? state.index().get(file.path) : undefined;
		// The path may hold another message by now: only a note of the same message (or one without an id) is it.
		if (file && (!ref.messageId || !entry?.messageId || entry.messageId === ref.messageId)) return file;
	}
	const name = ref.name ?? (ref.path ? basename(ref.path) : undefined);
	if (!name) return null;
	const root = `${state.layout().root}/`;
	return app.vault.getFiles().find((f) => f.name === name && f.path.startsWith(root)) ?? null;
}
