import { normalizePath } from "obsidian";
import type { Command } from "obsidian";
import { newAgentNote } from "../core/agent-notes";
import { joinPath, safeFileSegment } from "../core/paths";
import { FOLDER } from "../core/protocol";
import { isGroupId } from "../core/registry";
import { ObsidianVault } from "../obsidian/obsidian-vault";
import type { RelayServices } from "../services";
import { NewAgentModal } from "../ui/modals/new-agent-modal";
import { COMMAND_IDS } from "./command-ids";
import type { FieldErrors } from "./message-check";

// Create agent note: an agent status note `<root>/agents/<name>.md` with status spawned.

export interface NewAgentValues {
	name: string;
	role: string;
	group: string;
	objective: string;
}

export type PlannedAgent = { ok: true; path: string; text: string } | { ok: false; errors: FieldErrors };

export function agentNotePath(services: RelayServices, name: string): string {
	return normalizePath(joinPath(services.settings.rootFolder, FOLDER.agents, `${name}.md`));
}

export async function planAgent(services: RelayServices, values: NewAgentValues, now: number): Promise<PlannedAgent> {
	const errors: FieldErrors = {};
	const name = values.name.trim();
	const group = values.group.trim();
	if (name === "") errors.name = "Give the agent a name.";
	else if (safeFileSegment(name) !== name) errors.name = 'Use a name that can be a file name: no / \\ : * ? " < > | # ^ [ ], no leading dot.';
	const shown: string = group;
	if (group !== "" && !isGroupId(group)) errors.group = `"${shown}" is not a group id: use letters, digits, ".", "_" or "-".`;
	if (Object.keys(errors).length > 0) return { ok: false, errors };
	const path = agentNotePath(services, name);
	const vault = services.app.vault;
	if (vault.getAbstractFileByPath(path) || (await vault.adapter.exists(path))) {
		return { ok: false, errors: { name: `An agent named ${name} exists already (${path}).` } };
	}
	const text = newAgentNote({ name, role: values.role.trim() || undefined, group: group || undefined, objective: values.objective.trim() || undefined }, now);
	return { ok: true, path, text };
}

/** Creates the note and opens it; false when the name was taken meanwhile. */
export async function writeAgent(services: RelayServices, planned: Extract<PlannedAgent, { ok: true }>): Promise<boolean> {
	if (!(await new ObsidianVault(services.app).create(planned.path, planned.text))) return false;
	await services.app.workspace.openLinkText(planned.path, "", false);
	return true;
}

export function newAgentCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.newAgent,
		name: "Create agent note",
		icon: "bot",
		callback: () => new NewAgentModal(services).open(),
	};
}
