import { Notice } from "obsidian";
import type { Command, TFile } from "obsidian";
import { correctableFields, notRetryable, readDeadLetter } from "../actions/retry";
import { activeDeadLetter } from "../obsidian/active-note";
import { RetryModal } from "../ui/modals/retry-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Retry dead letter: puts the dead letter open in the editor back into its sender's outbox, after
// the fields that fail are corrected.

type Parts = Pick<CommandParts, "app" | "state" | "vault">;

async function open({ app, state, vault }: Parts, file: TFile): Promise<void> {
	const dl = readDeadLetter(file.path, await app.vault.read(file));
	const why = notRetryable(dl);
	if (why) {
		new Notice(why, 12000);
		return;
	}
	new RetryModal(app, state, vault, dl, correctableFields(state.routing(Date.now()), dl)).open();
}

export function retryDeadLetterCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.retryDeadLetter,
		name: "Retry dead letter",
		icon: "rotate-ccw",
		checkCallback: (checking) => {
			const file = activeDeadLetter(parts.app, parts.state);
			if (!file) return false;
			if (!checking) void open(parts, file);
			return true;
		},
	};
}
