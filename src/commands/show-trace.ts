import type { Command } from "obsidian";
import { activeTracedMessage } from "../obsidian/active-note";
import { TraceModal } from "../ui/modals/trace-modal";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Show trace: every message of the active message's trace, in order.

export function showTraceCommand({ app, state }: Pick<CommandParts, "app" | "state">): Command {
	return {
		id: COMMAND_IDS.showTrace,
		name: "Show trace",
		icon: "git-commit-horizontal",
		checkCallback: (checking) => {
			const target = activeTracedMessage(app, state);
			if (!target?.entry.traceId) return false;
			if (!checking) new TraceModal(app, state, target.entry.traceId, target.file.path).open();
			return true;
		},
	};
}
