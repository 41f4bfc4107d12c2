import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { planRequest } from "../../src/actions/compose";
import { requestContentProblem } from "../../src/core/content-reasons";
import { messageToRequest } from "../../servers/a2a/mapping/message-to-request";
import { ROUTING_EXTENSION } from "../../servers/a2a/mapping/routing-extension";
import { planAgent } from "../../src/actions/new-agent";
import { planReply } from "../../src/actions/reply";
import { replyToRequest } from "../../src/actions/reply-request";
import { Router } from "../../src/router/router";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Issue 12: every rule exists once, so the CLI and the command palette refuse the same input with
// the same words. The palette's planners (src/actions) and `a2a send` / `a2a reply` are fed the same
// bad inputs on one vault.

const A = "10-backend-group";
const B = "20-frontend-group";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-words-");
	await v.write("A2A/registry.yaml", REGISTRY);
	await a2a(v.dir, "init");
});
afterEach(() => v.cleanup());

async function routingContext() {
	const router = new Router(new NodeVault(v.dir));
	await router.loadRegistry();
	await router.indexSync.ensureLive();
	await router.indexSync.ensureHistory();
	return router.context();
}

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, "");

describe("the CLI and the command palette refuse the same input with the same words", () => {
	it("a target group that is not in the registry", async () => {
		const planned = planRequest(await routingContext(), { from: A, to: "99-nowhere", type: "query", priority: "medium", timeout: "", text: "Q?", context: "", artifacts: [] });
		expect(planned.ok).toBe(false);
		const inPalette = planned.ok ? "" : lower(planned.errors.to ?? "");
		const cli = await a2a(v.dir, "send", "--from", A, "--to", "99-nowhere", "--type", "query", "--question", "Q?");
		expect(cli.code).toBe(1);
		expect(inPalette).toBe('group "99-nowhere" is not in the registry (known groups: 10-backend-group, 20-frontend-group, 30-devops-group, 40-security-group, a2a-gateway)');
		expect(cli.stderr.join("\n")).toContain(inPalette);
	});

	it("a reply to a request that was already answered", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-1", target_group: B }));
		await a2a(v.dir, "route");
		await v.write(`${BOX(B, "outbox")}/first.md`, `---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: q-1\nsource_group: ${B}\nstatus: success\n---\n\n## Answer\n\nOnce.\n`);
		await a2a(v.dir, "route");
		const ctx = await routingContext();
		const [request] = ctx.index.withId("q-1");
		expect(request.location).toMatchObject({ box: "archive" });
		const planned = planReply(ctx, request, B, { status: "success", answer: "Twice?", artifacts: [] });
		expect(planned.ok).toBe(false);
		const inPalette = planned.ok ? "" : (planned.errors._form ?? "");
		const cli = await a2a(v.dir, "reply", "--message", "q-1", "--status", "success", "--answer", "Twice?");
		expect(cli.code).toBe(1);
		const reason = "the router would reject it (INVALID_MESSAGE): request q-1 is already answered";
		expect(lower(inPalette)).toBe(reason);
		expect(cli.stderr.join("\n")).toContain(reason);
	});

	it("a request from a group to itself", async () => {
		const planned = planRequest(await routingContext(), { from: A, to: A, type: "query", priority: "medium", timeout: "", text: "Q?", context: "", artifacts: [] });
		const inPalette = planned.ok ? "" : lower(planned.errors.to ?? "");
		const cli = await a2a(v.dir, "send", "--from", A, "--to", A, "--type", "query", "--question", "Q?");
		expect(cli.code).toBe(1);
		expect(inPalette).toBe(`${A} cannot send a request to itself: choose another group`);
		expect(cli.stderr.join("\n")).toContain(`(CYCLE_DETECTED): ${inPalette}`);
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
	});

	it("an agent name that cannot be a file name", async () => {
		const planned = await planAgent({ exists: async () => false }, "A2A", { name: "a/b", role: "", group: "", objective: "" }, Date.now());
		const inPalette = planned.ok ? "" : lower(planned.errors.name ?? "");
		const cli = await a2a(v.dir, "agent", "set", "a/b", "status=active");
		expect(cli.code).toBe(1);
		expect(inPalette).toBe('agent name "a/b" cannot be a file name: leave out / \\ : * ? " < > | # ^ [ ], control and invisible format characters, a leading dot and spaces at either end');
		expect(cli.stderr.join("\n")).toContain(inPalette);
	});

	it("a request that says nothing, in the palette, the CLI and the A2A gateway alike", async () => {
		for (const type of ["query", "task", "artifact"]) {
			const planned = planRequest(await routingContext(), { from: A, to: B, type, priority: "medium", timeout: "", text: " ", context: "", artifacts: [] });
			expect(planned.ok).toBe(false);
			const inPalette = planned.ok ? "" : lower(planned.errors.text ?? "");
			const cli = await a2a(v.dir, "send", "--from", A, "--to", B, "--type", type);
			expect(cli.code).toBe(1);
			expect(inPalette).toBe(type === "query" ? "write the question, or give a context or an artifact" : "describe the task, or give a context or an artifact");
			expect(cli.stderr.join("\n")).toContain(inPalette);
			const metadata = { [ROUTING_EXTENSION]: { request_type: type } };
			const inbound = messageToRequest({ message: { messageId: `m-${type}`, contextId: "", taskId: "", role: 1, parts: [{ content: { $case: "text", value: " " }, metadata: undefined, filename: "", mediaType: "text/plain" }], metadata, extensions: [], referenceTaskIds: [] } as never, target: B, gateway: "a2a-gateway", now: Date.now() });
			expect(inbound.ok ? "" : inbound.message).toContain(inPalette);
		}
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
	});

	it("a request whose text is the other type's: a query with a task, a task with a question (the CLI and MCP's send_request share sendRequest)", async () => {
		const query = await a2a(v.dir, "send", "--from", A, "--to", B, "--type", "query", "--task", "Do it");
		const task = await a2a(v.dir, "send", "--from", A, "--to", B, "--type", "task", "--question", "Why?");
		expect([query.code, task.code]).toEqual([1, 1]);
		expect(query.stderr.join("\n")).toContain(requestContentProblem("query", { task: "Do it" })?.reason);
		expect(task.stderr.join("\n")).toContain(requestContentProblem("task", { question: "Why?" })?.reason);
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
	});

	it("an answer that says nothing, and a status that is not one", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-2", target_group: B }));
		await a2a(v.dir, "route");
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const ctx = await routingContext();
		const [request] = ctx.index.withId("q-2");
		const inPalette = (status: string, answer: string, field: string) => {
			const planned = planReply(ctx, request, B, { status, answer, artifacts: [] });
			return planned.ok ? "" : lower(planned.errors[field] ?? "");
		};
		// `a2a reply` takes a blank --answer for a usage error; the MCP tool `reply` reaches the shared rule.
		for (const [status, words] of [
			["success", "write the answer, or give artifacts"],
			["error", "say what went wrong"],
		] as const) {
			expect(inPalette(status, " ", "answer")).toBe(words);
			await expect(replyToRequest(router, { messageId: "q-2", status, answer: " " })).rejects.toThrow(words);
		}
		const words = 'must be success or error, got "maybe"';
		expect(inPalette("maybe", "Yes", "status")).toBe(words);
		const cli = await a2a(v.dir, "reply", "--message", "q-2", "--status", "maybe", "--answer", "Yes");
		expect(cli.code).toBe(1);
		expect(cli.stderr.join("\n")).toContain(words);
		expect(await v.files(BOX(B, "outbox"))).toEqual([]);
	});
});
