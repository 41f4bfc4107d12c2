import type { Command } from "obsidian";
import { activeInboxRequest } from "../obsidian/active-note";
import { ReplyModal } from "../ui/modals/reply-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Reply to message: the response to the request open in a group's inbox.

export function replyToMessageCommand({ app, state, vault }: Pick<CommandParts, "app" | "state" | "vault">): Command {
	return {
		id: COMMAND_IDS.replyToMessage,
		name: "Reply to message",
		icon: "reply",
		checkCallback: (checking) => {
			const target = activeInboxRequest(app, state);
			if (!target) return false;
			if (!checking) new ReplyModal(app, state, vault, target).open();
			return true;
		},
	};
}
