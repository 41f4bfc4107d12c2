import { newId, shortId } from "./ids";
import type { Message, Payload, RequestEnvelope, RequestMessage, ResponseEnvelope, ResponseMessage } from "./message";
import type { IndexEntry } from "./message-index";
import { safeFileSegment } from "./paths";
import type { Priority, RequestType, ResponseStatus } from "./protocol";
import { iso } from "./stamps";

// Building new messages for people (the compose, reply and forward commands) and for agents (the
// CLI's send and reply). The router validates them like any other note; these only assemble them.

export interface RequestDraft {
	from: string;
	to: string;
	type: RequestType;
	question?: string;
	context?: string;
	task?: string;
	artifacts?: string[];
	priority?: Priority;
	timeoutSeconds?: number;
	traceId?: string;
	hopCount?: number;
	route?: string[];
	/** The request the sender is handling (rule 6). */
	parentId?: string;
	/** Other payload fields, in order, after the standard ones. */
	extraPayload?: Payload;
}

function cleanText(text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	const trimmed = text.replace(/\r\n?/g, "\n").trim();
	return trimmed === "" ? undefined : trimmed;
}

function payloadOf(entries: [string, unknown][]): Payload {
	const payload: Payload = {};
	for (const [key, value] of entries) {
		if (value === undefined) continue;
		if (Array.isArray(value) && value.length === 0) continue;
		payload[key] = value;
	}
	return payload;
}

export function buildRequest(draft: RequestDraft, now: number): RequestMessage {
	const envelope: RequestEnvelope = {
		kind: "request",
		message_id: newId(),
		trace_id: draft.traceId ?? newId(),
		hop_count: draft.hopCount ?? 0,
		source_group: draft.from,
		target_group: draft.to,
		request_type: draft.type,
		created: iso(now),
	};
	if (draft.priority) envelope.priority = draft.priority;
	if (draft.timeoutSeconds !== undefined) envelope.timeout_seconds = draft.timeoutSeconds;
	if (draft.route && draft.route.length > 0) envelope.route = [...draft.route];
	if (draft.parentId) envelope.parent_id = draft.parentId;
	const artifacts = (draft.artifacts ?? []).map((a) => a.trim()).filter((a) => a !== "");
	const payload = payloadOf([
		["question", cleanText(draft.question)],
		["task", cleanText(draft.task)],
		["context", cleanText(draft.context)],
		["artifacts", artifacts],
		...Object.entries(draft.extraPayload ?? {}),
	]);
	return { envelope, payload, extra: {} };
}

export interface ResponseDraft {
	/** The request being answered, as the index holds it. */
	request: Pick<IndexEntry, "messageId" | "traceId" | "sourceGroup" | "targetGroup">;
	status: Extract<ResponseStatus, "success" | "error">;
	answer?: string;
	artifacts?: string[];
	errorCode?: string;
	errorMessage?: string;
}

export function buildResponse(draft: ResponseDraft, now: number): ResponseMessage {
	const { request } = draft;
	if (!request.traceId || !request.targetGroup) throw new Error("the request has no trace_id or target_group to answer");
	const envelope: ResponseEnvelope = {
		kind: "response",
		message_id: newId(),
		trace_id: request.traceId,
		source_group: request.targetGroup,
		status: draft.status,
		created: iso(now),
	};
	if (request.messageId) envelope.in_reply_to = request.messageId;
	if (request.sourceGroup) envelope.target_group = request.sourceGroup;
	if (draft.status === "error") {
		if (draft.errorCode) envelope.error_code = draft.errorCode;
		const message = cleanText(draft.errorMessage) ?? cleanText(draft.answer);
		if (message) envelope.error_message = message;
	}
	const artifacts = (draft.artifacts ?? []).map((a) => a.trim()).filter((a) => a !== "");
	const payload = payloadOf([
		["answer", cleanText(draft.answer)],
		["artifacts", artifacts],
	]);
	return { envelope, payload, extra: {} };
}

/**
 * A forward: a new request on the same trace, one hop further, continuing the forwarded request (its
 * parent): the router extends that request's route.
 */
export function buildForward(original: RequestMessage, from: string, to: string, note: string | undefined, now: number): RequestMessage {
	const env = original.envelope;
	const payload: Payload = { ...original.payload };
	const cleaned = cleanText(note);
	if (cleaned) payload.forward_note = cleaned;
	const forwarded = buildRequest(
		{ from, to, type: env.request_type, priority: env.priority, timeoutSeconds: env.timeout_seconds, traceId: env.trace_id, hopCount: env.hop_count + 1, parentId: env.message_id },
		now,
	);
	forwarded.payload = payload;
	return forwarded;
}

/** `2026-11-30T10-30-15-query-to-20-frontend-group-1a2b3c4d.md`: sortable, readable, unique. */
export function messageFileName(message: Message, now: number): string {
	const stamp = iso(now).slice(0, 19).replace(/:/g, "-");
	const env = message.envelope;
	const what = env.kind === "request" ? `${env.request_type}-to-${env.target_group}` : `${env.status}-to-${env.target_group ?? "requester"}`;
	return `${safeFileSegment(`${stamp}-${what}-${shortId(env.message_id ?? newId())}`)}.md`;
}
