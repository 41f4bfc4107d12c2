import { ignoreReason } from "./ignore";
import { isAcceptableMessageId, isUuidShaped } from "./ids";
import type { VaultLayout } from "./layout";
import { isRequest } from "./message";
import type { Message, RequestMessage, ResponseMessage } from "./message";
import { isMessagePath, readRawMessage } from "./message-parse";
import type { RawMessage, ReadResult } from "./message-parse";
import { isAwaitingAnswer, wasDelivered } from "./message-index";
import type { IndexEntry, MessageIndex } from "./message-index";
import { DEFAULT_GATEWAY_GROUP } from "./protocol";
import type { ErrorCode } from "./protocol";
import { gatewayGroup } from "./registry";
import type { Registry } from "./registry";
import { formatProblems, validateNote } from "./validate";
import { gatewayTargetReason, selfRequestReason, unknownGroupReason } from "./group-reasons";
import { answerOf } from "./request-outcome";

// The routing decisions of protocol section 4, rules 1 to 7: pure functions of a note, the
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
	/** Bytes, when known. */
	size?: number;
	/** The group whose outbox holds the note. */
	group: string;
	/** The note already read by readRawMessage, when the caller has it. */
	read?: ReadResult;
	/** The note is open in an editor (inside Obsidian): it is left alone until it is quiet. */
	editing?: boolean;
}

export type Verdict =
	| { action: "ignore"; reason: string }
	| { action: "wait"; reason: string; until: number }
	| { action: "deliver"; message: RequestMessage; raw: RawMessage; target: string; route: string[]; parentId?: string }
	| { action: "answer"; message: ResponseMessage; raw: RawMessage; target: string; request?: IndexEntry; late: boolean }
	| { action: "duplicate"; raw: RawMessage; existing: IndexEntry }
	| { action: "reject"; code: ErrorCode; reason: string; raw?: RawMessage };

const reject = (code: ErrorCode, reason: string, raw?: RawMessage): Verdict => ({ action: "reject", code, reason, raw });

/** Groups that took part in a trace as sender or receiver of a delivered request (rule 6, `trace`). */
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
	return index.withId(messageId).find((e) => e.path !== excludePath && (wasDelivered(e) || (e.location.area === "dead-letter" && e.errorCode === "CANCELED")));
}

const byDeliveryDesc = (a: IndexEntry, b: IndexEntry): number => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? 1 : -1);

/** A parent_id that names no request delivered to the sender (the router's and `a2a send`'s words). */
export function missingParentReason(parentId: string, sender: string): string {
	return `parent_id "${parentId}" names no request delivered to ${sender}: give the message_id of the request ${sender} is handling, or leave parent_id out`;
}

/**
 * The request a new request continues (rule 6): the one its `parent_id` names, else the latest
 * request of the trace that waits in the sender's inbox; undefined for a request at the top of a
 * trace. `missing` when `parent_id` names no request delivered to the sender.
 */
export function parentOf(index: MessageIndex, traceId: string, sender: string, parentId: string | undefined): IndexEntry | "missing" | undefined {
	if (parentId !== undefined) {
		const named = index.withId(parentId).filter((e) => e.kind === "request" && wasDelivered(e) && e.targetGroup === sender);
		named.sort(byDeliveryDesc);
		return named[0] ?? "missing";
	}
	const waiting = index.inTrace(traceId).filter((e) => isAwaitingAnswer(e) && e.targetGroup === sender);
	waiting.sort(byDeliveryDesc);
	return waiting[0];
}

/** The chain a request continues: its parent's route (ending with the sender), or just the sender. */
export function chainOf(parent: IndexEntry | undefined, sender: string, ownRoute: string[] | undefined): string[] {
	let chain: string[];
	if (parent) chain = parent.route.length > 0 ? [...parent.route] : [parent.sourceGroup ?? sender, sender];
	else chain = ownRoute && ownRoute.length > 0 ? [...ownRoute] : [sender];
	if (chain[chain.length - 1] !== sender) chain.push(sender);
	return chain;
}

/**
 * Rule 5: the hops a request's chain has taken before it, never fewer than the chain shows. The
 * note's hop_count is the sender's word; its parent's hop + 1, and its chain (the parent's route, or
 * its own) less the sender, are the router's (a route of n groups ending with the sender is n - 1 hops).
 */
export function hopsTaken(hopCount: number, parent: IndexEntry | undefined, chain: string[], ownChain: string[], isGateway: (group: string) => boolean = () => false): number {
	const parentHops = parent?.hopCount !== undefined ? parent.hopCount + 1 : 0;
	// A gateway on a chain is where a request crossed from one relay into another, not a hop of work.
	const hopsOf = (groups: string[]) => groups.filter((g) => !isGateway(g)).length - 1;
	return Math.max(hopCount, parentHops, hopsOf(chain), hopsOf(ownChain));
}

/**
 * The request a response answers (rule 7): the one `in_reply_to` names, else the latest request of
 * the trace waiting in the responder's inbox. Strict: nothing is guessed when in_reply_to is given.
 */
export function requestAnswered(index: MessageIndex, response: Partial<ResponseMessage["envelope"]>): IndexEntry | undefined {
	if (response.in_reply_to !== undefined) {
		const named = index.withId(response.in_reply_to).filter((e) => e.kind === "request" && (wasDelivered(e) || e.location.area === "dead-letter"));
		named.sort(byDeliveryDesc);
		return named[0];
	}
	return requestsWaitingFor(index, response)[0];
}

/** The requests of the response's trace waiting for its source group's answer, latest delivery first. */
function requestsWaitingFor(index: MessageIndex, response: Partial<ResponseMessage["envelope"]>): IndexEntry[] {
	if (response.trace_id === undefined) return [];
	const waiting = index.inTrace(response.trace_id).filter((e) => isAwaitingAnswer(e) && e.targetGroup === response.source_group);
	return waiting.sort(byDeliveryDesc);
}

/** Rule 7's words for a second answer to a request (in time or late): a request has one answer. */
export function alreadyAnsweredReason(requestId: string): string {
	return `request ${requestId} is already answered`;
}

function decideRequest(message: RequestMessage, raw: RawMessage, note: OutboxNote, ctx: RoutingContext): Verdict {
	const env = message.envelope;
	if (!ctx.layout.hasGroup(env.target_group)) return reject("GROUP_NOT_FOUND", unknownGroup(env.target_group, ctx), raw);
	if (env.target_group === gatewayGroup(ctx.registry)) return reject("INVALID_MESSAGE", gatewayTargetReason(env.target_group), raw);
	const maxHops = ctx.registry.communication.max_hops;
	if (env.hop_count >= maxHops) {
		return reject("MAX_HOPS_EXCEEDED", `hop_count is ${env.hop_count}; this registry allows at most ${maxHops} hops (hop counts 0 to ${maxHops - 1})`, raw);
	}
	const existing = deliveredCopy(ctx.index, env.message_id, note.path);
	if (existing) return { action: "duplicate", raw, existing };
	const parent = parentOf(ctx.index, env.trace_id, env.source_group, env.parent_id);
	if (parent === "missing") {
		return reject("INVALID_MESSAGE", missingParentReason(env.parent_id ?? "", env.source_group), raw);
	}
	if (parent && parent.traceId !== env.trace_id) {
		return reject("INVALID_MESSAGE", `parent_id names a request of trace ${parent.traceId ?? "?"}; a request continues the trace of its parent (trace_id ${parent.traceId ?? "?"})`, raw);
	}
	const chain = chainOf(parent, env.source_group, env.route);
	const gateways = new Set([DEFAULT_GATEWAY_GROUP, gatewayGroup(ctx.registry)]);
	const hops = hopsTaken(env.hop_count, parent, chain, chainOf(undefined, env.source_group, env.route), (g) => gateways.has(g));
	if (hops >= maxHops) {
		return reject("MAX_HOPS_EXCEEDED", `this chain has already taken ${hops} hops (${chain.join(" -> ")}), whatever its hop_count (${env.hop_count}) says; this registry allows at most ${maxHops} hops`, raw);
	}
	const cycle = cycleReason(env.target_group, chain, env.trace_id, note.path, ctx);
	if (cycle) return reject("CYCLE_DETECTED", cycle, raw);
	const inferredParent = parent && env.parent_id === undefined ? parent.messageId : undefined;
	return { action: "deliver", message, raw, target: env.target_group, route: [...chain, env.target_group], parentId: inferredParent };
}

/** Rule 6: why a request to `target` along `chain` is a cycle, or null when it is not. */
function cycleReason(target: string, chain: string[], traceId: string, path: string, ctx: RoutingContext): string | null {
	if (target === chain[chain.length - 1]) return selfRequestReason(target);
	if (ctx.registry.communication.cycle_detection === "trace") {
		const participants = traceParticipants(ctx.index, traceId, path);
		for (const g of chain) participants.add(g);
		if (!participants.has(target)) return null;
		return `${target} has already taken part in trace ${traceId} (${[...participants].sort().join(", ")}); this registry uses cycle_detection: trace`;
	}
	if (!chain.includes(target)) return null;
	return `${target} is already on this request's chain (${[...chain, target].join(" -> ")}): the request would come back to a group that is still waiting for it`;
}

function decideResponse(message: ResponseMessage, raw: RawMessage, note: OutboxNote, ctx: RoutingContext): Verdict {
	const env = message.envelope;
	const request = requestAnswered(ctx.index, env);
	if (!request) {
		const reason =
			env.in_reply_to !== undefined
				? `in_reply_to "${env.in_reply_to}" names no request that was delivered`
				: `no request of trace ${env.trace_id} waits for an answer from ${env.source_group}: give in_reply_to, the message_id of the request you answer`;
		return reject("INVALID_MESSAGE", reason, raw);
	}
	if (env.message_id !== undefined && env.message_id === request.messageId) {
		return reject("INVALID_MESSAGE", `message_id "${env.message_id}" is the request's own id: a response needs a message_id of its own`, raw);
	}
	if (request.targetGroup !== env.source_group) {
		return reject("INVALID_MESSAGE", `only the group that holds a request may answer it: request ${request.messageId ?? "?"} was delivered to ${request.targetGroup ?? "?"}, not to ${env.source_group}`, raw);
	}
	const target = request.sourceGroup;
	if (target === undefined) return reject("INVALID_MESSAGE", `request ${request.messageId ?? "?"} names no source_group to answer to`, raw);
	if (env.target_group !== undefined && env.target_group !== target) {
		return reject("INVALID_MESSAGE", `target_group is ${env.target_group} but request ${request.messageId ?? "?"} came from ${target}: leave target_group out, or name ${target}`, raw);
	}
	const late = request.location.area === "dead-letter" && request.state === "timed_out";
	// One answer per request, late or not: an answer the router already carried to the requester
	// (not this very note, which an interrupted pass left behind: a duplicate, finished below).
	const answered = answerOf(ctx.index, request);
	const sameNote = answered !== undefined && env.message_id !== undefined && answered.messageId === env.message_id;
	if ((answered && !sameNote) || (!late && request.state === "answered")) return reject("INVALID_MESSAGE", alreadyAnsweredReason(request.messageId ?? "?"), raw);
	if (!late && !isAwaitingAnswer(request)) {
		const why =
			request.location.area === "dead-letter"
				? `was not delivered (${request.errorCode ?? "dead letter"}): there is nothing to answer`
				: `is already ${request.state ?? "closed"}`;
		return reject("INVALID_MESSAGE", `request ${request.messageId ?? "?"} ${why}`, raw);
	}
	if (!ctx.layout.hasGroup(target)) return reject("GROUP_NOT_FOUND", unknownGroup(target, ctx), raw);
	const existing = deliveredCopy(ctx.index, env.message_id, note.path);
	if (existing) return { action: "duplicate", raw, existing };
	return { action: "answer", message, raw, target, request, late };
}

function unknownGroup(group: string, ctx: Pick<RoutingContext, "layout">): string {
	return unknownGroupReason(group, ctx.layout.groupIds());
}

export interface DecideOptions {
	/**
	 * Rule 2: how long a note that does not parse or is invalid may wait for its writer, counted from
	 * its last change; it is looked at again once it has been quiet this long. 0 (a one-off `a2a
	 * route`, the check of a writer before it writes) decides every note at once.
	 */
	graceMs: number;
}

/** The time from which a note's writer is taken to be done with it (rule 2), or null when it is quiet now. */
function stillWrittenUntil(note: OutboxNote, now: number, graceMs: number): number | null {
	if (graceMs <= 0) return null;
	// Bounded on both sides, so that a skewed clock can never hold a note back for ever.
	const age = now - note.mtime;
	if (age >= graceMs || age <= -graceMs) return null;
	return Math.min(note.mtime, now) + graceMs;
}

/** Decides what to do with one note found in a group's outbox. */
export function decideOutboxNote(note: OutboxNote, ctx: RoutingContext, options: DecideOptions): Verdict {
	const ignored = ignoreReason(note.path);
	if (ignored) return { action: "ignore", reason: ignored };
	// Only notes and YAML files are messages; an attachment dropped into an outbox stays where it is.
	if (!isMessagePath(note.path)) return { action: "ignore", reason: "not a note (.md) or YAML file" };
	// An empty note is a draft (Obsidian's "New note"): never routed, never taken away.
	if (note.text.trim() === "") return { action: "ignore", reason: "an empty note: left for its writer" };
	// Rule 2: a note that does not parse or is invalid, changed a moment ago, may still be being
	// written: it waits for its writer until it has been quiet for the grace period. A valid note is
	// routed at once (writers write a temporary file and rename it: a note appears whole).
	const until = stillWrittenUntil(note, ctx.now, options.graceMs);
	if (note.editing && until !== null) return { action: "wait", reason: "open in an editor and changed in the last seconds", until };
	const read = note.read ?? readRawMessage(note.text, note.path);
	if (!read.ok) {
		if (until !== null) return { action: "wait", reason: read.reason, until };
		return reject("INVALID_MESSAGE", read.reason);
	}
	if (read.raw.fields.quarantined === true) {
		const reason = typeof read.raw.fields.error_message === "string" ? read.raw.fields.error_message : "the note could not be read";
		return reject("INVALID_MESSAGE", reason, read.raw);
	}
	const validation = validateNote(read.raw, note.text, note.group);
	if (!validation.ok) {
		if (until !== null) return { action: "wait", reason: formatProblems(validation.problems), until };
		return reject("INVALID_MESSAGE", formatProblems(validation.problems), read.raw);
	}
	const message: Message = validation.message;
	return isRequest(message) ? decideRequest(message, read.raw, note, ctx) : decideResponse(message as ResponseMessage, read.raw, note, ctx);
}

/** Rule 7: a note in an inbox that the router did not deliver there. */
export const WRITE_INTO_OUTBOX = "the router did not deliver this note here (it has no delivered_at): write into your outbox, and the router delivers it";

/** A usable trace id for an error response about a note (its own when it has one). */
export function traceOf(raw: RawMessage | undefined): string | undefined {
	const trace = raw?.fields.trace_id;
	return isUuidShaped(trace) ? trace : undefined;
}
