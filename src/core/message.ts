import type { MessageKind, MessageState, Priority, RequestType, ResponseStatus } from "./protocol";

// The message model of protocol section 3: an envelope of flat fields plus a payload.

export type Payload = Record<string, unknown>;

interface EnvelopeBase {
	message_id?: string;
	trace_id: string;
	source_group: string;
	target_group?: string;
	created?: string;
	route?: string[];
	/** The request its sender was handling when it made this one (rule 6). */
	parent_id?: string;
	// Written by the router only.
	state?: MessageState;
	delivered_at?: string;
	expires_at?: string;
	attempt?: number;
	answered_at?: string;
	dead_at?: string;
	/** One of protocol.ts's ErrorCode values when this router wrote it; any string is kept as read. */
	error_code?: string;
	error_message?: string;
	/** When a request was sent on to a remote group (section 8). */
	forwarded_at?: string;
}

export interface RequestEnvelope extends EnvelopeBase {
	kind: "request";
	hop_count: number;
	target_group: string;
	request_type: RequestType;
	priority?: Priority;
	timeout_seconds?: number;
}

export interface ResponseEnvelope extends EnvelopeBase {
	kind: "response";
	in_reply_to?: string;
	status: ResponseStatus;
	processing_time_ms?: number;
	/** Stamped by the router on a response delivered after its request timed out. */
	late?: boolean;
}

export type Envelope = RequestEnvelope | ResponseEnvelope;

export interface Message<E extends Envelope = Envelope> {
	envelope: E;
	payload: Payload;
	/** Frontmatter fields that are not part of the protocol (tags, aliases...), kept as they were. */
	extra: Record<string, unknown>;
}

export type RequestMessage = Message<RequestEnvelope>;
export type ResponseMessage = Message<ResponseEnvelope>;

/** How the note was written: flat frontmatter (the protocol's form), the seed's wrapper, or a YAML file. */
export type MessageFormat = "flat" | "wrapped" | "yaml";

/** Envelope fields in the order they are written to a note's frontmatter. */
export const ENVELOPE_FIELD_ORDER = [
	"kind",
	"message_id",
	"trace_id",
	"in_reply_to",
	"parent_id",
	"hop_count",
	"source_group",
	"target_group",
	"request_type",
	"status",
	"priority",
	"timeout_seconds",
	"created",
	"processing_time_ms",
	"error_code",
	"error_message",
	"route",
	"state",
	"delivered_at",
	"expires_at",
	"attempt",
	"answered_at",
	"dead_at",
	"late",
	"forwarded_at",
	"traceparent",
	"tracestate",
] as const;

export type EnvelopeField = (typeof ENVELOPE_FIELD_ORDER)[number];

const ENVELOPE_FIELDS: ReadonlySet<string> = new Set(ENVELOPE_FIELD_ORDER);

export function isEnvelopeField(key: string): key is EnvelopeField {
	return ENVELOPE_FIELDS.has(key);
}

export function isRequest(message: Message): message is RequestMessage {
	return message.envelope.kind === "request";
}

export function kindOf(fields: Record<string, unknown>): MessageKind | null {
	if (fields.kind === "request" || fields.kind === "response") return fields.kind;
	if (fields.kind !== undefined) return null;
	if (fields.request_type !== undefined) return "request";
	if (fields.status !== undefined) return "response";
	return null;
}
