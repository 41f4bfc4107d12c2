import { ignoreReason } from "./ignore";
import { isAcceptableMessageId, isUuidShaped } from "./ids";
import type { VaultLayout } from "./layout";
import { isRequest } from "./message";
import type { Message, RequestMessage, ResponseMessage } from "./message";
import { isMessagePath, readRawMessage } from "./message-parse";
import type { RawMessage, ReadResult } from "./message-parse";
import { wasDelivered } from "./message-index";
import type { IndexEntry, MessageIndex } from "./message-index";
import type { ErrorCode } from "./protocol";
import type { Registry } from "./registry";
import { formatProblems, validateNote } from "./validate";

// The routing decisions of protocol section 4, rules 1 to 6: pure functions of a note, the
// registry and the message index. The router (src/router) carries them out through the vault port.

export interface RoutingContext {
	registry: Registry;
	layout: VaultLayout;
	index: MessageIndex;
	now: number;
}

export interface OutboxNote {
	path: string;
	text: string;
	mtime: number;
	/** Bytes, when known from a listing. */
	size?: number;
	/** The file's identity from the listing (FileInfo.id), when the adapter gives one. */
	fileId?: string;
	/** The group whose outbox holds the note. */
	group: string;
	/** The note already read by readRawMessage, when the caller has it. */
	read?: ReadResult;
}

export type Verdict =
	| { action: "ignore"; reason: string }
	| { action: "wait"; reason: string }
	| { action: "deliver"; message: RequestMessage; raw: RawMessage; target: string }
	| { action: "answer"; message: ResponseMessage; raw: RawMessage; target: string; request?: IndexEntry }
	| { action: "duplicate"; raw: RawMessage; existing: IndexEntry }
	| { action: "reject"; code: ErrorCode; reason: string; raw?: RawMessage };

/** Groups that took part in a trace as sender or receiver of a delivered request. */
export function traceParticipants(index: MessageIndex, traceId: string, excludePath?: string): Set<string> {
	const groups = new Set<string>();
	for (const entry of index.inTrace(traceId)) {
		if (entry.path === excludePath || entry.kind !== "request" || !wasDelivered(entry)) continue;
		if (entry.sourceGroup) groups.add(entry.sourceGroup);
		if (entry.targetGroup) groups.add(entry.targetGroup);
		for (const g of entry.route) groups.add(g);
	}
	return groups;
}

/** The delivered copy of a message id, if any (rule 6: then this note is a duplicate). */
export function deliveredCopy(index: MessageIndex, messageId: string | undefined, excludePath: string): IndexEntry | undefined {
	if (!isAcceptableMessageId(messageId)) return undefined;
	return index.withId(messageId).find((e) => e.path !== excludePath && wasDelivered(e));
}

/** The route of the latest request of a trace delivered to `group`: how the chain reached it. */
export function routeInto(index: MessageIndex, traceId: string, group: string): string[] {
	const into = index.inTrace(traceId).filter((e) => e.kind === "request" && wasDelivered(e) && e.targetGroup === group && e.route.length > 0);
	into.sort((a, b) => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? 1 : -1));
	return into[0]?.route ?? [];
}

/** The request a response answers: by in_reply_to, else the latest request of the trace delivered to the responder. */
export function requestAnswered(index: MessageIndex, response: ResponseMessage["envelope"]): IndexEntry | undefined {
	if (response.in_reply_to) {
		// Only a request delivered to the responder: a group cannot answer, and so archive, a request
		// that another group received.
		const byId = index.withId(response.in_reply_to).filter((e) => e.kind === "request" && wasDelivered(e) && e.targetGroup === response.source_group);
		if (byId.length > 0) return byId[0];
	}
	const candidates = index
		.inTrace(response.trace_id)
		.filter((e) => e.kind === "request" && wasDelivered(e) && e.targetGroup === response.source_group);
	candidates.sort((a, b) => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? 1 : -1));
	return candidates[0];
}

function decideRequest(message: RequestMessage, raw: RawMessage, note: OutboxNote, ctx: RoutingContext): Verdict {
	const env = message.envelope;
	if (!ctx.layout.hasGroup(env.target_group)) {
		return { action: "reject", code: "GROUP_NOT_FOUND", reason: unknownGroup(env.target_group, ctx), raw };
	}
	const maxHops = ctx.registry.communication.max_hops;
	if (env.hop_count >= maxHops) {
		return {
			action: "reject",
			code: "MAX_HOPS_EXCEEDED",
			reason: `hop_count is ${env.hop_count}; this registry allows at most ${maxHops} hops (hop counts 0 to ${maxHops - 1})`,
			raw,
		};
	}
	const existing = deliveredCopy(ctx.index, env.message_id, note.path);
	if (existing) return { action: "duplicate", raw, existing };
	const participants = traceParticipants(ctx.index, env.trace_id, note.path);
	for (const g of env.route ?? routeInto(ctx.index, env.trace_id, env.source_group)) participants.add(g);
	participants.add(env.source_group);
	if (participants.has(env.target_group)) {
		return {
			action: "reject",
			code: "CYCLE_DETECTED",
			reason: `${env.target_group} has already taken part in trace ${env.trace_id} (${[...participants].sort().join(", ")})`,
			raw,
		};
	}
	return { action: "deliver", message, raw, target: env.target_group };
}

function decideResponse(message: ResponseMessage, raw: RawMessage, note: OutboxNote, ctx: RoutingContext): Verdict {
	const env = message.envelope;
	const request = requestAnswered(ctx.index, env);
	const target = env.target_group ?? request?.sourceGroup;
	if (target === undefined) {
		return {
			action: "reject",
			code: "INVALID_MESSAGE",
			reason: "target_group is missing and no delivered request matches in_reply_to or the trace for this group",
			raw,
		};
	}
	if (!ctx.layout.hasGroup(target)) return { action: "reject", code: "GROUP_NOT_FOUND", reason: unknownGroup(target, ctx), raw };
	const existing = deliveredCopy(ctx.index, env.message_id, note.path);
	if (existing) return { action: "duplicate", raw, existing };
	return { action: "answer", message, raw, target, request };
}

function unknownGroup(group: string, ctx: RoutingContext): string {
	const known = ctx.layout.groupIds();
	return `group "${group}" is not in the registry (known groups: ${known.length > 0 ? known.join(", ") : "none"})`;
}

/** Decides what to do with one note found in a group's outbox. */
export function decideOutboxNote(note: OutboxNote, ctx: RoutingContext, graceMs: number): Verdict {
	const ignored = ignoreReason(note.path);
	if (ignored) return { action: "ignore", reason: ignored };
	// Only notes and YAML files are messages; an attachment dropped into an outbox stays where it is.
	if (!isMessagePath(note.path)) return { action: "ignore", reason: "not a note (.md) or YAML file" };
	const read = note.read ?? readRawMessage(note.text, note.path);
	if (!read.ok) {
		// Age is bounded on both sides so that a skewed clock can never hold a note back for ever.
		const age = ctx.now - note.mtime;
		if (graceMs > 0 && age < graceMs && age > -graceMs) return { action: "wait", reason: read.reason };
		return { action: "reject", code: "INVALID_MESSAGE", reason: read.reason };
	}
	if (read.raw.fields.quarantined === true) {
		const reason = typeof read.raw.fields.error_message === "string" ? read.raw.fields.error_message : "the note could not be read";
		return { action: "reject", code: "INVALID_MESSAGE", reason, raw: read.raw };
	}
	const validation = validateNote(read.raw, note.text, note.group);
	if (!validation.ok) return { action: "reject", code: "INVALID_MESSAGE", reason: formatProblems(validation.problems), raw: read.raw };
	const message: Message = validation.message;
	return isRequest(message) ? decideRequest(message, read.raw, note, ctx) : decideResponse(message as ResponseMessage, read.raw, note, ctx);
}

/** A usable trace id for an error response about a note (its own when it has one). */
export function traceOf(raw: RawMessage | undefined): string | undefined {
	const trace = raw?.fields.trace_id;
	return isUuidShaped(trace) ? trace : undefined;
}
