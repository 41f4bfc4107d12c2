import { cleanTracestate, formatTraceparent, parseTraceparent } from "./trace-context";
import { isUuidShaped } from "./ids";
import { isGroupId } from "./registry";
import { PRIORITIES, REQUEST_TYPES } from "./protocol";
import type { Priority, RequestType } from "./protocol";
import { describeValue, isPlainObject } from "./text";
import { parseTime } from "./time";

// The relay's routing state in an A2A message's metadata (contract v2, section 8): the extension
// `urn:a2a-relay:ext:routing:v1`, declared on every card. Inbound, it is read and checked field by
// field; outbound, it is written from a request note's envelope. Both directions live here so that
// the two ends of a relay-to-relay hop agree on every name.

export const ROUTING_EXTENSION = "urn:a2a-relay:ext:routing:v1";

export const ROUTING_EXTENSION_DESCRIPTION =
	"A2A Relay routing state in the message metadata under this URI: trace_id, hop_count, route, priority, request_type, timeout_seconds, expires_at, and the W3C traceparent/tracestate of the message's span. Honoured when present: a chain that comes back is refused as a cycle.";

export interface RoutingMetadata {
	trace_id?: string;
	hop_count?: number;
	route?: string[];
	priority?: Priority;
	request_type?: RequestType;
	timeout_seconds?: number;
	expires_at?: string;
	/** The W3C trace context of the message's span (protocol section 8); one that is not valid is ignored, never refused. */
	traceparent?: string;
	tracestate?: string;
}

export type RoutingMetadataRead = { ok: true; value: RoutingMetadata } | { ok: false; problem: string };

const isInt = (v: unknown, min: number): v is number => typeof v === "number" && Number.isInteger(v) && v >= min;

/**
 * The routing metadata of a message: the extension's mapping under `metadata[ROUTING_EXTENSION]`,
 * and a bare `request_type` in the metadata itself (the extension wins). Every field is optional;
 * a field that is present must be right, or the whole message is refused with the field named.
 */
export function readRoutingMetadata(metadata: Record<string, unknown> | undefined): RoutingMetadataRead {
	const value: RoutingMetadata = {};
	if (metadata === undefined || metadata === null) return { ok: true, value };
	if (!isPlainObject(metadata)) return { ok: false, problem: "metadata must be an object" };
	const ext = metadata[ROUTING_EXTENSION];
	const bareType = metadata.request_type;
	if (ext !== undefined && ext !== null && !isPlainObject(ext)) return { ok: false, problem: `metadata["${ROUTING_EXTENSION}"] must be an object, got ${describeValue(ext)}` };
	const fields: Record<string, unknown> = { ...(bareType !== undefined ? { request_type: bareType } : {}), ...(isPlainObject(ext) ? ext : {}) };
	const where = (field: string) => (isPlainObject(ext) && field in ext ? `metadata["${ROUTING_EXTENSION}"].${field}` : `metadata.${field}`);
	const bad = (field: string, want: string) => ({ ok: false as const, problem: `${where(field)} must be ${want}, got ${describeValue(fields[field])}` });
	const present = (field: string) => fields[field] !== undefined && fields[field] !== null;

	if (present("trace_id")) {
		if (!isUuidShaped(fields.trace_id)) return bad("trace_id", "a UUID (8-4-4-4-12 hex digits)");
		value.trace_id = fields.trace_id.toLowerCase();
	}
	if (present("hop_count")) {
		if (!isInt(fields.hop_count, 0)) return bad("hop_count", "an integer >= 0");
		value.hop_count = fields.hop_count;
	}
	if (present("route")) {
		const route = fields.route;
		if (!Array.isArray(route) || !route.every(isGroupId)) return bad("route", "a list of group ids");
		value.route = [...route];
	}
	if (present("priority")) {
		if (!(PRIORITIES as readonly unknown[]).includes(fields.priority)) return bad("priority", PRIORITIES.join(", "));
		value.priority = fields.priority as Priority;
	}
	if (present("request_type")) {
		if (!(REQUEST_TYPES as readonly unknown[]).includes(fields.request_type)) return bad("request_type", REQUEST_TYPES.join(", "));
		value.request_type = fields.request_type as RequestType;
	}
	if (present("timeout_seconds")) {
		if (!isInt(fields.timeout_seconds, 1)) return bad("timeout_seconds", "an integer >= 1");
		value.timeout_seconds = fields.timeout_seconds;
	}
	if (present("expires_at")) {
		if (Number.isNaN(parseTime(fields.expires_at))) return bad("expires_at", "an ISO 8601 time");
		value.expires_at = fields.expires_at as string;
	}
	// A trace context that is not one is ignored, as W3C trace context says of a malformed header.
	const caller = parseTraceparent(fields.traceparent);
	if (caller) {
		// Kept as version 00 of what it says: a later version's further fields are not kept (W3C trace context).
		value.traceparent = formatTraceparent(caller);
		const state = cleanTracestate(fields.tracestate);
		if (state !== null) value.tracestate = state;
	}
	return { ok: true, value };
}

/**
 * The seconds a request may wait for its answer, from the metadata: `timeout_seconds`, else what
 * is left until `expires_at` (at least one second), else undefined (the registry's default).
 * Null when `expires_at` has already passed.
 */
export function timeoutFromMetadata(meta: RoutingMetadata, now: number): number | null | undefined {
	if (meta.timeout_seconds !== undefined) return meta.timeout_seconds;
	if (meta.expires_at === undefined) return undefined;
	const left = parseTime(meta.expires_at) - now;
	if (left <= 0) return null;
	return Math.max(1, Math.ceil(left / 1000));
}

/** The routing metadata that describes a request note (for a task's metadata, or an outbound message). */
export function routingMetadataOf(fields: {
	traceId?: string;
	hopCount?: number;
	route?: string[];
	priority?: string;
	requestType?: string;
	timeoutSeconds?: number;
	expiresAt?: string;
	traceparent?: string;
	tracestate?: string;
}): RoutingMetadata {
	const meta: RoutingMetadata = {};
	if (fields.traceId !== undefined) meta.trace_id = fields.traceId;
	if (fields.hopCount !== undefined) meta.hop_count = fields.hopCount;
	if (fields.route && fields.route.length > 0) meta.route = [...fields.route];
	if ((PRIORITIES as readonly unknown[]).includes(fields.priority)) meta.priority = fields.priority as Priority;
	if ((REQUEST_TYPES as readonly unknown[]).includes(fields.requestType)) meta.request_type = fields.requestType as RequestType;
	if (fields.timeoutSeconds !== undefined) meta.timeout_seconds = fields.timeoutSeconds;
	if (fields.expiresAt !== undefined) meta.expires_at = fields.expiresAt;
	if (fields.traceparent !== undefined) meta.traceparent = fields.traceparent;
	if (fields.tracestate !== undefined) meta.tracestate = fields.tracestate;
	return meta;
}
