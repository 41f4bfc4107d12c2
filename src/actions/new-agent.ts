import { newAgentNote } from "../core/agent-notes";
import { agentNameProblem } from "../core/agent-folders";
import { asSentence, groupIdReason } from "../core/group-reasons";
import { joinPath } from "../core/paths";
import { FOLDER } from "../core/protocol";
import { isGroupId } from "../core/registry";
import type { ActionVault } from "./vault";
import { hasErrors } from "./form-errors";
import type { FieldErrors } from "./form-errors";

// Create agent note: an agent status note `<root>/agents/<name>.md` with status spawned.

export interface NewAgentValues {
	name: string;
	role: string;
	group: string;
	objective: string;
}

export type PlannedAgent = { ok: true; path: string; text: string } | { ok: false; errors: FieldErrors };

export async function planAgent(vault: Pick<ActionVault, "exists">, root: string, values: NewAgentValues, now: number): Promise<PlannedAgent> {
	const errors: FieldErrors = {};
	const name = values.name.trim();
	const group = values.group.trim();
	const nameProblem = agentNameProblem(name);
	if (nameProblem !== null) errors.name = asSentence(nameProblem);
	if (group !== "" && !isGroupId(group)) errors.group = `${groupIdReason(group)}.`;
	if (hasErrors(errors)) return { ok: false, errors };
	const path = joinPath(root, FOLDER.agents, `${name}.md`);
	if (await vault.exists(path)) return { ok: false, errors: { name: `An agent named ${name} exists already (${path}).` } };
	const text = newAgentNote({ name, role: values.role.trim() || undefined, group: group || undefined, objective: values.objective.trim() || undefined }, now);
	return { ok: true, path, text };
}
