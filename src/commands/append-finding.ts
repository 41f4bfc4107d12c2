import { Notice } from "obsidian";
import type { Command, TFile } from "obsidian";
import { appendFinding } from "../core/findings";
import type { Finding } from "../core/findings";
import { iso } from "../core/stamps";
import type { RelayServices } from "../services";
import { FindingModal } from "../ui/modals/finding-modal";
import { COMMAND_IDS } from "./command-ids";
import { activeAgent } from "./context";
import type { FieldErrors } from "./message-check";

// Append finding: a `## [ISO timestamp] ACTION` section with Context, Data, Decisions and Next
// steps, appended to the agent note in one vault.process.

export function planFinding(values: Finding): { ok: true; finding: Finding } | { ok: false; errors: FieldErrors } {
	const action = values.action.replace(/\s+/g, " ").trim();
	if (action === "") return { ok: false, errors: { action: "Name the action (it becomes the heading)." } };
	return { ok: true, finding: { ...values, action } };
}

export async function writeFinding(services: RelayServices, file: TFile, finding: Finding, now: number): Promise<void> {
	await services.app.vault.process(file, (text) => appendFinding(text, finding, iso(now)));
	new Notice(`Finding added to ${file.basename}.`);
}

export function appendFindingCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.appendFinding,
		name: "Append finding",
		icon: "list-plus",
		checkCallback: (checking) => {
			const target = activeAgent(services);
			if (!target) return false;
			if (!checking) new FindingModal(services, target.file, target.agent.name).open();
			return true;
		},
	};
}
