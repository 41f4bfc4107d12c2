import type { RoutingDecision } from "./decision";
import type { IndexEntry } from "./message-index";
import { parseTraceparent, spanIdOf, traceIdOf } from "./trace-context";
import type { SpanContext } from "./trace-context";
import { parseTime } from "./time";

// One OpenTelemetry span per message, built from what the router decided and what the index knows
// of the message: pure, so that the same decision gives the same span on every device. A message's
// span starts when the message was created and ends when it is settled (delivered for a response;
// answered, timed out or refused for a request), so a router that restarts mid-conversation still
// ends the span of a request it did not see begin. No payload text is in a span unless asked for.

export const MESSAGING_SYSTEM = "a2a-relay";

export interface SpanEvent {
	name: string;
	timeMs: number;
	attributes: Record<string, string | number | boolean>;
}

export interface SpanRecord {
	name: string;
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	/** Spans of another trace this one continues (a caller's W3C context whose trace is not this conversation's). */
	links: SpanContext[];
	startMs: number;
	endMs: number;
	attributes: Record<string, string | number | boolean>;
	events: SpanEvent[];
	/** Set on a span that ended in failure: the error code (and the message, when payload text may leave). */
	error?: { code: string; message?: string };
}

export interface SpanOptions {
	/** Whether text written by agents (error messages of refusals) may leave the vault in a span. */
	includeText: boolean;
}

/** The parent and links of a message's span: its `parent_id` (a request's), else the caller's `traceparent`. */
function lineage(entry: IndexEntry, traceId: string): { parentSpanId?: string; links: SpanContext[] } {
	const caller = parseTraceparent(entry.traceparent);
	const parentId = entry.kind === "response" ? entry.inReplyTo : entry.parentId;
	if (parentId) return { parentSpanId: spanIdOf(parentId), links: caller && caller.traceId !== traceId ? [caller] : [] };
	if (caller && caller.traceId === traceId) return { parentSpanId: caller.spanId, links: [] };
	return { links: caller ? [caller] : [] };
}

function envelopeAttributes(entry: IndexEntry, messageId: string, traceId: string): Record<string, string | number | boolean> {
	const attributes: Record<string, string | number | boolean> = {
		"messaging.system": MESSAGING_SYSTEM,
		"messaging.operation.type": "send",
		"messaging.operation.name": "route",
		"messaging.message.id": messageId,
		"messaging.message.conversation_id": traceId,
		"a2a_relay.kind": entry.kind ?? "unknown",
	};
	if (entry.targetGroup) attributes["messaging.destination.name"] = entry.targetGroup;
	if (entry.sourceGroup) attributes["a2a_relay.source_group"] = entry.sourceGroup;
	if (entry.hopCount !== undefined) attributes["a2a_relay.hop_count"] = entry.hopCount;
	if (entry.requestType) attributes["a2a_relay.request_type"] = entry.requestType;
	if (entry.priority) attributes["a2a_relay.priority"] = entry.priority;
	if (entry.status) attributes["a2a_relay.status"] = entry.status;
	if (entry.attempt !== undefined) attributes["a2a_relay.attempt"] = entry.attempt;
	if (entry.route.length > 0) attributes["a2a_relay.route"] = entry.route.join(" > ");
	return attributes;
}

/**
 * The span of one message, settled at `endMs` with `outcome`. `error`: the code it failed with, if
 * it did. `events`: what happened to it on the way (retries, a hand-over of the router's lease).
 */
export function messageSpan(entry: IndexEntry, outcome: string, endMs: number, error: { code: string; message?: string } | undefined, events: SpanEvent[], options: SpanOptions, role = ""): SpanRecord | null {
	if (!entry.messageId || !entry.traceId) return null;
	const traceId = traceIdOf(entry.traceId);
	const created = entry.created !== undefined ? parseTime(entry.created) : null;
	const startMs = created !== null && Number.isFinite(created) && created <= endMs ? created : endMs;
	const target = entry.targetGroup ?? "unknown";
	const attributes = envelopeAttributes(entry, entry.messageId, entry.traceId);
	attributes["a2a_relay.outcome"] = outcome;
	if (error) attributes["error.type"] = error.code;
	return {
		name: `route ${target}`,
		traceId,
		spanId: spanIdOf(entry.messageId, role),
		...lineage(entry, traceId),
		startMs,
		endMs,
		attributes,
		events,
		error: error ? { code: error.code, message: options.includeText ? error.message : undefined } : undefined,
	};
}

/** The messages a decision settles, each with its outcome and error: the note itself, and for an answer the request it answers. */
export interface Settled {
	entry: IndexEntry;
	outcome: string;
	error?: { code: string; message?: string };
	/** A second span for the same message id (a duplicate note): its own span id. */
	role?: string;
}

/**
 * What a decision settles. `entryAt` finds an entry by path (the note where it is now), `request`
 * the request a response answers. Deliveries and forwards settle nothing: their spans end later.
 */
export function settledBy(decision: RoutingDecision, entryAt: (path: string) => IndexEntry | undefined, request: (messageId: string) => IndexEntry | undefined): Settled[] {
	const entry = entryAt(decision.path);
	if (!entry) return [];
	const codeOf = (fallback: string): { code: string; message?: string } => ({ code: decision.error_code ?? entry.errorCode ?? fallback, message: decision.reason ?? entry.errorMessage });
	switch (decision.outcome) {
		case "rejected":
			return [{ entry, outcome: "rejected", error: codeOf("INVALID_MESSAGE") }];
		case "duplicate":
			return [{ entry, outcome: "duplicate", error: codeOf("DUPLICATE"), role: `duplicate:${decision.path}` }];
		case "timed_out":
			return [{ entry, outcome: "timed_out", error: codeOf("TIMEOUT") }];
		case "late":
			return [{ entry, outcome: "late" }];
		case "answered": {
			const settled: Settled[] = [{ entry, outcome: "delivered" }];
			const answered = entry.inReplyTo ? request(entry.inReplyTo) : undefined;
			if (answered) {
				const failed = entry.status === "error" || entry.status === "timeout";
				settled.push({ entry: answered, outcome: "answered", error: failed ? { code: entry.errorCode ?? (entry.status === "timeout" ? "TIMEOUT" : "ERROR"), message: entry.errorMessage } : undefined });
			}
			return settled;
		}
		default:
			return [];
	}
}

/** The fields of a message its writer knows as it writes it (the note's frontmatter). */
export interface WrittenMessage {
	message_id?: unknown;
	trace_id?: unknown;
	kind?: unknown;
	parent_id?: unknown;
	in_reply_to?: unknown;
	source_group?: unknown;
	target_group?: unknown;
	request_type?: unknown;
	traceparent?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * The span of a message's creation (`a2a serve` writing an A2A call as a request note, `a2a mcp`
 * writing an agent's request or answer): the messaging conventions' `create` operation, at one
 * instant, in the conversation's trace, beside the relay's span of the same message (same parent).
 */
export function creationSpan(fields: WrittenMessage, atMs: number): SpanRecord | null {
	const messageId = text(fields.message_id);
	const traceId = text(fields.trace_id);
	if (!messageId || !traceId) return null;
	const kind = fields.kind === "response" || (fields.in_reply_to !== undefined && fields.request_type === undefined) ? "response" : "request";
	const entry = { kind, messageId, traceId, parentId: text(fields.parent_id), inReplyTo: text(fields.in_reply_to), traceparent: text(fields.traceparent) } as IndexEntry;
	const trace = traceIdOf(traceId);
	const attributes: Record<string, string | number | boolean> = {
		"messaging.system": MESSAGING_SYSTEM,
		"messaging.operation.type": "create",
		"messaging.operation.name": "create",
		"messaging.message.id": messageId,
		"messaging.message.conversation_id": traceId,
		"a2a_relay.kind": kind,
	};
	const target = text(fields.target_group);
	if (target) attributes["messaging.destination.name"] = target;
	const source = text(fields.source_group);
	if (source) attributes["a2a_relay.source_group"] = source;
	const type = text(fields.request_type);
	if (type) attributes["a2a_relay.request_type"] = type;
	return { name: `create ${target ?? "reply"}`, traceId: trace, spanId: spanIdOf(messageId, "create"), ...lineage(entry, trace), startMs: atMs, endMs: atMs, attributes, events: [] };
}
