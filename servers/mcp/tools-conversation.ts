import type { McpServer } from "@modelcontextprotocol/server";
import { findRequest } from "../../src/router/message-lookup";
import { describeOutcome } from "../../src/router/request-state";
import { takeResponse } from "../../src/router/take-response";
import { traceMessages } from "../../src/router/trace-listing";
import { waitForOutcome } from "../../node/response-waiter";
import type { McpContext } from "./context";
import { takeResult, traceResult, waitResult } from "./outputs";
import { answer } from "./results";
import { takeArgs, traceArgs, waitArgs } from "./schemas";

// The tools that follow a conversation: wait_for_response, take_response, get_trace, the very
// functions of `a2a wait`, `a2a take` and `a2a trace`. A wait returns `pending` before 50 s, so a
// client with a 60-second request timeout never times out; it ends early when the client cancels.

export function registerConversationTools(server: McpServer, ctx: McpContext): void {
	server.registerTool(
		"wait_for_response",
		{
			title: "Wait for the answer to your request",
			description:
				"Waits until your request (send_request's message_id) is settled, at most timeout_seconds (50 at most). state answered: response holds the answer (check response.status: success or error); timed_out: nobody answered in time (response is the router's timeout response); rejected: the router refused the request (response.error_code says why); pending: nothing yet, call again. After reading the response, call take_response.",
			inputSchema: waitArgs,
			outputSchema: waitResult,
			annotations: { readOnlyHint: true },
		},
		(args, extra) =>
			answer(
				ctx,
				"wait_for_response",
				async () => {
					const request = await ctx.serial(() => findRequest(ctx.router, args.message_id, ctx.group));
					const signal = extra.mcpReq.signal;
					const { outcome } = await waitForOutcome(ctx.router, request, { timeoutMs: args.timeout_seconds * 1000, signal, abs: (p) => ctx.vault.abs(p) });
					return ctx.serial(() => describeOutcome(ctx.router, request, outcome));
				},
				false,
			),
	);

	server.registerTool(
		"take_response",
		{
			title: "Take a response you have read",
			description: `Takes a response out of ${ctx.group}'s inbox into its archive (state: taken), once you have read it. Give the response's message_id, or your request's (then every response to it is taken). Taking it again changes nothing.`,
			inputSchema: takeArgs,
			outputSchema: takeResult,
		},
		(args) => answer(ctx, "take_response", () => takeResponse(ctx.router, args.message_id, ctx.group)),
	);

	server.registerTool(
		"get_trace",
		{
			title: "Show a conversation",
			description: "Every message of one conversation (trace_id) in the order it happened, each with where it is now: an inbox, an outbox, an archive or the dead-letter folder.",
			inputSchema: traceArgs,
			outputSchema: traceResult,
			annotations: { readOnlyHint: true },
		},
		(args) => answer(ctx, "get_trace", () => traceMessages(ctx.router, args.trace_id, ctx.group)),
	);
}
