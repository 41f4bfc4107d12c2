import { cleanTracestate, formatTraceparent, messageSpanContext } from "./trace-context";
import { ROUTING_EXTENSION, routingMetadataOf } from "./a2a-routing";
import type { WirePart, WireSendParams } from "./a2a-wire";
import { keyToHeading } from "./body";
import type { Payload } from "./message";
import { basename } from "./paths";

// Outbound mapping (contract v2, section 8): a request note delivered to a remote group (one with
// `url:`) becomes the params of an A2A SendMessage. The main section (`## Task`, else
// `## Question`) is the first text part as it is; every other section is a text part that keeps its
// heading; each artifact is a file part naming its vault path (never its bytes). The message id is
// the note's message_id, so a re-send is the same message and a remote that saw it once does not do
// the work twice; the contextId is the trace. Routing state goes in the metadata under the
// extension: `hop_count` as the note has it (crossing to the remote is the hop the note already is,
// not one more), and `route` the chain that led to the remote group, without that group (the remote
// relay appends its own gateway and target, and rule 6 stops a chain that comes back to a group
// already on it).

export interface ForwardInput {
	/** The note's frontmatter fields (stamped delivered: message_id, trace_id, hop_count, route, expires_at...). */
	fields: Record<string, unknown>;
	payload: Payload;
	/** The effective timeout of the request, in seconds (its own, else the registry's). */
	timeoutSeconds: number;
}

const MAIN_KEYS = ["task", "question"] as const;

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

function sectionText(value: unknown): string | undefined {
	if (typeof value === "string") return value.trim() === "" ? undefined : value;
	if (value === undefined || value === null) return undefined;
	return JSON.stringify(value, null, 2);
}

function artifactPart(item: string): WirePart {
	const path = item.replace(/^\[\[|\]\]$/g, "").split("|")[0].trim();
	return { url: item, filename: basename(path) || path, metadata: { vault_path: path } };
}

/** The origin (scheme, host, port) an http(s) URL connects to, as fetch parses it, or null when it is not one. */
export function originOf(url: string): string | null {
	try {
		const parsed = new URL(url);
		return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : null;
	} catch {
		return null;
	}
}

/**
 * Why a group's bearer token may not go to `target`, or null when it may. The token goes only to
 * the origin of the group's registry `url:`, parsed as fetch parses it (a backslash is a slash, a
 * default port is no port): an agent card is the remote's word, and a card naming another address
 * must not collect the token.
 */
export function tokenRefusal(groupId: string, groupUrl: string, target: string): string | null {
	const home = originOf(groupUrl);
	if (home !== null && originOf(target) === home) return null;
	return `the agent card of ${groupId} names ${target}, on another address than its registry url ${home ?? groupUrl}; the group's token is sent only there (set url: to the agent's own address)`;
}

/** The chain that led to `target`: the note's route without the target at its end. */
export function routeBefore(route: unknown, target: string): string[] {
	const list = Array.isArray(route) ? route.filter((g): g is string => typeof g === "string") : [];
	return list.length > 0 && list[list.length - 1] === target ? list.slice(0, -1) : list;
}

export function forwardParams(input: ForwardInput): WireSendParams {
	const { fields, payload } = input;
	const messageId = str(fields.message_id) ?? "";
	const traceId = str(fields.trace_id) ?? "";
	const target = str(fields.target_group) ?? "";
	const parts: WirePart[] = [];
	const mainKey = MAIN_KEYS.find((k) => sectionText(payload[k]) !== undefined);
	const mainText = mainKey === undefined ? undefined : sectionText(payload[mainKey]);
	if (mainText !== undefined) parts.push({ text: mainText, mediaType: "text/plain" });
	for (const [key, value] of Object.entries(payload)) {
		const text = key === "artifacts" || key === mainKey ? undefined : sectionText(value);
		if (text !== undefined) parts.push({ text: `## ${keyToHeading(key)}\n\n${text}`, mediaType: "text/markdown" });
	}
	const artifacts = Array.isArray(payload.artifacts) ? payload.artifacts.filter((a): a is string => typeof a === "string" && a.trim() !== "") : [];
	for (const item of artifacts) parts.push(artifactPart(item.trim()));
	if (parts.length === 0) parts.push({ text: "(the request says nothing)", mediaType: "text/plain" });
	const hop = typeof fields.hop_count === "number" ? fields.hop_count : 0;
	const routing = routingMetadataOf({
		traceId,
		hopCount: hop,
		route: routeBefore(fields.route, target),
		priority: str(fields.priority),
		requestType: str(fields.request_type),
		timeoutSeconds: input.timeoutSeconds,
		expiresAt: str(fields.expires_at),
		// The remote agent continues the trace as a child of this request's span.
		traceparent: traceId !== "" && messageId !== "" ? formatTraceparent(messageSpanContext(traceId, messageId)) : undefined,
		tracestate: cleanTracestate(fields.tracestate) ?? undefined,
	});
	return {
		message: { messageId, contextId: traceId, role: "ROLE_USER", parts, metadata: { [ROUTING_EXTENSION]: routing }, extensions: [ROUTING_EXTENSION] },
		// The send comes back at once with the task; the router records it and follows it (GetTask).
		configuration: { returnImmediately: true, acceptedOutputModes: [] },
	};
}
