import * as z from "zod";
import { ANSWER_STATUSES } from "../../src/core/content-reasons";
import { AGENT_STATUSES } from "../../src/core/lifecycle";
import { progressReason, statusReason } from "../../src/core/agent-notes";
import { AGENT_RESULTS, PRIORITIES, REQUEST_TYPES } from "../../src/core/protocol";

// The arguments of the MCP tools (protocol section 7), with descriptions an LLM can follow. What a
// schema cannot know (is the group in the registry, is the id in the relay) the tools check and
// refuse with a sentence that says what to fix.

/** Text fields are bounded: a message may be at most 100 KB (rule 3). */
const MAX_TEXT = 60_000;
const tooLong = { error: `too long: at most ${MAX_TEXT} characters (a message may be 100 KB); put large content in a vault file and name it in artifacts` };

export const text = (what: string) => z.string().max(MAX_TEXT, tooLong).describe(what);
export const messageId = (what: string) => z.string().min(1, { error: "give a message_id" }).max(128, { error: "a message_id has at most 128 characters" }).describe(what);
export const traceId = (what: string) => z.string().min(1, { error: "give a trace_id" }).max(64, { error: "a trace_id is a UUID (36 characters)" }).describe(what);
const groupId = (what: string) => z.string().min(1, { error: "give a group id" }).max(64, { error: "a group id has at most 64 characters" }).describe(what);
const artifacts = z
	.array(z.string().min(1).max(1024, { error: "an artifact is a vault path or [[wikilink]] of at most 1024 characters" }))
	.max(50, { error: "at most 50 artifacts" })
	.describe("Vault paths or [[wikilinks]] of files to look at (one per item), e.g. skills/30-devops-group/manifests/deployment.yaml.");

export const sendRequestArgs = z.object({
	to: groupId("The group that should answer: a group id from the registry (relay_status lists the groups)."),
	type: z.enum(REQUEST_TYPES).describe("query: a question to answer; task: work for the other group to do; artifact: a file to produce or review."),
	question: text("For a query: one clear, specific question.").optional(),
	task: text("For a task: what the other group should do, and what counts as done.").optional(),
	context: text("The minimum context the other group needs to answer (not your whole context).").optional(),
	artifacts: artifacts.optional(),
	priority: z.enum(PRIORITIES).optional().describe("high only when the answer blocks you; default medium."),
	// Its range (1 s to 30 days) is the router's rule, checked with the router's words before anything is written.
	timeout_seconds: z.number().optional().describe("Seconds the other group has to answer before the router retries (then gives up and sends you a timeout response): a whole number from 1 to 2592000 (30 days). Default: the registry's (30)."),
	trace_id: traceId("To continue a conversation: its trace_id. Leave it out for a new question.").optional(),
	parent_id: messageId("The message_id of the request you are handling while you send this one (lets the relay stop loops). Leave it out at the top of a conversation.").optional(),
});

export const listInboxArgs = z.object({
	kind: z.enum(["requests", "responses", "all"]).default("all").describe("requests: delivered requests you should answer; responses: answers to your own requests not taken yet; all: both."),
});

export const messageIdArgs = (what: string) => z.object({ message_id: messageId(what) });

export const replyArgs = z.object({
	message_id: messageId("The message_id of the request you answer (from list_inbox)."),
	status: z.enum(ANSWER_STATUSES).describe("success: you answer it; error: you cannot (say why in answer or error_message)."),
	answer: text("Your answer: complete and self-contained.").optional(),
	artifacts: artifacts.optional(),
	error_message: text("With status error: what went wrong.").optional(),
});

export const waitArgs = z.object({
	message_id: messageId("The message_id of your request (what send_request returned)."),
	timeout_seconds: z
		.number()
		.min(0)
		.max(50, { error: "at most 50 seconds per call: call wait_for_response again while the state is pending" })
		.default(45)
		.describe("How long to wait in this call, at most 50 s (default 45). When the state is still pending, call again."),
});

export const takeArgs = z.object({
	message_id: messageId("The message_id of the response to take, or of your request it answers."),
});

export const traceArgs = z.object({
	trace_id: traceId("The trace_id of the conversation (every message carries it)."),
});

const flatValue = z.union([z.string().max(2000, { error: "a field value has at most 2000 characters" }), z.number(), z.boolean(), z.null()]);

export const agentStatusArgs = z
	.object({
		status: z.enum(AGENT_STATUSES, { error: (issue) => statusReason(issue.input) }).optional().describe("Your lifecycle state: spawned -> active -> running -> completed | failed."),
		progress_percent: z
			.number({ error: (issue) => progressReason(issue.input) })
			.min(0, { error: (issue) => progressReason(issue.input) })
			.max(100, { error: (issue) => progressReason(issue.input) })
			.optional().describe("How far along you are, 0 to 100."),
		last_action: z.string().max(500).optional().describe("What you did last, in a few words."),
		result: z.enum(AGENT_RESULTS).optional().describe("Your verdict when you are done."),
		error: z.string().max(2000).optional().describe("What went wrong, when you failed."),
	})
	.catchall(flatValue)
	.describe("Fields to set on your agent note. Other flat fields (text, number, true/false) are written as given.");

export const findingArgs = z.object({
	action: z.string().min(1, { error: "name the action" }).max(200, { error: "the action is a heading: at most 200 characters" }).describe("What you did or found, in a few words (the finding's heading)."),
	context: text("Why: the situation.").optional(),
	data: text("What you observed: facts, figures, paths.").optional(),
	decisions: text("What you decided.").optional(),
	next_steps: text("What comes next.").optional(),
});

export const noArgs = z.strictObject({});
