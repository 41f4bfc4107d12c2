import { DEFAULT_PRIORITY } from "./protocol";
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
	const t = typeof created === "string" ? Date.parse(created) : Number.NaN;
	return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

export function compareForRouting(a: Orderable, b: Orderable): number {
	return rank(a.priority) - rank(b.priority) || time(a.created) - time(b.created) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
