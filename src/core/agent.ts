import { latestFinding } from "./findings";
import type { FindingHeading } from "./findings";
import { isKnownStatus } from "./lifecycle";
import { AGENT_RESULTS } from "./protocol";
import { stem } from "./paths";
import { parseTime } from "./time";
import { isPlainObject } from "./text";

// Agent status notes ("memory nodes", protocol section 5): what the sidebar and `a2a status` show.

export interface AgentRecord {
	/** `agent_id`, else the note's name. */
	name: string;
	path: string;
	agentId?: string;
	role?: string;
	group?: string;
	status: string;
	/** 0 to 100, when the note gives a usable number. */
	progress?: number;
	lastAction?: string;
	result?: string;
	error?: string;
	objective?: string;
	spawnedAt?: string;
	/** Epoch ms of the last update: `updated`/`modified`, else the file's modification time. */
	updatedAt?: number;
	sectionsPassed?: number;
	sectionsFailed?: number;
	latestFinding?: FindingHeading;
	/** Problems with the note's values worth showing (unknown status, progress out of range...). */
	notes: string[];
}

function textOf(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (value instanceof Date) return value.toISOString();
	if (typeof value === "string") return value.trim() === "" ? undefined : value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return undefined;
}

function numberOf(value: unknown): number | undefined {
	const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
	return Number.isFinite(n) ? n : undefined;
}

function timeOf(value: unknown): number | undefined {
	if (value instanceof Date) return value.getTime();
	if (typeof value === "number" && Number.isFinite(value)) return value > 1e12 ? value : value * 1000;
	if (typeof value === "string") {
		const t = parseTime(value);
		return Number.isNaN(t) ? undefined : t;
	}
	return undefined;
}

/** A message note (it has an envelope) is never an agent, whatever folder it sits in. */
function isMessageFrontmatter(fm: Record<string, unknown>): boolean {
	return fm.kind === "request" || fm.kind === "response" || typeof fm.trace_id === "string" || typeof fm.in_reply_to === "string" || typeof fm.request_type === "string";
}

/** Reads an agent note; null when the frontmatter has no `status` (then it is not an agent note). */
export function readAgent(path: string, frontmatter: unknown, body: string, mtime?: number): AgentRecord | null {
	if (!isPlainObject(frontmatter) || isMessageFrontmatter(frontmatter)) return null;
	const status = textOf(frontmatter.status);
	if (status === undefined) return null;
	const notes: string[] = [];
	const agentId = textOf(frontmatter.agent_id);
	const record: AgentRecord = { name: agentId ?? stem(path), path, status: status.toLowerCase(), notes };
	if (!isKnownStatus(record.status)) notes.push(`unknown status "${status}"`);
	record.agentId = agentId;
	record.role = textOf(frontmatter.agent_role);
	record.group = textOf(frontmatter.group);
	const progress = numberOf(frontmatter.progress_percent);
	if (progress !== undefined) {
		if (progress < 0 || progress > 100) notes.push(`progress_percent ${progress} is outside 0-100`);
		record.progress = Math.min(100, Math.max(0, progress));
	}
	record.lastAction = textOf(frontmatter.last_action);
	const result = textOf(frontmatter.result)?.toLowerCase();
	if (result !== undefined) {
		record.result = result;
		if (!(AGENT_RESULTS as readonly string[]).includes(result)) notes.push(`unknown result "${result}"`);
	}
	record.error = textOf(frontmatter.error);
	record.objective = textOf(frontmatter.objective);
	record.spawnedAt = textOf(frontmatter.spawned_at);
	record.updatedAt = timeOf(frontmatter.updated) ?? timeOf(frontmatter.modified) ?? mtime;
	record.sectionsPassed = numberOf(frontmatter.sections_passed);
	record.sectionsFailed = numberOf(frontmatter.sections_failed);
	record.latestFinding = latestFinding(body) ?? undefined;
	return record;
}

/** Active or running with no update for longer than the stale limit. */
export function isStale(agent: AgentRecord, now: number, staleLimitMs: number): boolean {
	if (agent.status !== "active" && agent.status !== "running") return false;
	if (agent.updatedAt === undefined) return false;
	return now - agent.updatedAt > staleLimitMs;
}

/** "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function formatAge(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return `${s} s ago`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m} min ago`;
	const h = Math.floor(m / 60);
	if (h < 48) return `${h} h ago`;
	return `${Math.floor(h / 24)} d ago`;
}
