import { statusRank } from "../../core/labels";
import { isKnownStatus } from "../../core/lifecycle";
import { AGENT_RESULTS } from "../../core/protocol";

// How a status or a result looks: the CSS class that gives it its theme colour, and the order
// statuses are listed in (core/labels.ts).

export function compareStatuses(a: string, b: string): number {
	return statusRank(a) - statusRank(b) || a.localeCompare(b);
}

/** `a2a-status-running`, ...; `a2a-status-other` for a status outside the lifecycle. */
export function statusClass(status: string): string {
	return isKnownStatus(status) ? `a2a-status-${status}` : "a2a-status-other";
}

export function resultClass(result: string): string {
	return (AGENT_RESULTS as readonly string[]).includes(result) ? `a2a-result-${result}` : "a2a-result-other";
}

/** Replaces the element's class that starts with `prefix` by `next` (no-op when unchanged). */
export function swapClass(el: Element, prefix: string, next: string): void {
	if (el.classList.contains(next)) return;
	for (const cls of Array.from(el.classList)) if (cls.startsWith(prefix)) el.classList.remove(cls);
	el.classList.add(next);
}
