import { readRawMessage } from "./message-parse";
import type { ErrorCode } from "./protocol";
import { decideOutboxNote } from "./routing";
import type { RoutingContext, Verdict } from "./routing";
import { formatProblems, validateNote } from "./validate";
import type { Problem } from "./validate";

// The check every writer of a message runs before it writes (the CLI's send and reply, the command
// palette's compose, reply, forward and retry): exactly what the router will decide when the note
// reaches `group`'s outbox, so a mistake is refused with the router's own words instead of coming
// back as a dead letter.

export type OutgoingCheck =
	| { ok: true; verdict: Extract<Verdict, { action: "deliver" | "answer" }> }
	| { ok: false; code: ErrorCode | "DUPLICATE"; reason: string; problems: Problem[] };

export function checkOutgoing(text: string, group: string, ctx: RoutingContext): OutgoingCheck {
	const path = `${ctx.layout.box(group, "outbox") ?? group}/outgoing.md`;
	const read = readRawMessage(text, path);
	if (!read.ok) return { ok: false, code: "INVALID_MESSAGE", reason: read.reason, problems: [{ field: "note", message: read.reason }] };
	const validation = validateNote(read.raw, text, group);
	if (!validation.ok) return { ok: false, code: "INVALID_MESSAGE", reason: formatProblems(validation.problems), problems: validation.problems };
	const verdict = decideOutboxNote({ path, text, mtime: ctx.now, group, read }, ctx, { graceMs: 0 });
	switch (verdict.action) {
		case "deliver":
		case "answer":
			return { ok: true, verdict };
		case "reject":
			return { ok: false, code: verdict.code, reason: verdict.reason, problems: [] };
		case "duplicate":
			return { ok: false, code: "DUPLICATE", reason: `message_id was already delivered (${verdict.existing.path})`, problems: [] };
		default:
			return { ok: false, code: "INVALID_MESSAGE", reason: verdict.reason, problems: [] };
	}
}

/** The sentence both front ends refuse a message with. */
export function refusal(check: Extract<OutgoingCheck, { ok: false }>): string {
	return `the router would reject it (${check.code}): ${check.reason}`;
}
