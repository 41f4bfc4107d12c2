import { Notice } from "obsidian";
import type { Command } from "obsidian";
import type { Outcome } from "../core/protocol";
import type { PassReport } from "../router/router";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// Route now: one full sweep, and a notice saying what it did.

const OUTCOME_WORDS: Record<Outcome, string> = {
	delivered: "delivered",
	answered: "answered",
	late: "answered late",
	forwarded: "forwarded",
	rejected: "rejected",
	duplicate: "duplicate",
	retried: "retried",
	timed_out: "timed out",
	ignored: "ignored",
};

/** "Routed 3 messages: 2 delivered, 1 rejected", "Nothing to route", or why nothing ran. */
function describePass(report: PassReport, registryUsable: boolean): string {
	if (report.busy) return `Not routing on this device: ${report.standby ?? "another router routes this vault"}.`;
	if (!registryUsable) return "Nothing routed: the registry is missing or unreadable. Run Initialize A2A vault, or fix registry.yaml.";
	const counts = new Map<Outcome, number>();
	for (const d of report.decisions) counts.set(d.outcome, (counts.get(d.outcome) ?? 0) + 1);
	const routed = report.decisions.filter((d) => d.outcome !== "ignored").length;
	const ignored = counts.get("ignored") ?? 0;
	const waiting = report.waiting.length > 0 ? ` ${report.waiting.length} still being written.` : "";
	if (routed === 0) return `Nothing to route${ignored > 0 ? ` (${ignored} ignored)` : ""}.${waiting}`;
	const parts = (Object.keys(OUTCOME_WORDS) as Outcome[]).filter((o) => o !== "ignored" && counts.has(o)).map((o) => `${counts.get(o) ?? 0} ${OUTCOME_WORDS[o]}`);
	return `Routed ${routed} ${routed === 1 ? "message" : "messages"}: ${parts.join(", ")}${ignored > 0 ? ` (${ignored} ignored)` : ""}.${waiting}`;
}

export function routeNowCommand({ state, routeNow }: Pick<CommandParts, "state" | "routeNow">): Command {
	return {
		id: COMMAND_IDS.routeNow,
		name: "Route now",
		icon: "send",
		callback: async () => {
			const report = await routeNow();
			new Notice(describePass(report, state.registry().usable));
		},
	};
}
