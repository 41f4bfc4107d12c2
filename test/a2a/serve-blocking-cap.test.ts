import { TaskState } from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { Gateway } from "../../servers/a2a/gateway";
import { A2aHttpServer } from "../../servers/a2a/http-server";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { A_GROUP, GATEWAY, clientFor, getTask, notesWithId, send, textOfParts, until, userMessage } from "./harness";

// A blocking SendMessage returns by a cap (240 s in `a2a serve`, which HTTP clients' 300 s allow),
// with the task still WORKING when nothing has answered it by then; GetTask gives its outcome
// later. The server runs in this process with a cap of a fraction of a second, so that no test
// waits minutes; the client is the official one. Routing is done with `a2a route` once, by hand.

const SHORT_CAP_MS = 300;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
	cleanups = [];
});

async function serveInProcess(v: TempVault): Promise<string> {
	const vault = new NodeVault(v.dir);
	const router = new Router(vault);
	await router.loadRegistry();
	const errors: unknown[] = [];
	const gateway = new Gateway(router, vault, { intervalMs: 500, onError: (e) => errors.push(e) });
	await gateway.start();
	const server = new A2aHttpServer(gateway, { host: "127.0.0.1", port: 0, token: null, log: () => undefined, maxWaitMs: SHORT_CAP_MS });
	cleanups.push(async () => {
		await server.close();
		await gateway.stop();
		expect(errors).toEqual([]);
	});
	return server.listen();
}

describe("a2a serve: the cap of a blocking SendMessage", () => {
	it("returns the task WORKING at the cap while nobody has answered; GetTask later gives COMPLETED with the answer", async () => {
		const v = await makeTempVault("a2a-serve-cap-");
		cleanups.push(() => v.cleanup());
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const base = await serveInProcess(v);
		const client = await clientFor(`${base}groups/${A_GROUP}/`);

		// No router runs: the note waits in the gateway's outbox, and the call returns at the cap.
		const task = await send(client, userMessage("cap-1", "Nobody routes this yet"));
		expect(task.id).toBe("cap-1");
		expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
		expect((await notesWithId(v, "cap-1")).map((n) => n.path.split("/").slice(0, 4).join("/"))).toEqual([`A2A/groups/${GATEWAY}/outbox`]);

		expect((await a2a(v.dir, "route")).code).toBe(0);
		expect((await a2a(v.dir, "reply", "--message", "cap-1", "--status", "success", "--answer", "answered after the cap")).code).toBe(0);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const done = await until("the outcome", async () => {
			const now = await getTask(client, "cap-1");
			return now.status?.state === TaskState.TASK_STATE_COMPLETED ? now : null;
		});
		expect(textOfParts(done.artifacts[0]?.parts)).toBe("answered after the cap");
	});
});
