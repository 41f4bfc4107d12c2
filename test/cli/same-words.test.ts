import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../cli/node-vault";
import { planRequest } from "../../src/actions/compose";
import { planReply } from "../../src/actions/reply";
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
});
