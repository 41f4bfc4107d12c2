import { parseYamlSafe } from "./frontmatter";
import { buildNote } from "./frontmatter";
import { transitionWarning } from "./lifecycle";
import { iso } from "./stamps";

// Writing agent status notes: a new note for a spawned agent, and the seed's update_frontmatter
// (several fields in one atomic write, YAML types kept).

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

/** `progress_percent=50` → ["progress_percent", 50]; values are read as YAML scalars, so numbers stay numbers. */
export function parseAssignment(text: string): [string, unknown] {
	const eq = text.indexOf("=");
	if (eq <= 0) throw new Error(`"${text}" is not key=value`);
	const key = text.slice(0, eq).trim();
	if (!KEY.test(key)) throw new Error(`"${key}" is not a usable field name`);
	const raw = text.slice(eq + 1);
	if (raw.trim() === "") return [key, ""];
	try {
		const value = parseYamlSafe(raw);
		if (value === null || ["string", "number", "boolean"].includes(typeof value)) return [key, value];
	} catch {
		// Not YAML on its own (e.g. "a: b"): keep the text as it was typed.
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
		warnings.push(`progress_percent should be a number from 0 to 100, got ${JSON.stringify(progress)}`);
	}
	if (!updates.some(([key]) => key === "updated")) fm.updated = iso(now);
	return warnings;
}
