import { agentValueProblem, applyAgentUpdate, newAgentNote } from "../core/agent-notes";
import { appendFinding } from "../core/findings";
import type { Finding } from "../core/findings";
import { readFrontmatter, updateFrontmatterText } from "../core/frontmatter";
import { agentNameProblem } from "../core/agent-folders";
import { joinPath, stem } from "../core/paths";
import { iso } from "../core/stamps";
import { editNote } from "../router/edit-note";
import { Refused } from "../router/refused";
import type { VaultPort } from "../router/vault-port";

// An agent keeps its status note (`a2a agent`, the MCP tools `set_agent_status` and
// `append_finding`): found by its file name or its agent_id in the agents folders, created with
// `status: spawned` when there is none yet, and updated in one atomic edit that loses no write made
// by someone else meanwhile.

type AgentPort = Pick<VaultPort, "listRecursive" | "read" | "create" | "replace">;

export interface AgentTarget {
	name: string;
	/** The folders agent notes are looked for in, the protocol's agents folder first (a new note goes there). */
	folders: string[];
	/** The group a new note names. */
	group?: string;
}

/** The agent's name when it can be a file name; refused otherwise. */
export function checkedAgentName(name: string): string {
	const problem = agentNameProblem(name);
	if (problem === null) return name;
	throw new Refused(problem, "agent");
}

export async function findAgentNote(port: AgentPort, target: AgentTarget): Promise<string | null> {
	for (const folder of target.folders) {
		for (const file of await port.listRecursive(folder)) {
			if (!file.path.endsWith(".md")) continue;
			if (stem(file.path) === target.name) return file.path;
			const read = await port.read(file.path, { maxBytes: 16384 });
			try {
				if (read !== null && readFrontmatter(read.text)?.agent_id === target.name) return file.path;
			} catch {
				// An unreadable note is not the agent asked for.
			}
		}
	}
	return null;
}

/** The agent's note, created (status: spawned) when it has none. */
export async function agentNote(port: AgentPort, target: AgentTarget, now: number): Promise<{ path: string; created: boolean }> {
	const name = checkedAgentName(target.name);
	const found = await findAgentNote(port, target);
	if (found !== null) return { path: found, created: false };
	const path = joinPath(target.folders[0], `${name}.md`);
	return { path, created: await port.create(path, newAgentNote({ name, group: target.group }, now)) };
}

export interface AgentUpdate {
	path: string;
	created: boolean;
	/** The note's frontmatter after the write. */
	fields: Record<string, unknown>;
	/** Lifecycle and value warnings (never blocking: protocol section 5). */
	warnings: string[];
}

export async function updateAgent(port: AgentPort, target: AgentTarget, updates: [string, unknown][], now: number): Promise<AgentUpdate> {
	for (const [key, value] of updates) {
		const problem = agentValueProblem(key, value);
		if (problem !== null) throw new Refused(problem);
	}
	const { path, created } = await agentNote(port, target, now);
	let warnings: string[] = [];
	const written = await editNote(port, path, (text) => updateFrontmatterText(text, (fm) => (warnings = applyAgentUpdate(fm, updates, now))));
	if (!written) throw new Refused(`${path} was moved or deleted meanwhile: try again`, "agent");
	return { path, created, fields: readFrontmatter(written.text) ?? {}, warnings };
}

export interface AppendedFinding {
	path: string;
	created: boolean;
	/** The heading written: `## [time] action`. */
	heading: string;
}

export async function appendAgentFinding(port: AgentPort, target: AgentTarget, finding: Finding, now: number): Promise<AppendedFinding> {
	const action = finding.action.replace(/\s+/g, " ").trim();
	if (action === "") throw new Refused("name the action (it becomes the finding's heading)", "action");
	const { path, created } = await agentNote(port, target, now);
	const time = iso(now);
	if (!(await editNote(port, path, (text) => appendFinding(text, { ...finding, action }, time)))) throw new Refused(`${path} was moved or deleted meanwhile: try again`, "agent");
	return { path, created, heading: `## [${time}] ${action}` };
}
