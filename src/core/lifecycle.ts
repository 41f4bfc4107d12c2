import { hasOwn } from "./text";

// The agent lifecycle of protocol section 5 (seed 000's state machine). Transitions outside the
// graph are shown as warnings, never blocked: agents are other people's processes.

export const LIFECYCLE_STATES = ["spawned", "active", "running", "completed", "failed"] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/** Words some agents write for the graph's states. */
const STATUS_ALIASES: Readonly<Record<string, LifecycleState>> = { terminated: "completed", error: "failed" };

/** Every status an agent may write: the graph's states and their aliases. */
export const AGENT_STATUSES = [...LIFECYCLE_STATES, "terminated", "error"] as const;

const NEXT: Record<LifecycleState, readonly LifecycleState[]> = {
	spawned: ["active", "failed"],
	active: ["running", "failed"],
	running: ["running", "completed", "failed"],
	completed: [],
	failed: [],
};

/** Maps the aliases onto the graph's states. */
export function canonicalStatus(status: string): string {
	return hasOwn(STATUS_ALIASES, status) ? STATUS_ALIASES[status] : status;
}

export function isKnownStatus(status: string): boolean {
	return (LIFECYCLE_STATES as readonly string[]).includes(canonicalStatus(status));
}

/** The states an agent may move to next (what the set-status command offers). */
export function legalNextStates(status: string): readonly LifecycleState[] {
	const from = canonicalStatus(status) as LifecycleState;
	return NEXT[from] ?? [];
}

/** Null when the move is in the graph (or no move at all), else a warning to show on the agent. */
export function transitionWarning(from: string | undefined, to: string): string | null {
	if (from === undefined || from === to) return isKnownStatus(to) ? null : `unknown status "${to}"`;
	if (!isKnownStatus(to)) return `unknown status "${to}"`;
	if (!isKnownStatus(from)) return null;
	const a = canonicalStatus(from);
	const b = canonicalStatus(to);
	if (a === b) return null;
	return legalNextStates(a).includes(b as LifecycleState) ? null : `moved from ${from} to ${to}, outside the lifecycle`;
}
