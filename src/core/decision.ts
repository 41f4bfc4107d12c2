import type { Outcome } from "./protocol";

// One routing decision: what `a2a route --json` prints, the log note records and the view lists.

export interface RoutingDecision {
	outcome: Outcome;
	message_id?: string;
	trace_id?: string;
	/** Where the note is now. */
	path: string;
	error_code?: string;
	/** Where the note was before this decision. */
	from?: string;
	source_group?: string;
	target_group?: string;
	/** Why: the error message of a rejection, or why a file is ignored. */
	reason?: string;
	/** Epoch ms. */
	time: number;
}

/** The JSON line of `a2a route --json` (protocol section 6). */
export function decisionJson(d: RoutingDecision): string {
	const line: Record<string, unknown> = { outcome: d.outcome, message_id: d.message_id ?? null, trace_id: d.trace_id ?? null, path: d.path };
	if (d.error_code) line.error_code = d.error_code;
	if (d.from && d.from !== d.path) line.from = d.from;
	if (d.source_group) line.source_group = d.source_group;
	if (d.target_group) line.target_group = d.target_group;
	if (d.reason) line.reason = d.reason;
	return JSON.stringify(line);
}
