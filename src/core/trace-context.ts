import { hash128 } from "./hash";

// W3C trace context (https://www.w3.org/TR/trace-context/) for the relay's messages: a conversation's
// `trace_id` (a UUID, 128 bits) is its trace id as 32 hex digits, and each message's span id is
// derived from its `message_id` alone, so two routers or two devices name the same hop alike.

/** A span's place in a trace: 32 and 16 lowercase hex digits, and whether the caller sampled it. */
export interface SpanContext {
	traceId: string;
	spanId: string;
	sampled: boolean;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const hex8 = (n: number): string => n.toString(16).padStart(8, "0");

/** The trace id of a conversation: its UUID's 32 hex digits; an id that is no UUID (or all zeros) is hashed. */
export function traceIdOf(traceId: string): string {
	if (UUID_SHAPE.test(traceId)) {
		const hex = traceId.replace(/-/g, "").toLowerCase();
		if (hex !== ZERO_TRACE) return hex;
	}
	return hash128(`trace:${traceId}`).map(hex8).join("");
}

/** The span id of a message: 16 hex digits derived from its `message_id` (never all zeros). */
export function spanIdOf(messageId: string, role = ""): string {
	const id = hash128(`span:${role}:${messageId}`).map(hex8).join("").slice(0, 16);
	return id === ZERO_SPAN ? "0000000000000001" : id;
}

/** The UUID form of a W3C trace id: what a conversation begun by a traced caller takes as its `trace_id`. */
export function uuidOfTraceId(traceId: string): string {
	return `${traceId.slice(0, 8)}-${traceId.slice(8, 12)}-${traceId.slice(12, 16)}-${traceId.slice(16, 20)}-${traceId.slice(20)}`;
}

/**
 * A `traceparent` header's span context, or null when it is not one (the specification's rules:
 * version `ff` and all-zero ids are invalid; a version 00 header has exactly four fields; a later
 * version may carry more, which are ignored).
 */
export function parseTraceparent(value: unknown): SpanContext | null {
	if (typeof value !== "string") return null;
	const match = TRACEPARENT.exec(value.trim());
	if (!match) return null;
	const [, version, traceId, spanId, flags, rest] = match;
	if (version === "ff" || (version === "00" && rest !== undefined)) return null;
	if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
	return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` header of a span context (version 00). */
export function formatTraceparent(context: SpanContext): string {
	if (!TRACE_ID.test(context.traceId) || !SPAN_ID.test(context.spanId)) throw new Error(`not a span context: ${context.traceId}/${context.spanId}`);
	return `00-${context.traceId}-${context.spanId}-${context.sampled ? "01" : "00"}`;
}

/**
 * A `tracestate` header as it may be kept and passed on, or null: at most 32 list members of
 * printable ASCII, 512 characters in all (the specification lets a receiver drop what is larger).
 */
export function cleanTracestate(value: unknown): string | null {
	if (typeof value !== "string") return null;
	const trimmed = value.trim();
	if (trimmed === "" || trimmed.length > 512 || !/^[\x20-\x7e]+$/.test(trimmed)) return null;
	const members = trimmed.split(",").map((m) => m.trim()).filter((m) => m !== "");
	if (members.length > 32 || members.some((m) => !/^[a-z0-9][a-z0-9_\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/.test(m))) return null;
	return members.join(",");
}

/** The span context the relay gives a message: its trace's id and its own span id. */
export function messageSpanContext(traceId: string, messageId: string): SpanContext {
	return { traceId: traceIdOf(traceId), spanId: spanIdOf(messageId), sampled: true };
}
