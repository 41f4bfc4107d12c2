import { buildNote } from "./frontmatter";
import { AGENT_STATUSES, transitionWarning } from "./lifecycle";
import { iso } from "./stamps";

// Writing agent status notes: a new note for a spawned agent, and the seed's update_frontmatter
// (several fields in one atomic write; values as written, the typed fields checked).

export interface NewAgent {
	name: string;
	role?: string;
	group?: string;
	objective?: string;
}

export function newAgentNote(agent: NewAgent, now: number): string {
	const fm: Record<string, unknown> = { agent_id: agent.name, status: "spawned" };
	if (agent.role) fm.agent_role = agent.role;
	if (agent.group) fm.group = agent.group;
	if (agent.objective) fm.objective = agent.objective;
	fm.progress_percent = 0;
	fm.spawned_at = iso(now);
	fm.updated = iso(now);
	return buildNote(fm, `\n# ${agent.name}\n\n`);
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** True for a name an agent note's frontmatter field may have (`progress_percent`, `last-check`). */
export function isFieldName(key: string): boolean {
	return KEY.test(key);
}

/** The fields whose type the protocol fixes (section 5): every other field takes any flat value. */
export const TYPED_AGENT_FIELDS = ["progress_percent", "status"] as const;

/** The words for a progress that is not a number from 0 to 100 (CLI, MCP, palette). */
export function progressReason(value: unknown): string {
	return `progress_percent must be a number from 0 to 100, got ${JSON.stringify(value)?.slice(0, 60) ?? String(value)}`;
}

/** The words for a status that is not a lifecycle word (CLI, MCP). */
export function statusReason(value: unknown): string {
	return `status must be one of ${AGENT_STATUSES.join(", ")}, got ${JSON.stringify(value)?.slice(0, 60) ?? String(value)}`;
}

/** Why `value` cannot be written to the agent field `key`, or null: one rule for every writer. */
export function agentValueProblem(key: string, value: unknown): string | null {
	if (key === "progress_percent") return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 100 ? null : progressReason(value);
	if (key === "status") return typeof value === "string" && (AGENT_STATUSES as readonly string[]).includes(value) ? null : statusReason(value);
	return null;
}

/**
 * `key=value` from the command line (`a2a agent set`): the value is the text as written, except
 * `progress_percent` (a number 0..100) and `status` (a lifecycle word), which are checked. Throws
 * with the reason when the text is not key=value or a typed value is wrong.
 */
export function parseAssignment(text: string): [string, unknown] {
	const eq = text.indexOf("=");
	if (eq <= 0) throw new Error(`"${text}" is not key=value`);
	const key = text.slice(0, eq).trim();
	if (!KEY.test(key) || key === "__proto__") throw new Error(`"${key}" is not a usable field name`);
	const raw = text.slice(eq + 1);
	if (key === "progress_percent") {
		const value = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
		const problem = agentValueProblem(key, value);
		if (problem !== null) throw new Error(problem);
		return [key, value];
	}
	if (key === "status") {
		const problem = agentValueProblem(key, raw.trim());
		if (problem !== null) throw new Error(problem);
		return [key, raw.trim()];
	}
	return [key, raw];
}

/** Applies updates to an agent note's frontmatter; returns warnings worth showing (never blocks). */
export function applyAgentUpdate(fm: Record<string, unknown>, updates: [string, unknown][], now: number): string[] {
	const warnings: string[] = [];
	const before = typeof fm.status === "string" ? fm.status : undefined;
	for (const [key, value] of updates) fm[key] = value;
	if (typeof fm.status === "string") {
		const warning = transitionWarning(before, fm.status);
		if (warning) warnings.push(warning);
	}
	const progress = fm.progress_percent;
	if (progress !== undefined && (typeof progress !== "number" || progress < 0 || progress > 100)) {
		warnings.push(progressReason(progress));
	}
	if (!updates.some(([key]) => key === "updated")) fm.updated = iso(now);
	return warnings;
}
