import type { Command } from "obsidian";
import type { RelayServices } from "../services";
import { TraceModal } from "../ui/modals/trace-modal";
import { COMMAND_IDS } from "./command-ids";
import { activeTracedMessage } from "./context";

// Show trace: every message of the active message's trace, in order.

export function showTraceCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.showTrace,
		name: "Show trace",
		icon: "git-commit-horizontal",
		checkCallback: (checking) => {
			const target = activeTracedMessage(services);
			if (!target?.entry.traceId) return false;
			if (!checking) new TraceModal(services, target.entry.traceId, target.file.path).open();
			return true;
		},
	};
}
