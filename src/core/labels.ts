import type { AGENT_STATUSES, LifecycleState } from "./lifecycle";
import type { Priority, RequestType, ResponseStatus } from "./protocol";

// The words the plugin shows for the protocol's values, and the order agent statuses are listed
// in. One definition each; the values themselves are in protocol.ts and lifecycle.ts.

export const PRIORITY_LABELS: Record<Priority, string> = { low: "Low", medium: "Medium", high: "High" };

export const REQUEST_TYPE_LABELS: Record<RequestType, string> = { query: "Query", task: "Task", artifact: "Artifact" };

export const RESPONSE_STATUS_LABELS: Record<ResponseStatus, string> = { success: "Success", error: "Error", timeout: "Timeout" };

export const LIFECYCLE_LABELS: Record<LifecycleState, string> = {
	spawned: "Spawned",
	active: "Active",
	running: "Running",
	completed: "Completed",
	failed: "Failed",
};

/**
 * Every status an agent note may have that the lifecycle knows (its states and the terminal
 * aliases), in the order they are listed: live agents first, the latest stage first, then the
 * finished ones, failures before successes.
 */
const STATUS_ORDER: readonly string[] = ["running", "active", "spawned", "failed", "error", "completed", "terminated"] satisfies (typeof AGENT_STATUSES)[number][];

/** Position of a status in STATUS_ORDER; a status outside the lifecycle comes last. */
export function statusRank(status: string): number {
	const i = STATUS_ORDER.indexOf(status);
	return i < 0 ? STATUS_ORDER.length : i;
}
