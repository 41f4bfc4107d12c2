import type { Message } from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { ROUTING_EXTENSION } from "../../src/core/a2a-routing";
import { cleanTracestate, parseTraceparent } from "../../src/core/trace-context";

// The W3C trace context of an A2A call (its `traceparent` and `tracestate` headers) travels with the
// message into the request note (protocol section 8): it joins the routing metadata, where a relay's
// forwarder puts it too, and the header wins over the metadata (it is the caller's own). A header
// that is not valid trace context is ignored, as the W3C specification says.

/** The key of a call's trace headers in the SDK's call context. */
export const CALLER_TRACE = "a2a-relay:caller-trace";

export interface CallerTrace {
	traceparent: string;
	tracestate?: string;
}

/** The message with its call's trace context in its routing metadata (unchanged when the call had none). */
export function withCallerTrace(message: Message, context: ServerCallContext): Message {
	const trace = context.state.get(CALLER_TRACE) as CallerTrace | undefined;
	if (!trace || !parseTraceparent(trace.traceparent)) return message;
	const metadata = { ...(message.metadata ?? {}) } as Record<string, unknown>;
	const routing = metadata[ROUTING_EXTENSION];
	const ext: Record<string, unknown> = routing !== null && typeof routing === "object" && !Array.isArray(routing) ? { ...(routing as Record<string, unknown>) } : {};
	ext.traceparent = trace.traceparent.trim();
	const state = cleanTracestate(trace.tracestate);
	if (state !== null) ext.tracestate = state;
	else delete ext.tracestate;
	metadata[ROUTING_EXTENSION] = ext;
	return { ...message, metadata };
}
