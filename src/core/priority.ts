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

/** Routing order: priority first, then the oldest created, then the path (so the order is stable). */
function inRoutingOrder(a: { rank: number; time: number; path: string }, b: { rank: number; time: number; path: string }): number {
	return a.rank - b.rank || a.time - b.time || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** The items in routing order, each one's rank and time read once. */
export function sortForRouting<T extends Orderable>(items: readonly T[]): T[];
export function sortForRouting<T>(items: readonly T[], orderOf: (item: T) => Orderable): T[];
export function sortForRouting<T>(items: readonly T[], orderOf?: (item: T) => Orderable): T[] {
	const keyed = items.map((item) => {
		const o = orderOf ? orderOf(item) : (item as Orderable);
		return { item, rank: rank(o.priority), time: time(o.created), path: o.path };
	});
	keyed.sort(inRoutingOrder);
	return keyed.map((k) => k.item);
}

// The whole value up to a comment: a time may hold a space (PyYAML writes `2026-01-15 23:59:00+00:00`).
const valueOf = (name: string) => new RegExp(`^(?: {2})?${name}:[ \\t]*["']?([^"'#\\n]*[^"'#\\s])`, "m");
const PRIORITY_FIELD = valueOf("priority");
const CREATED_FIELD = valueOf("created");

/**
 * The priority and creation time of a note, found without parsing its YAML: routing order only
 * needs these two, and parsing every note of a large backlog up front is the costliest way to get
 * them. Top-level fields and the seed's `message:` wrapper (one level in) are looked at.
 */
export function orderFields(text: string): { priority?: string; created?: string } {
	const split = splitNote(text);
	const head = split.hasFrontmatter ? split.yaml : text.slice(0, 8192);
	return { priority: PRIORITY_FIELD.exec(head)?.[1], created: CREATED_FIELD.exec(head)?.[1] };
}
