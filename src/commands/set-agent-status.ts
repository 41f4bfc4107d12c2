import { Notice } from "obsidian";
import type { Command, TFile } from "obsidian";
import { applyAgentUpdate } from "../core/agent-notes";
import { isKnownStatus, legalNextStates } from "../core/lifecycle";
import type { AgentView } from "../obsidian/agent-store";
import type { RelayServices } from "../services";
import { parseNumber } from "../ui/modals/form";
import { AgentStatusModal } from "../ui/modals/agent-status-modal";
import { COMMAND_IDS } from "./command-ids";
import { activeAgent } from "./context";
import type { FieldErrors } from "./message-check";

// Set agent status: a lifecycle move that is legal from the agent's state, with progress and the
// last action, written in one processFrontMatter call (which also sets `updated`).

export interface AgentStatusValues {
	status: string;
	progress: string;
	lastAction: string;
}

export type PlannedStatus = { ok: true; updates: [string, unknown][] } | { ok: false; errors: FieldErrors };

export function planAgentStatus(agent: AgentView, frontmatter: Record<string, unknown>, values: AgentStatusValues, now: number): PlannedStatus {
	const errors: FieldErrors = {};
	const legal = legalNextStates(agent.status);
	if (!(legal as readonly string[]).includes(values.status)) errors.status = `Choose one of ${legal.join(", ")}.`;
	const updates: [string, unknown][] = [["status", values.status]];
	if (values.progress.trim() !== "") {
		const progress = parseNumber(values.progress);
		if (progress === null) errors.progress = "Enter a number from 0 to 100.";
		else updates.push(["progress_percent", progress]);
	}
	if (values.lastAction.trim() !== "") updates.push(["last_action", values.lastAction.trim()]);
	if (Object.keys(errors).length > 0) return { ok: false, errors };
	// A dry run on a copy: the core's warnings about the values are the form's errors.
	const warnings = applyAgentUpdate(structuredClone(frontmatter), updates, now);
	for (const warning of warnings) {
		if (warning.startsWith("progress_percent")) errors.progress ??= "Enter a number from 0 to 100.";
		else errors.status ??= warning;
	}
	if (Object.keys(errors).length > 0) return { ok: false, errors };
	return { ok: true, updates };
}

export async function writeAgentStatus(services: RelayServices, file: TFile, updates: [string, unknown][], now: number): Promise<void> {
	await services.app.fileManager.processFrontMatter(file, (fm: Record<string, unknown>) => {
		applyAgentUpdate(fm, updates, now);
	});
}

function open(services: RelayServices, file: TFile, agent: AgentView): void {
	const legal = legalNextStates(agent.status);
	if (legal.length === 0) {
		new Notice(
			isKnownStatus(agent.status)
				? `${agent.name} is ${agent.status}, a final status: there is no next status to move to.`
				: `${agent.name} has the status "${agent.status}", which is not in the lifecycle: there is no legal next status.`,
		);
		return;
	}
	new AgentStatusModal(services, file, agent, legal).open();
}

export function setAgentStatusCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.setAgentStatus,
		name: "Set agent status",
		icon: "activity",
		checkCallback: (checking) => {
			const target = activeAgent(services);
			if (!target) return false;
			if (!checking) open(services, target.file, target.agent);
			return true;
		},
	};
}
