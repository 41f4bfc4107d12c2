import type { Location } from "../core/layout";
import type { IndexEntry } from "../core/message-index";
import type { Payload } from "../core/message";
import type { RawMessage } from "../core/message-parse";
import { DEFAULT_PRIORITY } from "../core/protocol";
import { oneLine, setOwn } from "../core/text";
import { formatTraceparent, messageSpanContext } from "../core/trace-context";

// What a reader is shown of a message: the one-line summary of an inbox listing, the whole message
// (envelope and payload) of `read`, and where a note is now. The CLI's --json output and the MCP
// tools' results are these very objects, so the two front ends never disagree.

/** Where a note is now, as readers are told. */
export const PLACES = ["inbox", "outbox", "archive", "dead-letter", "elsewhere"] as const;
export type Where = (typeof PLACES)[number];

export interface Place {
	/** The folder the note is in now. */
	where: Where;
	/** The group whose box holds it (null in the dead-letter folder). */
	group: string | null;
	path: string;
}

export function placeOf(path: string, location: Location): Place {
	if (location.area === "box") return { where: location.box, group: location.group, path };
	if (location.area === "dead-letter") return { where: "dead-letter", group: null, path };
	return { where: "elsewhere", group: null, path };
}

export interface MessageSummary {
	message_id: string;
	trace_id: string | null;
	kind: "request" | "response";
	source_group: string | null;
	target_group: string | null;
	/** Requests: query, task or artifact. */
	request_type?: string;
	/** Responses: success, error or timeout. */
	status?: string;
	/** Responses: the request they answer. */
	in_reply_to?: string;
	priority: string;
	created: string | null;
	state: string | null;
	/** The first line of what the message asks or answers. */
	summary: string;
	/** Written by the router (a timeout or error response), not by a group. */
	from_router?: true;
	late?: true;
	error_code?: string;
	path: string;
}

const SUMMARY_KEYS = ["question", "task", "answer", "context", "forward_note"];

/** The first words of a payload: its question, task or answer, else its artifacts. */
export function summaryText(payload: Payload, errorMessage?: string): string {
	for (const key of SUMMARY_KEYS) {
		const value = payload[key];
		if (typeof value === "string" && value.trim() !== "") return oneLine(value, 160);
	}
	if (errorMessage) return oneLine(errorMessage, 160);
	const artifacts = payload.artifacts;
	if (Array.isArray(artifacts) && artifacts.length > 0) return oneLine(`artifacts: ${artifacts.join(", ")}`, 160);
	return "";
}

export function summaryOf(entry: IndexEntry, payload: Payload): MessageSummary {
	const out: MessageSummary = {
		message_id: entry.messageId ?? "",
		trace_id: entry.traceId ?? null,
		kind: entry.kind === "response" ? "response" : "request",
		source_group: entry.sourceGroup ?? null,
		target_group: entry.targetGroup ?? null,
		priority: entry.priority ?? DEFAULT_PRIORITY,
		created: entry.created ?? null,
		state: entry.state ?? null,
		summary: summaryText(payload, entry.errorMessage),
		path: entry.path,
	};
	if (out.kind === "request") out.request_type = entry.requestType;
	else {
		out.status = entry.status;
		if (entry.inReplyTo) out.in_reply_to = entry.inReplyTo;
	}
	if (entry.routerWritten) out.from_router = true;
	if (entry.late) out.late = true;
	if (entry.errorCode) out.error_code = entry.errorCode;
	return out;
}

/**
 * One message whole: its envelope fields as written, its payload by section, and where it is; and
 * `relay_traceparent`, the W3C trace context of the relay's span of this message (protocol section
 * 9), which an agent continues in its own instrumentation.
 */
export type MessageDetail = Record<string, unknown> & Place & { payload: Payload; relay_traceparent?: string };

export function detailOf(path: string, location: Location, raw: RawMessage): MessageDetail {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(raw.fields)) setOwn(out, key, value);
	const { trace_id: traceId, message_id: messageId } = raw.fields;
	if (typeof traceId === "string" && traceId !== "" && typeof messageId === "string" && messageId !== "") out.relay_traceparent = formatTraceparent(messageSpanContext(traceId, messageId));
	if (out.kind === undefined) out.kind = raw.wrapperKind ?? (raw.fields.request_type !== undefined ? "request" : raw.fields.status !== undefined ? "response" : undefined);
	const place = placeOf(path, location);
	const detail: MessageDetail = Object.assign<Record<string, unknown>, { payload: Payload }, Place>(out, { payload: raw.payload }, place);
	return detail;
}
