import { readRawMessage } from "./message-parse";
import type { RawMessage } from "./message-parse";
import { decideOutboxNote } from "./routing";
import type { RoutingContext, Verdict } from "./routing";
import { formatProblems, validateNote } from "./validate";
import type { Problem } from "./validate";

// The check every writer of a message runs before it writes (the CLI's send and reply, the MCP
// tools, the command palette's compose, reply, forward and retry): exactly what the router will do
// when the note reaches `group`'s outbox (read, validate, decide), so a mistake is refused with the
// router's own words instead of coming back as a dead letter.

/** `raw`: the note as the router reads it (parsed once here, for a writer that keeps it). */
export type OutgoingCheck = { stage: "parse"; reason: string } | { stage: "validate"; problems: Problem[] } | { stage: "decide"; verdict: Verdict; raw?: RawMessage };

/**
 * `decidePath` is the path the note is decided under: its current path when it is already indexed
 * (a retried dead letter), so that it is not taken for its own duplicate.
 */
export function checkOutgoing(text: string, group: string, ctx: RoutingContext, decidePath?: string): OutgoingCheck {
	const path = decidePath ?? `${ctx.layout.box(group, "outbox") ?? group}/outgoing.md`;
	const read = readRawMessage(text, path);
	if (!read.ok) return { stage: "parse", reason: read.reason };
	const validation = validateNote(read.raw, text, group);
	if (!validation.ok) return { stage: "validate", problems: validation.problems };
	return { stage: "decide", verdict: decideOutboxNote({ path, text, mtime: ctx.now, group, read }, ctx, { graceMs: 0 }), raw: read.raw };
}

/** Why the router would not deliver the note, in the sentence both front ends use; null when it would. */
export function refusal(check: OutgoingCheck): string | null {
	if (check.stage === "parse") return `the router would reject it (INVALID_MESSAGE): ${check.reason}`;
	if (check.stage === "validate") return `the router would reject it (INVALID_MESSAGE): ${formatProblems(check.problems)}`;
	const verdict = check.verdict;
	switch (verdict.action) {
		case "deliver":
		case "answer":
			return null;
		case "reject":
			return `the router would reject it (${verdict.code}): ${verdict.reason}`;
		case "duplicate":
			return `the router would reject it (DUPLICATE): message_id was already delivered (${verdict.existing.path})`;
		default:
			return `the router would not route it yet: ${verdict.reason}`;
	}
}
