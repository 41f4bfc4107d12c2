import * as http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { AGENT_CARD_PATH, TaskState } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import { plainAgentCard } from "../test-support/agent-card";

// The reference `a2a serve` is measured against (bench/serve200-bench.ts): the SDK's own server as
// its documentation builds one, run as a child process like `a2a serve`. DefaultRequestHandler over
// its InMemoryTaskStore, an executor that publishes a COMPLETED task at once, served through the
// SDK's express handlers (the card, JSON-RPC) on 127.0.0.1, a free port. Its first line on stdout is
// `{"url": ...}`, as `a2a serve --json` prints; SIGTERM stops it.

class CompletedAtOnce implements AgentExecutor {
	execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
		// The handler finishes the bus once this returns (a final state closes it).
		bus.publish(AgentEvent.task({ id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
		return Promise.resolve();
	}

	cancelTask(): Promise<void> {
		return Promise.resolve();
	}
}


async function main(): Promise<void> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	const agentCard = plainAgentCard("sdk-reference", "the @a2a-js/sdk reference server of the benchmark", url);
	const handler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), new CompletedAtOnce());
	const app = express();
	app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
	app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
	server.on("request", app);
	process.once("SIGTERM", () => {
		server.closeAllConnections();
		server.close(() => process.exit(0));
	});
	process.stdout.write(`${JSON.stringify({ url })}\n`);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
