import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { describePass } from "../ui/pass-words";
import { COMMAND_NAMES } from "../ui/strings";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Route now: one full sweep, and a notice saying what it did.

export function routeNowCommand({ state, routeNow }: Pick<CommandParts, "state" | "routeNow">): Command {
	return {
		id: COMMAND_IDS.routeNow,
		name: COMMAND_NAMES.routeNow,
		icon: "send",
		callback: async () => {
			const report = await routeNow();
			new Notice(describePass(report, state.registry().usable));
		},
	};
}
