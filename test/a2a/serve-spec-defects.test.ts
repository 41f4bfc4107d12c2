import { describe, expect, it } from "vitest";
import { startScriptedAgent } from "../../test-support/scripted-agent";
import { GATEWAY, B_GROUP, notesWithId, useHarness } from "./harness";
import type { Served } from "./harness";
import type { TempVault } from "../helpers/temp-vault";

// The five defects the official conformance kit found in `a2a serve` (issue 26), each as a v1.0
// JSON-RPC client sees it (raw calls, A2A-Version: 1.0, under /groups/<id>/ so that the layout
// every version of the gateway serves is the one tested).

const h = useHarness();

type Rpc = { result?: Record<string, unknown>; error?: { code: number; message: string } };

function rpcTo(served: Served) {
	let id = 0;
	return async (method: string, params: unknown): Promise<Rpc> => {
		const res = await fetch(served.groupUrl(B_GROUP), { method: "POST", headers: { "Content-Type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }) });
		return (await res.json()) as Rpc;
	};
}

const message = (messageId: string, extra: Record<string, unknown> = {}) => ({ messageId, role: "ROLE_USER", parts: [{ text: `question ${messageId}` }], ...extra });

async function nothingWritten(v: TempVault): Promise<void> {
	expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
}

describe("a2a serve keeps to the specification where the conformance kit found it did not", () => {
	it("role is REQUIRED: a message without it, or one claiming to be the agent's, is -32602 and writes nothing", async () => {
		const v = await h.vault();
		const rpc = rpcTo(await h.serve(v.dir));
		const { role: _role, ...noRole } = message("no-role");
		const missing = await rpc("SendMessage", { message: noRole, configuration: { returnImmediately: true } });
		const agent = await rpc("SendMessage", { message: message("agent-role", { role: "ROLE_AGENT" }), configuration: { returnImmediately: true } });
		expect([missing.error?.code, agent.error?.code]).toEqual([-32602, -32602]);
		expect(missing.error?.message).toMatch(/role is required/);
		expect(agent.error?.message).toMatch(/ROLE_AGENT/);
		await nothingWritten(v);
	});

	it("historyLength -1 is -32602 for GetTask and ListTasks; 0 and 1 are served", async () => {
		const v = await h.vault();
		const rpc = rpcTo(await h.serve(v.dir));
		expect((await rpc("SendMessage", { message: message("h-1"), configuration: { returnImmediately: true } })).error).toBeUndefined();
		const get = await rpc("GetTask", { id: "h-1", historyLength: -1 });
		const list = await rpc("ListTasks", { historyLength: -1 });
		expect([get.error?.code, list.error?.code]).toEqual([-32602, -32602]);
		const one = await rpc("GetTask", { id: "h-1", historyLength: 1 });
		const none = await rpc("ListTasks", { historyLength: 0 });
		expect((one.result?.history as unknown[]).length).toBe(1);
		expect((none.result?.tasks as { history?: unknown[] }[]).map((t) => t.history ?? [])).toEqual([[]]);
	});

	it("statusTimestampAfter includes a task whose status time equals it (greater than or equal)", async () => {
		const v = await h.vault();
		const rpc = rpcTo(await h.serve(v.dir));
		const sent = await rpc("SendMessage", { message: message("t-1"), configuration: { returnImmediately: true } });
		const at = ((sent.result?.task as { status: { timestamp: string } }).status.timestamp);
		const ids = async (after: string) => ((await rpc("ListTasks", { statusTimestampAfter: after })).result?.tasks as { id: string }[]).map((t) => t.id);
		expect(await ids(at)).toEqual(["t-1"]);
		expect(await ids(new Date(Date.parse(at) + 1).toISOString())).toEqual([]);
	});

	it("a blocking SendMessage returns the task GetTask reads: same status, same history", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const rpc = rpcTo(await h.serve(v.dir));
		const agent = startScriptedAgent(v.dir, B_GROUP, (id) => `answer to ${id}`);
		try {
			const sent = (await rpc("SendMessage", { message: message("b-1") })).result?.task as Record<string, unknown>;
			const read = (await rpc("GetTask", { id: "b-1" })).result as Record<string, unknown>;
			expect((sent.status as { state: string }).state).toBe("TASK_STATE_COMPLETED");
			expect([sent.status, sent.history, sent.artifacts]).toEqual([read.status, read.history, read.artifacts]);
		} finally {
			await agent.stop();
		}
	});

	it("the card's input modes say what is taken: text, data (JSON) and url parts are all accepted and kept in the note", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const card = (await (await fetch(`${served.groupUrl(B_GROUP)}.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json()) as { defaultInputModes: string[] };
		expect(card.defaultInputModes).toEqual(["text/plain", "application/json", "text/uri-list"]);
		const parts = [{ text: "see these" }, { data: { size: 3 }, mediaType: "application/json" }, { url: "https://example.org/spec.pdf", mediaType: "application/pdf" }];
		const sent = await rpcTo(served)("SendMessage", { message: message("modes-1", { parts }), configuration: { returnImmediately: true } });
		expect(sent.error).toBeUndefined();
		const [note] = await notesWithId(v, "modes-1");
		const text = await v.read(note.path);
		expect([text.includes("see these"), text.includes('"size": 3'), text.includes("https://example.org/spec.pdf")]).toEqual([true, true, true]);
	});
});
