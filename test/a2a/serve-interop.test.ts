import { promises as fs } from "node:fs";
import { TaskState } from "@a2a-js/sdk";
import type { Task } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import * as grpc from "@grpc/grpc-js";
import type { Client } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { startScriptedAgent } from "../../test-support/scripted-agent";
import { A_GROUP, B_GROUP, getTask, send, textOfParts, useHarness, userMessage } from "./harness";
import type { Served } from "./harness";

// Clients nobody here wrote, on first contact with `a2a serve --group G` (issue 26): the official
// @a2a-js/sdk clients for JSON-RPC and HTTP+JSON, each in v1.0 and in v0.3 (its legacyCompat mode,
// given the card a v0.3 client gets: one fetched without an A2A-Version header), and a raw v0.3
// `message/send` with no header. Each sends, gets the answer a responder wrote in the vault (the
// router delivers, a scripted agent answers), and reads the task back. The server's request log
// shows which binding and which version each call really used.

const h = useHarness();
const legacyCompat = { enabled: true };

/**
 * A v0.3 client's fetch: it never sends A2A-Version, and of the card it reads only the v0.3 fields
 * (`url`, `preferredTransport`, `additionalInterfaces`), not the v1.0 `supportedInterfaces` the SDK
 * embeds (a client that reads those prefers v1.0, rightly).
 */
const v03Fetch: typeof fetch = async (input, init) => {
	const headers = new Headers(init?.headers);
	headers.delete("A2A-Version");
	const res = await fetch(input, { ...init, headers });
	if (!String(input instanceof Request ? input.url : input).endsWith("agent-card.json")) return res;
	const { supportedInterfaces: _v1, ...card } = (await res.json()) as Record<string, unknown>;
	return new Response(JSON.stringify(card), { status: res.status, headers: { "Content-Type": "application/json" } });
};

const CLIENTS: { name: string; make: (url: string) => Promise<Client>; logged: string }[] = [
	{ name: "JSON-RPC v1.0", make: (url) => new ClientFactory({ transports: [new JsonRpcTransportFactory()], preferredTransports: ["JSONRPC"] }).createFromUrl(url), logged: "POST / 200 SendMessage" },
	{ name: "HTTP+JSON v1.0", make: (url) => new ClientFactory({ transports: [new RestTransportFactory()], preferredTransports: ["HTTP+JSON"] }).createFromUrl(url), logged: "POST /message:send 200 POST /message:send" },
	{
		name: "JSON-RPC v0.3",
		make: (url) => new ClientFactory({ transports: [new JsonRpcTransportFactory({ legacyCompat, fetchImpl: v03Fetch })], preferredTransports: ["JSONRPC"], cardResolver: new DefaultAgentCardResolver({ legacyCompat, fetchImpl: v03Fetch }) }).createFromUrl(url),
		logged: "POST / 200 message/send",
	},
	{
		name: "HTTP+JSON v0.3",
		make: (url) => new ClientFactory({ transports: [new RestTransportFactory({ legacyCompat, fetchImpl: v03Fetch })], preferredTransports: ["HTTP+JSON"], cardResolver: new DefaultAgentCardResolver({ legacyCompat, fetchImpl: v03Fetch }) }).createFromUrl(url),
		logged: "POST /v1/message:send 201 POST /v1/message:send",
	},
];

/** The request log lines of the server, as "METHOD path status method" (time and duration cut). */
const logged = (served: Served) => served.stderr.filter((l) => /^\d{4}-/.test(l)).map((l) => l.split(" ").slice(1, -1).join(" "));

async function answeredServer(group = B_GROUP) {
	const v = await h.vault();
	h.router(v.dir);
	const served = await h.serve(v.dir, ["--group", group]);
	const agent = startScriptedAgent(v.dir, group, (id) => `answer to ${id}`);
	return { v, served, agent };
}

describe("a2a serve --group: every binding and version the SDK speaks, against the same vault tasks", () => {
	it("the SDK's JSON-RPC and HTTP+JSON clients, v1.0 and v0.3, each send, get the answer and read the task", async () => {
		const { served, agent } = await answeredServer();
		try {
			const results: Record<string, unknown> = {};
			for (const [i, c] of CLIENTS.entries()) {
				const client = await c.make(served.url);
				const id = `interop-${i}`;
				const task = await send(client, userMessage(id, `question from the ${c.name} client`));
				const read = await getTask(client, id);
				results[c.name] = {
					sent: [task.id, task.status?.state, textOfParts(task.artifacts[0]?.parts)],
					read: [read.id, read.status?.state, textOfParts(read.artifacts[0]?.parts)],
					sameHistory: JSON.stringify(read.history) === JSON.stringify(task.history),
					logged: logged(served).includes(c.logged),
				};
			}
			const expected = Object.fromEntries(
				CLIENTS.map((c, i) => {
					const outcome = [`interop-${i}`, TaskState.TASK_STATE_COMPLETED, `answer to interop-${i}`];
					return [c.name, { sent: outcome, read: outcome, sameHistory: true, logged: true }];
				}),
			);
			expect(results).toEqual(expected);
			// A task sent through one binding and version is the same task through the others.
			const rest = await CLIENTS[1].make(served.url);
			expect(textOfParts((await getTask(rest, "interop-2")).artifacts[0]?.parts)).toBe("answer to interop-2");
		} finally {
			await agent.stop();
		}
	});

	it("a raw v0.3 message/send with no A2A-Version header gets a v0.3 task, and tasks/get reads it; a header-less SendMessage (or v1.0 HTTP+JSON path) is served as v1.0", async () => {
		const { served, agent } = await answeredServer();
		try {
			const rpc = async (method: string, params: unknown) => {
				const res = await fetch(served.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
				return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number } };
			};
			const card = (await (await fetch(`${served.url}.well-known/agent-card.json`)).json()) as Record<string, unknown>;
			expect([card.protocolVersion, card.url, card.preferredTransport]).toEqual(["0.3", served.url, "JSONRPC"]);

			const message = { kind: "message", messageId: "raw-03", role: "user", parts: [{ kind: "text", text: "a v0.3 question" }] };
			const sent = await rpc("message/send", { message, configuration: { blocking: true } });
			const answerOf = (t: Record<string, unknown> | undefined) => ((t?.artifacts as { parts: { text?: string }[] }[] | undefined)?.[0]?.parts ?? []).map((p) => p.text ?? "").join("");
			expect([sent.result?.kind, sent.result?.id, (sent.result?.status as { state: string }).state, answerOf(sent.result)]).toEqual(["task", "raw-03", "completed", "answer to raw-03"]);
			const read = await rpc("tasks/get", { id: "raw-03" });
			expect([read.result?.kind, (read.result?.status as { state: string }).state, answerOf(read.result)]).toEqual(["task", "completed", "answer to raw-03"]);

			const v1 = await rpc("SendMessage", { message: { messageId: "raw-10", role: "ROLE_USER", parts: [{ text: "a v1.0 question, no header" }] } });
			const task = v1.result?.task as { id: string; status: { state: string } } | undefined;
			expect([v1.error, task?.id, task?.status.state]).toEqual([undefined, "raw-10", "TASK_STATE_COMPLETED"]);
			// Over HTTP+JSON the path says the version: a header-less call of a v1.0 path is v1.0.
			const rest = await fetch(`${served.url}message:send`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: { messageId: "raw-rest", role: "ROLE_USER", parts: [{ text: "v1.0 over HTTP+JSON, no header" }] } }) });
			const restTask = ((await rest.json()) as { task?: { id: string; status: { state: string } } }).task;
			expect([rest.status, restTask?.id, restTask?.status.state]).toEqual([200, "raw-rest", "TASK_STATE_COMPLETED"]);
		} finally {
			await agent.stop();
		}
	});

	it("with --grpc-port the SDK's gRPC client sends, gets the answer and reads the task; a wrong token is UNAUTHENTICATED", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const tokenFile = `${v.dir}.token`;
		await fs.writeFile(tokenFile, "grpc-token-of-the-test\n");
		const served = await h.serve(v.dir, ["--group", B_GROUP, "--grpc-port", "0", "--token-file", tokenFile]);
		const agent = startScriptedAgent(v.dir, B_GROUP, (id) => `answer to ${id}`);
		try {
			const json = JSON.parse(served.stdout.find((l) => l.startsWith("{")) ?? "{}") as { grpc?: string };
			const withToken = (token: string) => {
				const auth: grpc.Interceptor = (options, nextCall) =>
					new grpc.InterceptingCall(nextCall(options), {
						start: (metadata, listener, next) => {
							metadata.set("authorization", `Bearer ${token}`);
							next(metadata, listener);
						},
					});
				const fetchImpl: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), Authorization: `Bearer ${token}` } });
				return new ClientFactory({ transports: [new GrpcTransportFactory({ grpcCallOptions: { interceptors: [auth] }, grpcChannelCredentials: grpc.credentials.createInsecure() })], preferredTransports: ["GRPC"], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) }).createFromUrl(served.url);
			};
			const client = await withToken("grpc-token-of-the-test");
			const task = await send(client, userMessage("grpc-1", "a question over gRPC"));
			const read = await getTask(client, "grpc-1");
			expect([task.id, task.status?.state, textOfParts(task.artifacts[0]?.parts)]).toEqual(["grpc-1", TaskState.TASK_STATE_COMPLETED, "answer to grpc-1"]);
			expect([read.status?.state, textOfParts(read.artifacts[0]?.parts)]).toEqual([TaskState.TASK_STATE_COMPLETED, "answer to grpc-1"]);
			expect(json.grpc).toMatch(/^127\.0\.0\.1:\d+$/);
			const wrong = await withToken("not-the-token-at-all");
			await expect(getTask(wrong, "grpc-1")).rejects.toThrow(/unauthorized: send the metadata authorization/);
		} finally {
			await agent.stop();
			await fs.rm(tokenFile, { force: true });
		}
	});

	it("without --group the groups stay under /groups/<id>/, and / lists each group's card URL", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const index = (await (await fetch(served.url)).json()) as { groups: { id: string; url: string; card: string }[] };
		const a = index.groups.find((g) => g.id === A_GROUP);
		expect(a).toMatchObject({ url: served.groupUrl(A_GROUP), card: `${served.groupUrl(A_GROUP)}.well-known/agent-card.json` });
		const card = (await (await fetch(a?.card ?? "", { headers: { "A2A-Version": "1.0" } })).json()) as { supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[] };
		expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.protocolVersion, i.url])).toEqual([
			["JSONRPC", "1.0", served.groupUrl(A_GROUP)],
			["HTTP+JSON", "1.0", served.groupUrl(A_GROUP).replace(/\/$/, "")],
			["JSONRPC", "0.3", served.groupUrl(A_GROUP)],
			["HTTP+JSON", "0.3", served.groupUrl(A_GROUP).replace(/\/$/, "")],
		]);
		expect((await fetch(`${served.url}.well-known/agent-card.json`)).status).toBe(404);
		const rest = await new ClientFactory({ transports: [new RestTransportFactory()], preferredTransports: ["HTTP+JSON"] }).createFromUrl(served.groupUrl(A_GROUP));
		const task: Task = await send(rest, userMessage("multi-rest", "over HTTP+JSON under /groups/"), true);
		expect([task.id, task.status?.state]).toEqual(["multi-rest", TaskState.TASK_STATE_WORKING]);
	});
});
