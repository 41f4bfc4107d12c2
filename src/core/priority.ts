import { splitNote } from "./frontmatter";
import { DEFAULT_PRIORITY } from "./protocol";
import { parseTime } from "./time";
import type { Priority } from "./protocol";

// Routing order (protocol section 4): high before medium before low, then the oldest `created`.

const RANK: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

export interface Orderable {
	priority?: unknown;
	created?: unknown;
	path: string;
}

function rank(priority: unknown): number {
	return typeof priority === "string" && priority in RANK ? RANK[priority as Priority] : RANK[DEFAULT_PRIORITY];
}

function time(created: unknown): number {
	const t = parseTime(created);
	return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

export function compareForRouting(a: Orderable, b: Orderable): number {
	return rank(a.priority) - rank(b.priority) || time(a.created) - time(b.created) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * The priority and creation time of a note, found without parsing its YAML: routing order only
 * needs these two, and parsing every note of a large backlog up front is the costliest way to get
 * them. Top-level fields and the seed's `message:` wrapper (one level in) are looked at.
 */
export function orderFields(text: string): { priority?: string; created?: string } {
	const split = splitNote(text);
	const head = split.hasFrontmatter ? split.yaml : text.slice(0, 8192);
	// The whole value up to a comment: a time may hold a space (PyYAML writes `2026-01-15 23:59:00+00:00`).
	const field = (name: string) => new RegExp(`^(?: {2})?${name}:[ \\t]*["']?([^"'#\\n]*[^"'#\\s])`, "m").exec(head)?.[1];
	return { priority: field("priority"), created: field("created") };
}
