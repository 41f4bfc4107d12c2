import * as z from "zod";
import { REQUEST_OUTCOMES } from "../../src/core/request-outcome";
import { PLACES } from "../../src/router/message-view";

// The results of the MCP tools (protocol section 7), declared so that a client knows their shape.
// Each is the very object the CLI prints with --json (src/router/message-view.ts and its kin).
// A client validates every result against these (after tools/list) and fails the call on a mismatch,
// so two rules hold (docs/protocol.md, "Output schemas"):
// - every field a tool returns is declared here (test/mcp/mcp-output-schemas.test.ts fails on one
//   that is not);
// - every object is open (`open`, JSON Schema `additionalProperties` allowed): a field added later
//   can never turn a working tool into an error for a client, whatever schema it holds. A message
//   read whole is open anyway: its envelope is the note's frontmatter as written.

/** An object whose declared fields are checked and whose other fields are let through. */
const open = z.looseObject;

const place = {
	where: z.enum(PLACES).describe("The folder the note is in now."),
	group: z.string().nullable().describe("The group whose box holds it (null in the dead-letter folder)."),
	path: z.string().describe("The note's vault path."),
};

const summary = open({
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

const detail = open({
	payload: z.record(z.string(), z.unknown()).describe("The message's sections: question, context, task, answer, artifacts..."),
	...place,
}).describe(
	"The note's envelope fields as written (message_id, trace_id, source_group, status...), its payload and where it is; truncated: true when a dead letter larger than a message may be is shown cut. Only payload, where, group and path are declared: any other field is the note's own and may hold any value.",
);

export const sentRequest = open({ path: z.string(), message_id: z.string(), trace_id: z.string(), hop_count: z.number(), parent_id: z.string().nullable() });

export const inboxResult = open({
	group: z.string(),
	messages: z.array(summary).describe("Requests to answer (highest priority, then oldest, first), then responses to take (oldest first)."),
});

export const messageResult = detail;

export const sentReply = open({ path: z.string(), message_id: z.string(), trace_id: z.string(), in_reply_to: z.string() });

export const waitResult = open({
	state: z.enum(REQUEST_OUTCOMES).describe("answered, timed_out, rejected: settled (read response); pending: call wait_for_response again."),
	message_id: z.string(),
	trace_id: z.string().nullable(),
	target_group: z.string().nullable(),
	request: open(place).describe("Where your request is now."),
	response: detail.optional().describe("The target's answer, or the router's timeout or error response."),
	dead_letter: open(place).optional(),
});

export const takeResult = open({
	path: z.string().describe("Where the response is now: your group's archive."),
	taken: z.array(open({ message_id: z.string(), in_reply_to: z.string().nullable(), path: z.string() })),
	already_taken: z.boolean(),
});

export const traceResult = open({
	trace_id: z.string(),
	messages: z.array(summary.extend({ ...place, parent_id: z.string().nullable(), hop_count: z.number().nullable(), delivered_at: z.string().nullable() })),
});

export const agentStatusResult = open({
	path: z.string(),
	created: z.boolean(),
	fields: z.record(z.string(), z.unknown()).describe("Your agent note's frontmatter after the write."),
	warnings: z.array(z.string()).describe("Lifecycle warnings (the write was made)."),
});

export const findingResult = open({ path: z.string(), created: z.boolean(), heading: z.string() });

const agentRow = open({
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
});

const groupRow = open({
	type: z.literal("group"),
	group: z.string(),
	inbox: z.number(),
	outbox: z.number(),
	archive: z.number(),
	in_flight: z.number(),
	overdue: z.number(),
	gateway: z.boolean().optional().describe("The gateway group (a2a serve writes its requests): true."),
	url: z.string().optional().describe("A remote group: the A2A agent its requests are forwarded to."),
	forwarded: z.number().optional().describe("A remote group: its requests forwarded there and waiting for the answer."),
});

const summaryRow = open({
	type: z.literal("summary"),
	agents: z.number(),
	groups: z.number(),
	dead_letters: z.number(),
	registry_errors: z.number(),
	router: open({ device: z.string(), name: z.string(), renewed: z.string(), released: z.boolean() })
		.nullable()
		.describe("Who routes this vault, from the lease note (null when no router ever did)."),
	registry_warnings: z.array(z.string()).describe("Things worth knowing about the registry (both forms present, a form a sync service may not carry)."),
});

export const relayStatusResult = open({ agents: z.array(agentRow), groups: z.array(groupRow), summary: summaryRow });
