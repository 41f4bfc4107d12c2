import { describe, expect, it } from "vitest";
import { A_GROUP, B_GROUP, GATEWAY, ROUTING_EXTENSION, clientFor, notesWithId, send, until, useHarness, userMessage } from "./harness";

// The third adversarial review of `a2a serve`: one named test per break it found, run as users run
// it (the CLI bundle as child processes, the official client, raw HTTP). Each fails on the code it
// was written against.

const h = useHarness();

const inInbox = (group: string) => (n: { path: string }) => n.path.startsWith(`A2A/groups/${group}/inbox/`);

describe("review 3: a client's contextId may name an internal trace and take its answers", () => {
	it("a client cannot join an internal conversation while its request is still in an outbox (not yet routed)", async () => {
		const v = await h.vault();
		// An internal request from A to B, just sent: no router has carried it yet.
		const sent = await h.run(["send", "--vault", v.dir, "--from", A_GROUP, "--to", B_GROUP, "--type", "query", "--question", "internal"]);
		const traceId = /trace_id: (\S+)/.exec(sent.stdout)?.[1] ?? "";
		expect(traceId).not.toBe("");
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(B_GROUP));
		await expect(send(client, userMessage("early-1", "let me in", { contextId: traceId }), true)).rejects.toThrow(/names a conversation of this vault that no A2A client started/);
		expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
		expect(await notesWithId(v, "early-1")).toEqual([]);
	}, 30_000);

	it("a client cannot join an internal trace by its contextId, so an answer without in_reply_to still goes to its requester", async () => {
		const v = await h.vault();
		h.router(v.dir);
		// An internal request from A to B, delivered.
		const sent = await h.run(["send", "--vault", v.dir, "--from", A_GROUP, "--to", B_GROUP, "--type", "query", "--question", "internal"]);
		const traceId = /trace_id: (\S+)/.exec(sent.stdout)?.[1] ?? "";
		const internalId = /message_id: (\S+)/.exec(sent.stdout)?.[1] ?? "";
		await until("the internal delivery", async () => (await notesWithId(v, internalId)).find(inInbox(B_GROUP)));
		// An outside client tries to join that internal trace by its contextId: refused, nothing written.
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(B_GROUP));
		await expect(send(client, userMessage("joined-1", "unrelated", { contextId: traceId }), true)).rejects.toThrow(/names a conversation of this vault that no A2A client started/);
		// Nor by the routing extension's trace_id (in any case): that is a relay's, for a trace this vault sent out.
		const viaMetadata = userMessage("joined-2", "unrelated", { metadata: { [ROUTING_EXTENSION]: { trace_id: traceId.toUpperCase() } } });
		await expect(send(client, viaMetadata, true)).rejects.toThrow(/names a conversation of this vault that no A2A client started/);
		expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
		expect(await notesWithId(v, "joined-1")).toEqual([]);
		// B answers its internal peer the seed's way (trace only, no in_reply_to): the answer goes to A.
		await v.write(
			`A2A/groups/${B_GROUP}/outbox/answer.md`,
			`---\nkind: response\ntrace_id: ${traceId}\nsource_group: ${B_GROUP}\nstatus: success\n---\n\n## Answer\n\nfor ${A_GROUP} only\n`,
		);
		await until("the answer delivered to A", async () => (await v.files(`A2A/groups/${A_GROUP}/inbox`)).length > 0);
		expect(await v.files(`A2A/groups/${GATEWAY}/inbox`)).toEqual([]);
		// A client continues a conversation it started: its contextId is accepted.
		const own = await send(client, userMessage("own-1", "first", { contextId: "my-conversation" }), true);
		await send(client, userMessage("own-2", "second", { contextId: own.contextId }), true);
		await until("both requests written", async () => (await notesWithId(v, "own-2")).length > 0);
	});
});

describe("review 3: a2a serve on loopback without a token answers any Host (DNS rebinding)", () => {
	it("a call whose Host header names another site is refused and writes nothing", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const port = new URL(served.url).port;
		const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "rebind-1", role: "ROLE_USER", parts: [{ text: "from a web page" }] }, configuration: { returnImmediately: true } } });
		const http = await import("node:http");
		const status = await new Promise<number>((resolve, reject) => {
			const req = http.request({ host: "127.0.0.1", port, path: `/groups/${A_GROUP}/`, method: "POST", headers: { Host: `rebind.attacker.example:${port}`, Origin: `http://rebind.attacker.example:${port}`, "A2A-Version": "1.0", "Content-Type": "text/plain" } }, (res) => {
				res.resume();
				res.on("end", () => resolve(res.statusCode ?? 0));
			});
			req.on("error", reject);
			req.end(body);
		});
		expect(status).toBeGreaterThanOrEqual(400);
		expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
	});
});

describe("review 3: a huge timeout_seconds in the routing metadata makes a task that never ends", () => {
	it("SendMessage with timeout_seconds 9007199254740991 is refused, not written as a note the router cannot route", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const message = userMessage("huge-1", "forever", { metadata: { "urn:a2a-relay:ext:routing:v1": { timeout_seconds: Number.MAX_SAFE_INTEGER } } });
		await expect(send(client, message, true)).rejects.toThrow(/timeout_seconds/);
		expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
	});
});
