import { isAcceptableMessageId, isUuidShaped } from "./ids";
import { isEnvelopeField, kindOf } from "./message";
import type { Envelope, Message, RequestEnvelope, ResponseEnvelope } from "./message";
import type { RawMessage } from "./message-parse";
import {
	MAX_FRONTMATTER_BYTES,
	MAX_NOTE_BYTES,
	MAX_TIMEOUT_SECONDS,
	MESSAGE_STATES,
	PRIORITIES,
	REQUEST_TYPES,
	RESPONSE_STATUSES,
	ROUTER_SENDER,
} from "./protocol";
import { isGroupId } from "./registry";
import { describeValue, isPlainObject, setOwn, utf8Length } from "./text";
import { isIsoTime } from "./time";

// Validation of protocol rule 3: every problem at once, each naming its field, so an agent can fix
// its message in one go. The result is the basis of INVALID_MESSAGE errors.

export interface Problem {
	field: string;
	message: string;
}

export type Validation = { ok: true; message: Message } | { ok: false; problems: Problem[] };

export interface ValidationContext {
	/** Size of the whole note in bytes (rule 3: at most 100 KB). */
	noteBytes?: number;
	/** The group whose outbox holds the note: `source_group` must name it. */
	outboxGroup?: string;
}

type Check = (value: unknown) => string | null;

const isoTime: Check = (v) => (isIsoTime(v) ? null : `must be an ISO 8601 time, got ${describeValue(v)}`);
const oneOf =
	(set: readonly string[]): Check =>
	(v) =>
		typeof v === "string" && set.includes(v) ? null : `must be one of ${set.join(", ")}, got ${describeValue(v)}`;
const intAtLeast =
	(min: number): Check =>
	(v) =>
		typeof v === "number" && Number.isInteger(v) && v >= min ? null : `must be an integer >= ${min}, got ${describeValue(v)}`;
/** Rule 3: what is wrong with a `timeout_seconds` (a whole number of seconds, 1 to 30 days), or null. */
export const timeoutSecondsProblem: Check = (v) =>
	typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= MAX_TIMEOUT_SECONDS
		? null
		: `must be a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS} (30 days), got ${describeValue(v)}`;
const text: Check = (v) => (typeof v === "string" && v.trim() !== "" ? null : `must be text, got ${describeValue(v)}`);
const groupId: Check = (v) => (isGroupId(v) ? null : `must be a group id (letters, digits, ".", "_" or "-"), got ${describeValue(v)}`);
const messageId: Check = (v) => (isAcceptableMessageId(v) ? null : `must be an id of 1 to 128 printable characters, got ${describeValue(v)}`);
const uuid: Check = (v) => (isUuidShaped(v) ? null : `must be a UUID (8-4-4-4-12 hex digits), got ${describeValue(v)}`);
const routeList: Check = (v) =>
	Array.isArray(v) && v.every((item) => isGroupId(item)) ? null : `must be a list of group ids, got ${describeValue(v)}`;

const COMMON: Record<string, Check> = {
	message_id: messageId,
	trace_id: uuid,
	source_group: groupId,
	target_group: groupId,
	created: isoTime,
	route: routeList,
	state: oneOf(MESSAGE_STATES),
	delivered_at: isoTime,
	expires_at: isoTime,
	answered_at: isoTime,
	dead_at: isoTime,
	attempt: intAtLeast(1),
	parent_id: messageId,
	forwarded_at: isoTime,
	error_code: text,
	error_message: (v) => (typeof v === "string" ? null : `must be text, got ${describeValue(v)}`),
};

const REQUEST: Record<string, Check> = {
	...COMMON,
	hop_count: intAtLeast(0),
	request_type: oneOf(REQUEST_TYPES),
	priority: oneOf(PRIORITIES),
	timeout_seconds: timeoutSecondsProblem,
};

const RESPONSE: Record<string, Check> = {
	...COMMON,
	in_reply_to: messageId,
	status: oneOf(RESPONSE_STATUSES),
	processing_time_ms: intAtLeast(0),
	late: (v) => (typeof v === "boolean" ? null : `must be true or false, got ${describeValue(v)}`),
};

/** The checks of each kind in the order their problems are listed. */
const REQUEST_CHECKS = Object.entries(REQUEST);
const RESPONSE_CHECKS = Object.entries(RESPONSE);

/** What rule 3 says is wrong with one field of a request (a writer checking its input field by field), or null. */
export function requestFieldProblem(field: keyof typeof REQUEST, value: unknown): string | null {
	return REQUEST[field](value);
}

const REQUIRED = {
	request: ["trace_id", "hop_count", "source_group", "target_group", "request_type"],
	response: ["trace_id", "source_group", "status"],
} as const;

/** Fields that only belong to the other kind: a request with `status` is a mistake worth naming. */
const FOREIGN = {
	request: ["in_reply_to", "status", "processing_time_ms"],
	response: ["hop_count", "request_type", "priority", "timeout_seconds", "parent_id"],
} as const;

/** The fields with each valid Date written as an ISO time: `fields` itself when it holds none. */
function normalizeTimes(fields: Record<string, unknown>): Record<string, unknown> {
	let out = fields;
	for (const key of Object.keys(fields)) {
		const value = fields[key];
		if (!(value instanceof Date) || Number.isNaN(value.getTime())) continue;
		if (out === fields) out = { ...fields };
		setOwn(out, key, value.toISOString());
	}
	return out;
}

/** The router's name, however it is written (`A2A-Relay ` too). */
export function isRouterName(value: unknown): boolean {
	return typeof value === "string" && value.trim().toLowerCase() === ROUTER_SENDER;
}

export function validateRaw(raw: RawMessage, context: ValidationContext = {}): Validation {
	const problems: Problem[] = [];
	const fields = normalizeTimes(raw.fields);
	if (context.noteBytes !== undefined && context.noteBytes > MAX_NOTE_BYTES) {
		problems.push({ field: "note", message: `is ${context.noteBytes} bytes; the limit is ${MAX_NOTE_BYTES} (100 KB)` });
	}
	if (raw.frontmatterBytes > MAX_FRONTMATTER_BYTES) {
		problems.push({ field: "frontmatter", message: `is ${raw.frontmatterBytes} bytes; the limit is ${MAX_FRONTMATTER_BYTES} (8 KB)` });
	}
	const kind = raw.wrapperKind && fields.kind === undefined ? raw.wrapperKind : kindOf(fields);
	if (kind === null) {
		problems.push({
			field: "kind",
			message:
				fields.kind === undefined
					? "is missing: a request needs request_type, a response needs status"
					: `must be request or response, got ${describeValue(fields.kind)}`,
		});
		return { ok: false, problems };
	}
	const checks = kind === "request" ? REQUEST_CHECKS : RESPONSE_CHECKS;
	for (const field of REQUIRED[kind]) {
		if (fields[field] === undefined || fields[field] === null) problems.push({ field, message: "is required" });
	}
	for (const field of FOREIGN[kind]) {
		if (fields[field] !== undefined && fields[field] !== null) problems.push({ field, message: `does not belong in a ${kind}` });
	}
	for (const [field, check] of checks) {
		const value = fields[field];
		if (value === undefined || value === null) continue;
		const problem = check(value);
		if (problem) problems.push({ field, message: problem });
	}
	if (context.outboxGroup !== undefined && typeof fields.source_group === "string" && fields.source_group !== context.outboxGroup) {
		problems.push({
			field: "source_group",
			message: `is ${describeValue(fields.source_group)} but the note is in the outbox of ${context.outboxGroup}`,
		});
	}
	// Rule 7: only the router's own responses come from a2a-relay (source_group, generated_by); a
	// group's note that says so would pass for the router's (a group id a2a-relay is refused by the
	// registry, so source_group: a2a-relay is refused above as another group's).
	if (context.outboxGroup !== undefined && isRouterName(fields.generated_by)) {
		problems.push({ field: "generated_by", message: `is ${ROUTER_SENDER}: only the router writes that (on its own error and timeout responses); leave generated_by out` });
	}
	if (!isPlainObject(raw.payload)) problems.push({ field: "payload", message: "must be a mapping of fields" });
	if (problems.length > 0) return { ok: false, problems };

	const envelope: Record<string, unknown> = { kind };
	const extra: Record<string, unknown> = {};
	for (const key of Object.keys(fields)) {
		const value = fields[key];
		if (key === "kind") continue;
		if (isEnvelopeField(key)) {
			if (value !== undefined && value !== null) envelope[key] = value;
		} else {
			setOwn(extra, key, value);
		}
	}
	const typed = envelope as unknown as Envelope;
	return { ok: true, message: { envelope: typed, payload: raw.payload, extra } };
}

/**
 * A note's fields checked exactly as the router checks a note in `outboxGroup`'s outbox, the note's
 * size included: what the compose and send paths use so that they refuse what the router would.
 */
export function validateNote(raw: RawMessage, text: string, outboxGroup?: string): Validation {
	return validateRaw(raw, { noteBytes: utf8Length(text), outboxGroup });
}

export function formatProblems(problems: Problem[]): string {
	return problems.map((p) => `${p.field} ${p.message}`).join("; ");
}

export type { RequestEnvelope, ResponseEnvelope };
