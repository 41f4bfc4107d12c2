// How a status or a result looks: the CSS class that gives it its theme colour, and the order
// statuses are listed in (live agents first, then the finished ones).

const KNOWN_STATUSES = ["running", "active", "spawned", "failed", "error", "completed", "terminated"] as const;

/** Lifecycle order for counts and for grouping by status; unknown statuses come last. */
export function statusRank(status: string): number {
	const i = (KNOWN_STATUSES as readonly string[]).indexOf(status);
	return i < 0 ? KNOWN_STATUSES.length : i;
}

export function compareStatuses(a: string, b: string): number {
	return statusRank(a) - statusRank(b) || a.localeCompare(b);
}

/** `a2a-status-running`, ...; `a2a-status-other` for a status outside the lifecycle. */
export function statusClass(status: string): string {
	return (KNOWN_STATUSES as readonly string[]).includes(status) ? `a2a-status-${status}` : "a2a-status-other";
}

const KNOWN_RESULTS = ["pass", "warning", "fail", "pending"] as const;

export function resultClass(result: string): string {
	return (KNOWN_RESULTS as readonly string[]).includes(result) ? `a2a-result-${result}` : "a2a-result-other";
}

/** Replaces the element's class that starts with `prefix` by `next` (no-op when unchanged). */
export function swapClass(el: Element, prefix: string, next: string): void {
	if (el.classList.contains(next)) return;
	for (const cls of Array.from(el.classList)) if (cls.startsWith(prefix)) el.classList.remove(cls);
	el.classList.add(next);
}
