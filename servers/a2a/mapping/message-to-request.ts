import { parseTraceparent, uuidOfTraceId } from "../../../src/core/trace-context";
import type { Message as A2aMessage, Part } from "@a2a-js/sdk";
import { buildRequest } from "../../../src/core/compose";
import { requestContentProblem } from "../../../src/core/content-reasons";
import { uuidFromText } from "../../../src/core/hash";
import { isAcceptableMessageId, isUuidShaped, newId } from "../../../src/core/ids";
import type { RequestMessage } from "../../../src/core/message";
import { readRoutingMetadata, timeoutFromMetadata } from "./routing-extension";

// Inbound mapping (contract v2, section 8): an A2A message becomes a request note from the gateway
// group to a served group. Text parts become `## Question` (or `## Task` when the metadata says
// request_type task), url parts the `## Artifacts` list, data parts a JSON block in `## Context`.
// messageId is the note's message_id; contextId is its trace (a contextId that is not a UUID is
// kept in `a2a_context_id` and the trace derived from it); the routing extension's fields are
// honoured. Nothing here writes: the caller checks and writes the note.

/** The frontmatter field that keeps a client's contextId when it is not a UUID (so not a trace_id). */
export const CONTEXT_ID_FIELD = "a2a_context_id";

export type InboundProblem = { kind: "malformed" | "content" | "expired"; message: string };

/**
 * `joined`: the trace was named by the client (its contextId, or the routing metadata's trace_id),
 * or taken from its W3C `traceparent` alone ("traceparent"), and by which; null for a new trace.
 */
export type InboundMapping = { ok: true; request: RequestMessage; contextId: string; joined: "context" | "metadata" | "traceparent" | null } | ({ ok: false } & InboundProblem);

export interface InboundInput {
	message: A2aMessage;
	/** The served group the message was sent to. */
	target: string;
	/** The registry's gateway group: the sender of every inbound request. */
	gateway: string;
	now: number;
	/** False: a caller's traceparent alone does not name the conversation (a new trace is started; the note keeps the traceparent). */
	adoptTraceparent?: boolean;
}

/** Characters no note can hold as text (lone UTF-16 surrogates, NUL) become U+FFFD; the rest is kept. */
export function noteSafeText(text: string): string {
	// eslint-disable-next-line no-control-regex -- NUL is exactly what this replaces
	return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g, "\uFFFD");
}

interface PartsContent {
	texts: string[];
	urls: string[];
	data: string[];
}

function readParts(parts: Part[]): PartsContent | InboundProblem {
	const out: PartsContent = { texts: [], urls: [], data: [] };
	for (const [i, part] of parts.entries()) {
		const content = part.content;
		if (!content) return { kind: "malformed", message: `parts[${i}] has no content (text, url, data or raw)` };
		switch (content.$case) {
			case "text":
				if (typeof content.value !== "string") return { kind: "malformed", message: `parts[${i}].text must be text` };
				out.texts.push(noteSafeText(content.value));
				break;
			case "url": {
				if (typeof content.value !== "string") return { kind: "malformed", message: `parts[${i}].url must be text (a URL)` };
				const url = noteSafeText(content.value).trim();
				if (url === "" || /[\r\n]/.test(url)) return { kind: "malformed", message: `parts[${i}].url must be one line of text` };
				out.urls.push(url);
				break;
			}
			case "data":
				out.data.push(noteSafeText(JSON.stringify(content.value, null, 2) ?? "null"));
				break;
			case "raw":
				return { kind: "content", message: `parts[${i}] carries file bytes (raw), which a note cannot hold: send text, or a url part that names the file` };
		}
	}
	return out;
}

export function messageToRequest(input: InboundInput): InboundMapping {
	const { message, target, gateway, now } = input;
	if (!isAcceptableMessageId(message.messageId)) {
		return { ok: false, kind: "malformed", message: "message.messageId must be 1 to 128 printable characters without edge spaces" };
	}
	const meta = readRoutingMetadata(message.metadata);
	if (!meta.ok) return { ok: false, kind: "malformed", message: meta.problem };
	const routing = meta.value;
	const timeoutSeconds = timeoutFromMetadata(routing, now);
	if (timeoutSeconds === null) return { ok: false, kind: "expired", message: `the message expired at ${routing.expires_at ?? "?"} (its routing metadata's expires_at) before it arrived` };
	const parts = readParts(message.parts);
	if ("kind" in parts) return { ok: false, ...parts };
	const text = parts.texts.join("\n\n").trim();
	const type = routing.request_type ?? "query";
	// The text goes to ## Task for a task, else ## Question (below); then the one rule of what a request carries.
	const content = requestContentProblem(type, { [type === "task" ? "task" : "question"]: text, context: parts.data.join("\n"), artifacts: parts.urls });
	if (content !== null) return { ok: false, kind: "malformed", message: `the message says nothing: send at least one text part (${content.reason})` };
	const clientContext = noteSafeText(message.contextId).trim();
	let traceId = routing.trace_id;
	if (traceId === undefined && clientContext !== "") traceId = isUuidShaped(clientContext) ? clientContext.toLowerCase() : uuidFromText(`a2a-context\n${clientContext}`);
	// A traced caller that starts a conversation: the conversation is its trace, so the relay's spans are its trace's.
	const caller = parseTraceparent(routing.traceparent);
	const adopted = traceId === undefined && caller !== null && input.adoptTraceparent !== false;
	if (adopted) traceId = uuidOfTraceId(caller.traceId);
	traceId ??= newId();
	const body = text === "" ? undefined : text;
	const request = buildRequest(
		{
			from: gateway,
			to: target,
			type,
			question: type === "task" ? undefined : body,
			task: type === "task" ? body : undefined,
			context: parts.data.length > 0 ? parts.data.map((d) => `\`\`\`json\n${d}\n\`\`\``).join("\n\n") : undefined,
			artifacts: parts.urls,
			priority: routing.priority,
			timeoutSeconds,
			traceId,
			hopCount: routing.hop_count ?? 0,
			route: routing.route,
		},
		now,
	);
	request.envelope.message_id = message.messageId;
	// The client's contextId is given back as is; when it is not the trace itself the note keeps it.
	const contextId = clientContext !== "" && clientContext.toLowerCase() !== traceId ? clientContext : traceId;
	if (contextId !== traceId) request.extra[CONTEXT_ID_FIELD] = contextId;
	// The caller's W3C trace context is kept on the note: the relay's span of it continues the caller's.
	if (routing.traceparent !== undefined) request.extra.traceparent = routing.traceparent;
	if (routing.tracestate !== undefined) request.extra.tracestate = routing.tracestate;
	return { ok: true, request, contextId, joined: routing.trace_id !== undefined ? "metadata" : clientContext !== "" ? "context" : adopted ? "traceparent" : null };
}
