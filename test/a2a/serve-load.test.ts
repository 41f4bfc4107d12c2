import * as net from "node:net";
import { TaskState } from "@a2a-js/sdk";
import type { Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { ClientFactory } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { Gateway } from "../../servers/a2a/gateway";
import { A2aHttpServer } from "../../servers/a2a/http-server";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { startScriptedAgent } from "../../test-support/scripted-agent";
import { A_GROUP, GATEWAY, clientFor, getTask, notesWithId, send, textOfParts, until, useHarness, userMessage } from "./harness";

// Many clients at once (the 200 of issue 15, which `npm run bench` times): every message becomes
// its own note and its own task, and every task ends COMPLETED with its own answer. Work is counted,
// not timed.

const h = useHarness();
const COUNT = 200;
const STREAMS = 30;

describe("a2a serve under load", () => {
	it(`${COUNT} concurrent SendMessage calls (returnImmediately): ${COUNT} notes, ${COUNT} tasks COMPLETED, each with its own answer`, async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const agent = startScriptedAgent(v.dir, A_GROUP, (id) => `answer to ${id}`);
		try {
			const client = await clientFor(served.groupUrl(A_GROUP));
			const ids = Array.from({ length: COUNT }, (_, i) => `load-${i}`);
			const accepted = await Promise.all(ids.map((id) => send(client, userMessage(id, `question ${id}`), true)));
			expect(accepted.map((t) => t.id)).toEqual(ids);
			expect(accepted.every((t) => t.status?.state === TaskState.TASK_STATE_WORKING)).toBe(true);

			const listCompleted = (pageToken: string) =>
				client.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_COMPLETED, pageSize: 100, pageToken, historyLength: 0, statusTimestampAfter: undefined, includeArtifacts: true });
			await until("every task to complete", async () => (await listCompleted("")).totalSize === COUNT, 50_000);
			const completed: Task[] = [];
			for (let token = ""; ; ) {
				const page = await listCompleted(token);
				completed.push(...page.tasks);
				token = page.nextPageToken;
				if (token === "") break;
			}
			expect(completed.map((t) => t.id).sort()).toEqual([...ids].sort());
			for (const task of completed) expect(textOfParts(task.artifacts[0]?.parts)).toBe(`answer to ${task.id}`);
			const one = await getTask(client, "load-7");
			expect(textOfParts(one.artifacts[0]?.parts)).toBe("answer to load-7");
			expect(await v.files(`A2A/groups/${A_GROUP}/archive`)).toHaveLength(COUNT);
			expect(await v.files(`A2A/groups/${GATEWAY}/inbox`)).toHaveLength(COUNT);
			expect(await v.files("A2A/dead-letter")).toEqual([]);
			expect(agent.answered.size).toBe(COUNT);
		} finally {
			await agent.stop();
		}
	});

	it(`${STREAMS} streams at once each follow their note to the end: COMPLETED, with their own answer`, async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const agent = startScriptedAgent(v.dir, A_GROUP, (id) => `streamed answer to ${id}`);
		try {
			const client = await clientFor(served.groupUrl(A_GROUP));
			const ends = await Promise.all(
				Array.from({ length: STREAMS }, async (_, i) => {
					let state: TaskState | undefined;
					let answer = "";
					for await (const event of client.sendMessageStream({ tenant: "", message: userMessage(`stream-${i}`, "follow me"), configuration: undefined, metadata: undefined })) {
						const p = event.payload;
						if (p?.$case === "statusUpdate") state = p.value.status?.state;
						if (p?.$case === "artifactUpdate") answer = textOfParts(p.value.artifact?.parts);
					}
					return [state, answer];
				}),
			);
			expect(ends).toEqual(Array.from({ length: STREAMS }, (_, i) => [TaskState.TASK_STATE_COMPLETED, `streamed answer to stream-${i}`]));
		} finally {
			await agent.stop();
		}
	});
});

describe("a2a serve holds what it can: a bound on waiting calls, times for headers and bodies", () => {
	const WAITING = 5;
	const call = (url: string, method: string, params: unknown, signal?: AbortSignal) =>
		fetch(url, { method: "POST", signal, headers: { "Content-Type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
	const msg = (messageId: string) => ({ messageId, role: "ROLE_USER", parts: [{ text: `question ${messageId}` }] });

	it(`past --max-waiting ${WAITING}, a blocking send or a stream gets 503 with Retry-After (gRPC: RESOURCE_EXHAUSTED); other calls go on; a freed place is taken again`, async () => {
		const v = await h.vault();
		// No router runs: nothing answers, so every blocking call waits.
		const served = await h.serve(v.dir, ["--group", A_GROUP, "--max-waiting", String(WAITING), "--grpc-port", "0"]);
		const streams = Array.from({ length: WAITING }, () => new AbortController());
		try {
			const held = await Promise.all(streams.map((c, i) => call(served.url, "SendStreamingMessage", { message: msg(`held-${i}`) }, c.signal)));
			expect(held.map((r) => [r.status, r.headers.get("content-type")])).toEqual(streams.map(() => [200, "text/event-stream"]));

			const blocking = await call(served.url, "SendMessage", { message: msg("over-1") });
			const stream = await call(served.url, "SendStreamingMessage", { message: msg("over-2") });
			const legacy = await fetch(served.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "over-3", role: "user", parts: [{ kind: "text", text: "v0.3, blocking" }] }, configuration: { blocking: true } } }) });
			const rest = await fetch(`${served.url}message:stream`, { method: "POST", headers: { "Content-Type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify({ message: msg("over-4") }) });
			expect([blocking, stream, legacy, rest].map((r) => [r.status, r.headers.get("retry-after")])).toEqual([
				[503, "5"],
				[503, "5"],
				[503, "5"],
				[503, "5"],
			]);
			expect(((await blocking.json()) as { error: { message: string } }).error.message).toMatch(/returnImmediately/);
			// The gRPC listener shares the bound: RESOURCE_EXHAUSTED.
			const grpcClient = await new ClientFactory({ transports: [new GrpcTransportFactory()], preferredTransports: ["GRPC"] }).createFromUrl(served.url);
			await expect(send(grpcClient, userMessage("over-5", "over gRPC"))).rejects.toThrow(/waiting calls/);
			// Nothing refused was written; what does not wait is served.
			expect((await notesWithId(v, "over-1")).length + (await notesWithId(v, "over-2")).length + (await notesWithId(v, "over-4")).length + (await notesWithId(v, "over-5")).length).toBe(0);
			const quick = (await (await call(served.url, "SendMessage", { message: msg("quick-1"), configuration: { returnImmediately: true } })).json()) as { result: { task: { id: string } } };
			expect(quick.result.task.id).toBe("quick-1");
			const read = (await (await call(served.url, "GetTask", { id: "held-0" })).json()) as { result: { id: string } };
			expect(read.result.id).toBe("held-0");

			// A stream that ends frees its place.
			streams[0].abort();
			await until("the freed place", async () => {
				const c = new AbortController();
				const again = await call(served.url, "SendStreamingMessage", { message: msg("again-1") }, c.signal);
				c.abort();
				return again.status === 200;
			});
		} finally {
			for (const c of streams) c.abort();
		}
	});

	it("a client that never finishes its headers, or its body, is answered 408 and its connection closed", async () => {
		const v = await h.vault();
		const vault = new NodeVault(v.dir);
		const router = new Router(vault);
		await router.loadRegistry();
		const gateway = new Gateway(router, vault, { intervalMs: 500, onError: () => undefined });
		await gateway.start();
		const server = new A2aHttpServer(gateway, { host: "127.0.0.1", port: 0, token: null, log: () => undefined, headersTimeoutMs: 300, requestTimeoutMs: 600, timeoutCheckMs: 50 });
		try {
			const port = Number(new URL(await server.listen()).port);
			const slow = (text: string) =>
				new Promise<string>((resolve) => {
					let answer = "";
					const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
					socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
					socket.on("close", () => resolve(answer));
				});
			const [headers, body] = await Promise.all([slow("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "), slow(`POST /groups/${A_GROUP}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`)]);
			expect([headers.split("\r\n")[0], body.split("\r\n")[0]]).toEqual(["HTTP/1.1 408 Request Timeout", "HTTP/1.1 408 Request Timeout"]);
			expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
		} finally {
			await server.close();
			await gateway.stop();
		}
	});
});
