import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { readForwardable } from "../actions/forward";
import { activeInboxRequest } from "../obsidian/active-note";
import type { ActiveInboxRequest } from "../obsidian/active-note";
import { ForwardModal } from "../ui/modals/forward-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Forward message: delegates the request open in a group's inbox to another group.

type Parts = Pick<CommandParts, "app" | "state" | "vault">;

/** Reads the request as a message; a notice says why when it cannot be forwarded. */
async function openForward({ app, state, vault }: Parts, target: ActiveInboxRequest): Promise<void> {
	const text = await app.vault.read(target.file);
	const read = readForwardable(text, target.file.path);
	if (!read.ok) {
		new Notice(read.why);
		return;
	}
	new ForwardModal(app, state, vault, target, read.request).open();
}

export function forwardMessageCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.forwardMessage,
		name: "Forward message",
		icon: "forward",
		checkCallback: (checking) => {
			const target = activeInboxRequest(parts.app, parts.state);
			if (!target) return false;
			if (!checking) void openForward(parts, target);
			return true;
		},
	};
}
