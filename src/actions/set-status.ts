import type { AgentRecord } from "../core/agent";
import { applyAgentUpdate } from "../core/agent-notes";
import { isKnownStatus, legalNextStates } from "../core/lifecycle";
import { updateFrontmatterText } from "../core/frontmatter";
import { editNote } from "../router/edit-note";
import type { VaultPort } from "../router/vault-port";
import { hasErrors } from "./form-errors";
import type { FieldErrors } from "./form-errors";
import { parseNumber } from "./input";

// Set agent status: a lifecycle move that is legal from the agent's state, with progress and the
// last action, written in one frontmatter edit (which also sets `updated`).

export interface AgentStatusValues {
	status: string;
	progress: string;
	lastAction: string;
}

export type PlannedStatus = { ok: true; updates: [string, unknown][] } | { ok: false; errors: FieldErrors };

/** Null when the agent has a next status to move to, else why not (a sentence for a notice). */
export function noNextStatus(agent: Pick<AgentRecord, "name" | "status">): string | null {
	if (legalNextStates(agent.status).length > 0) return null;
	return isKnownStatus(agent.status)
		? `${agent.name} is ${agent.status}, a final status: there is no next status to move to.`
		: `${agent.name} has the status "${agent.status}", which is not in the lifecycle: there is no legal next status.`;
}

export function planAgentStatus(agent: Pick<AgentRecord, "status">, frontmatter: Record<string, unknown>, values: AgentStatusValues, now: number): PlannedStatus {
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
	if (hasErrors(errors)) return { ok: false, errors };
	// A dry run on a copy: the core's warnings about the values are the form's errors.
	const warnings = applyAgentUpdate(structuredClone(frontmatter), updates, now);
	for (const warning of warnings) {
		if (warning.startsWith("progress_percent")) errors.progress ??= "Enter a number from 0 to 100.";
		else errors.status ??= warning;
	}
	if (hasErrors(errors)) return { ok: false, errors };
	return { ok: true, updates };
}

export async function writeAgentStatus(vault: Pick<VaultPort, "read" | "replace">, path: string, updates: [string, unknown][], now: number): Promise<void> {
	const edit = (text: string) => updateFrontmatterText(text, (fm) => void applyAgentUpdate(fm, updates, now));
	if (!(await editNote(vault, path, edit))) throw new Error(`${path} was moved or deleted meanwhile`);
}
