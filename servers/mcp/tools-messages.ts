import type { McpServer } from "@modelcontextprotocol/server";
import { replyToRequest } from "../../src/actions/reply-request";
import { sendRequest } from "../../src/actions/send-request";
import { listInbox } from "../../src/router/inbox-listing";
import { isUuidShaped } from "../../src/core/ids";
import { readMessage } from "../../src/router/message-lookup";
import { checkTakesPart } from "../../src/router/trace-listing";
import type { McpContext } from "./context";
import { inboxResult, messageResult, sentReply, sentRequest } from "./outputs";
import { answer } from "./results";
import { listInboxArgs, messageIdArgs, replyArgs, sendRequestArgs } from "./schemas";

// The tools that send and read messages: send_request, list_inbox, read_message, reply. They run
// the very functions of `a2a send`, `a2a inbox`, `a2a read` and `a2a reply`.

export function registerMessageTools(server: McpServer, ctx: McpContext): void {
	server.registerTool(
		"send_request",
		{
			title: "Send a request to another group",
			description: `Ask another group (agent team) a question, give it a task or ask for an artifact. Writes the request into ${ctx.group}'s outbox; the router delivers it. Returns its message_id: then call wait_for_response with it. Give question (query), task (task) or artifacts. To continue a conversation your group takes part in give its trace_id, and parent_id when you send this while handling a request delivered to you. A request the router would refuse (unknown group, hop limit, loop) is refused here with the router's words, and nothing is sent.`,
			inputSchema: sendRequestArgs,
			outputSchema: sentRequest,
		},
		(args) =>
			answer(ctx, "send_request", async () => {
				// A conversation is continued only by a group that takes part in it (src/router/visibility.ts).
				if (args.trace_id !== undefined && isUuidShaped(args.trace_id)) await checkTakesPart(ctx.router, args.trace_id, ctx.group);
				const sent = await sendRequest(ctx.router, {
					from: ctx.group,
					to: args.to,
					type: args.type,
					question: args.question,
					task: args.task,
					context: args.context,
					artifacts: args.artifacts,
					priority: args.priority,
					timeoutSeconds: args.timeout_seconds,
					traceId: args.trace_id,
					parentId: args.parent_id,
				});
				ctx.created?.({ kind: "request", message_id: sent.message_id, trace_id: sent.trace_id, source_group: ctx.group, target_group: args.to, request_type: args.type, parent_id: args.parent_id }, Date.now());
				return sent;
			}),
	);

	server.registerTool(
		"list_inbox",
		{
			title: "List what waits for you",
			description: `What waits in ${ctx.group}'s inbox: requests delivered to you that you should answer (highest priority, then oldest, first) and responses to your own requests that you have not taken yet. Read one whole with read_message; answer a request with reply; take a response with take_response.`,
			inputSchema: listInboxArgs,
			outputSchema: inboxResult,
			annotations: { readOnlyHint: true },
		},
		(args) =>
			answer(ctx, "list_inbox", async () => {
				const listing = await listInbox(ctx.router, ctx.group, args.kind);
				return { group: listing.group, messages: [...listing.requests, ...listing.responses] };
			}),
	);

	server.registerTool(
		"read_message",
		{
			title: "Read one message",
			description: "One message whole, wherever it is now: its envelope fields (message_id, trace_id, source_group, status...) and its payload (question, context, task, answer, artifacts...).",
			inputSchema: messageIdArgs("The message_id of the message to read."),
			outputSchema: messageResult,
			annotations: { readOnlyHint: true },
		},
		(args) => answer(ctx, "read_message", () => readMessage(ctx.router, args.message_id, ctx.group)),
	);

	server.registerTool(
		"reply",
		{
			title: "Answer a request",
			description: `Answer a request delivered to ${ctx.group} (one that list_inbox shows): writes the response into ${ctx.group}'s outbox; the router delivers it to the requester and archives the request. status success with your answer, or error with what went wrong. Answer each request once.`,
			inputSchema: replyArgs,
			outputSchema: sentReply,
		},
		(args) =>
			answer(ctx, "reply", async () => {
				const written = await replyToRequest(ctx.router, {
					messageId: args.message_id,
					status: args.status,
					answer: args.answer,
					artifacts: args.artifacts,
					errorMessage: args.error_message,
					group: ctx.group,
				});
				const request = ctx.router.index.withId(args.message_id).find((e) => e.kind === "request");
				ctx.created?.({ kind: "response", message_id: written.message_id, trace_id: request?.traceId, in_reply_to: args.message_id, source_group: ctx.group, target_group: request?.sourceGroup }, Date.now());
				return written;
			}),
	);
}
