import * as http from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SdkRemoteAgents } from "../../servers/a2a/sdk-remote-agents";
import { forwardParams } from "../../src/core/remote-request";
import type { GroupEntry } from "../../src/core/registry";

// The CLI's remote-agent adapter on its own, against a server on 127.0.0.1 that takes the
// connection and never answers: the agent card is given up within its bound (so a one-off
// `a2a route` ends), and the outcome is a transport failure that rule 8 retries.

const servers: { server: http.Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
	for (const { server, sockets } of servers.splice(0)) {
		for (const socket of sockets) socket.destroy();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
});

/** A server that reads every request and answers none; `requests` counts them. */
async function silentServer(): Promise<{ url: string; requests: () => number }> {
	const server = http.createServer();
	const sockets = new Set<Socket>();
	let requests = 0;
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	server.on("request", () => requests++);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	servers.push({ server, sockets });
	return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/agents/x/`, requests: () => requests };
}

const params = forwardParams({ fields: { message_id: "m-1", trace_id: "t-1", hop_count: 0, route: ["a"], request_type: "query" }, payload: { question: "Anyone there?" }, timeoutSeconds: 60 });

describe("SdkRemoteAgents", () => {
	it("gives up an agent card that never arrives after its bound: a transport failure, no call made", { timeout: 5_000 }, async () => {
		const silent = await silentServer();
		const remotes = new SdkRemoteAgents(300);
		const group: GroupEntry = { id: "remote-x", url: silent.url, serve: true, gateway: false };
		// No signal ends this call: only the card's own bound can.
		const result = await remotes.send(group, params, new AbortController().signal);
		expect(result).toMatchObject({ ok: false, kind: "transport" });
		expect(silent.requests()).toBe(1);
	});
});
