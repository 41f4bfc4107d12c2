import * as z from "zod";
import { REQUEST_OUTCOMES } from "../../src/core/request-outcome";
import { PLACES } from "../../src/router/message-view";

// The results of the MCP tools (protocol section 7), declared so that a client knows their shape.
// Each is the very object the CLI prints with --json (src/router/message-view.ts and its kin).
// Message objects are open: a note's envelope may carry fields of its own.

const place = {
	where: z.enum(PLACES).describe("The folder the note is in now."),
	group: z.string().nullable().describe("The group whose box holds it (null in the dead-letter folder)."),
	path: z.string().describe("The note's vault path."),
};

const summary = z.looseObject({
	message_id: z.string(),
	trace_id: z.string().nullable(),
	kind: z.enum(["request", "response"]),
	source_group: z.string().nullable(),
	target_group: z.string().nullable(),
	request_type: z.string().optional(),
	status: z.string().optional(),
	in_reply_to: z.string().optional(),
	priority: z.string(),
	created: z.string().nullable(),
	state: z.string().nullable(),
	summary: z.string().describe("The first line of what the message asks or answers."),
	from_router: z.literal(true).optional().describe("Written by the router (a timeout or error response), not by a group."),
	late: z.literal(true).optional().describe("An answer that came after the router's timeout response."),
	error_code: z.string().optional(),
	path: z.string(),
});

const detail = z.looseObject({
	payload: z.record(z.string(), z.unknown()).describe("The message's sections: question, context, task, answer, artifacts..."),
	...place,
});

export const sentRequest = z.object({ path: z.string(), message_id: z.string(), trace_id: z.string(), hop_count: z.number(), parent_id: z.string().nullable() });

export const inboxResult = z.object({
	group: z.string(),
	messages: z.array(summary).describe("Requests to answer (highest priority, then oldest, first), then responses to take (oldest first)."),
});

export const messageResult = detail;

export const sentReply = z.object({ path: z.string(), message_id: z.string(), trace_id: z.string(), in_reply_to: z.string() });

export const waitResult = z.object({
	state: z.enum(REQUEST_OUTCOMES).describe("answered, timed_out, rejected: settled (read response); pending: call wait_for_response again."),
	message_id: z.string(),
	trace_id: z.string().nullable(),
	target_group: z.string().nullable(),
	request: z.object(place).describe("Where your request is now."),
	response: detail.optional().describe("The target's answer, or the router's timeout or error response."),
	dead_letter: z.object(place).optional(),
});

export const takeResult = z.object({
	path: z.string().describe("Where the response is now: your group's archive."),
	taken: z.array(z.object({ message_id: z.string(), in_reply_to: z.string().nullable(), path: z.string() })),
	already_taken: z.boolean(),
});

export const traceResult = z.object({
	trace_id: z.string(),
	messages: z.array(summary.extend({ ...place, parent_id: z.string().nullable(), hop_count: z.number().nullable(), delivered_at: z.string().nullable() })),
});

export const agentStatusResult = z.object({
	path: z.string(),
	created: z.boolean(),
	fields: z.record(z.string(), z.unknown()).describe("Your agent note's frontmatter after the write."),
	warnings: z.array(z.string()).describe("Lifecycle warnings (the write was made)."),
});

export const findingResult = z.object({ path: z.string(), created: z.boolean(), heading: z.string() });

export const relayStatusResult = z.object({
	agents: z.array(
		z.object({
			type: z.literal("agent"),
			name: z.string(),
			path: z.string(),
			status: z.string(),
			progress: z.number().nullable(),
			last_action: z.string().nullable(),
			result: z.string().nullable(),
			error: z.string().nullable(),
			group: z.string().nullable(),
			updated: z.string().nullable(),
			stale: z.boolean(),
		}),
	),
	groups: z.array(z.object({
				type: z.literal("group"),
				group: z.string(),
				inbox: z.number(),
				outbox: z.number(),
				archive: z.number(),
				in_flight: z.number(),
				overdue: z.number(),
				gateway: z.boolean().optional(),
				url: z.string().optional(),
				forwarded: z.number().optional(),
			})),
	summary: z.object({ type: z.literal("summary"), agents: z.number(), groups: z.number(), dead_letters: z.number(), registry_errors: z.number() }),
});
