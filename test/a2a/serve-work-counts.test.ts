import { Task, TaskState } from "@a2a-js/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Document } from "yaml";
import { Gateway } from "../../servers/a2a/gateway";
import { A2aHttpServer } from "../../servers/a2a/http-server";
import { NodeVault } from "../../node/node-vault";
import * as messageParse from "../../src/core/message-parse";
import { Router } from "../../src/router/router";
import { A_GROUP, clientFor, getTask, send, useHarness, userMessage } from "./harness";

// Guards against a change that multiplies the gateway's work per SendMessage (issue 29). Work is
// counted, never timed: how often a task is read from the vault, how often a note is parsed and how
// often the YAML library writes, per accepted message. The answers stay those GetTask gives.

const h = useHarness();
const SENDS = 20;

afterEach(() => vi.restoreAllMocks());

async function servedInProcess(dir: string) {
	const vault = new NodeVault(dir);
	const router = new Router(vault);
	await router.loadRegistry();
	// No router runs: every note stays in the gateway's outbox, so GetTask afterwards reads the same task.
	const gateway = new Gateway(router, vault, { intervalMs: 60_000, onError: () => undefined });
	await gateway.start();
	const server = new A2aHttpServer(gateway, { host: "127.0.0.1", port: 0, token: null, log: () => undefined });
	const url = await server.listen();
	return {
		gateway,
		url: `${url}groups/${A_GROUP}/`,
		async stop() {
			await server.close();
			await gateway.stop();
		},
	};
}

describe("a2a serve's work per accepted message", () => {
	it("SendMessage (returnImmediately) reads its task from the vault once, parses its note once, writes no YAML through the library, and answers what GetTask reads", async () => {
		const v = await h.vault();
		const served = await servedInProcess(v.dir);
		try {
			const client = await clientFor(served.url);
			await send(client, userMessage("warm-up", "first"), true);
			const loads = vi.spyOn(served.gateway.tasks, "load");
			const parses = vi.spyOn(messageParse, "readRawMessage");
			const proto = Document.prototype as unknown as { toString: (...a: unknown[]) => string };
			const libraryWrites = vi.spyOn(proto, "toString");
			const ids = Array.from({ length: SENDS }, (_, i) => `counted-${i}`);
			const accepted = await Promise.all(ids.map((id) => send(client, userMessage(id, `question ${id}`), true)));
			expect(accepted.map((t) => [t.id, t.status?.state])).toEqual(ids.map((id) => [id, TaskState.TASK_STATE_WORKING]));
			expect(loads).toHaveBeenCalledTimes(SENDS);
			// The writer's check reads the note as the router will; the gateway's outbox keeps that reading.
			expect(parses.mock.calls.filter(([, path]) => String(path).includes("outgoing")).length).toBe(SENDS);
			expect(parses.mock.calls.length).toBe(SENDS);
			expect(libraryWrites).not.toHaveBeenCalled();
			loads.mockRestore();
			for (const task of accepted) expect(Task.toJSON(await getTask(client, task.id))).toEqual(Task.toJSON(task));
		} finally {
			await served.stop();
		}
	});

	it("a stream's first event is the task read once; GetTask reads the same task", async () => {
		const v = await h.vault();
		const served = await servedInProcess(v.dir);
		try {
			const client = await clientFor(served.url);
			const loads = vi.spyOn(served.gateway.tasks, "load");
			const stream = client.sendMessageStream({ tenant: "", message: userMessage("streamed-1", "follow me"), configuration: undefined, metadata: undefined });
			const first = await stream.next();
			const payload = first.value?.payload;
			expect(payload?.$case).toBe("task");
			expect(loads).toHaveBeenCalledTimes(1);
			await stream.return(undefined);
			const task = payload?.$case === "task" ? payload.value : undefined;
			expect(Task.toJSON(await getTask(client, "streamed-1"))).toEqual(Task.toJSON(task as Task));
		} finally {
			await served.stop();
		}
	});
});
