import { describe, expect, it } from "vitest";
import { planRequest } from "../../../src/actions/compose";
import type { ComposeValues } from "../../../src/actions/compose";
import { FORM_ERROR } from "../../../src/actions/form-errors";
import { planReply } from "../../../src/actions/reply";
import { readFrontmatter } from "../../../src/core/frontmatter";
import { decideOutboxNote } from "../../../src/core/routing";
import { BACKEND, DEVOPS, FRONTEND, GROUPS, deliveredRequest, routingContext } from "./context";

// Compose and reply planned on plain inputs: what is refused, with which words under which field,
// and what note would be written where.

const values = (v: Partial<ComposeValues> = {}): ComposeValues => ({ from: BACKEND, to: FRONTEND, type: "query", priority: "medium", timeout: "0", text: "Which fields?", context: "", artifacts: [], ...v });

describe("planRequest", () => {
	it("plans a request in the sender's outbox that the router would deliver", () => {
		const ctx = routingContext();
		const planned = planRequest(ctx, values({ priority: "high", timeout: "90", artifacts: [" docs/spec.md ", ""] }));
		if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
		expect(planned.folder).toBe(`A2A/groups/${BACKEND}/outbox`);
		expect(planned.fileName).toMatch(/^2026-12-01T10-00-00-query-to-20-frontend-group-[0-9a-f]{8}\.md$/);
		expect(readFrontmatter(planned.text)).toMatchObject({ kind: "request", source_group: BACKEND, target_group: FRONTEND, priority: "high", timeout_seconds: 90, hop_count: 0 });
		expect(planned.text).toContain("docs/spec.md");
		const verdict = decideOutboxNote({ path: `${planned.folder}/${planned.fileName}`, text: planned.text, mtime: ctx.now, group: BACKEND }, ctx, { graceMs: 0 });
		expect(verdict.action).toBe("deliver");
	});

	it("says under each field what is wrong, in the words the router uses for an unknown group", () => {
		const ctx = routingContext();
		const planned = planRequest(ctx, values({ from: "99-nowhere", to: "not a group", timeout: "1.5", text: "" }));
		expect(planned).toEqual({
			ok: false,
			errors: {
				from: `Group "99-nowhere" is not in the registry (known groups: ${GROUPS.join(", ")}).`,
				to: '"not a group" is not a group id: use letters, digits, ".", "_" or "-".',
				timeout: "Enter a whole number of seconds (0 uses the registry's timeout).",
				text: "Write the question, or give a context or an artifact.",
			},
		});
		// The router's GROUP_NOT_FOUND reason for the same group says the same.
		const sent = planRequest(ctx, values({ to: DEVOPS }));
		if (!sent.ok) throw new Error("expected a plan");
		const verdict = decideOutboxNote({ path: "A2A/groups/10-backend-group/outbox/m.md", text: sent.text.replace(`target_group: ${DEVOPS}`, "target_group: 99-nowhere"), mtime: ctx.now, group: BACKEND }, ctx, { graceMs: 0 });
		expect(verdict.action === "reject" && verdict.reason).toBe(`group "99-nowhere" is not in the registry (known groups: ${GROUPS.join(", ")})`);
	});

	it("refuses a request to its own sender, an empty task, and no group at all", () => {
		const ctx = routingContext();
		expect(planRequest(ctx, values({ to: BACKEND }))).toMatchObject({ ok: false, errors: { to: "10-backend-group cannot send a request to itself: choose another group." } });
		expect(planRequest(ctx, values({ type: "task", text: " " }))).toMatchObject({ ok: false, errors: { text: "Describe the task, or give a context or an artifact." } });
		expect(planRequest(ctx, values({ from: "", to: "" }))).toMatchObject({ ok: false, errors: { from: "Choose the sending group.", to: "Choose the target group." } });
	});

	it("finds nothing to choose from in a vault without a registry", () => {
		const planned = planRequest(routingContext(""), values());
		expect(planned).toMatchObject({ ok: false, errors: { from: `Group "${BACKEND}" is not in the registry (known groups: none).` } });
	});
});

describe("planReply", () => {
	it("plans the response in the answering group's outbox, on the request's trace", () => {
		const ctx = routingContext();
		const { entry } = deliveredRequest(ctx);
		const planned = planReply(ctx, entry, FRONTEND, { status: "success", answer: "name and email", artifacts: [] });
		if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
		expect(planned.folder).toBe(`A2A/groups/${FRONTEND}/outbox`);
		expect(readFrontmatter(planned.text)).toMatchObject({ kind: "response", source_group: FRONTEND, in_reply_to: entry.messageId, trace_id: entry.traceId, status: "success" });
	});

	it("asks for an answer and a status, and for a group still in the registry", () => {
		const ctx = routingContext();
		const { entry } = deliveredRequest(ctx);
		expect(planReply(ctx, entry, FRONTEND, { status: "error", answer: " ", artifacts: [] })).toEqual({ ok: false, errors: { answer: "Say what went wrong." } });
		expect(planReply(ctx, entry, FRONTEND, { status: "maybe", answer: "x", artifacts: [] })).toEqual({ ok: false, errors: { status: "Must be success or error, got \"maybe\"." } });
		expect(planReply(ctx, entry, "99-gone", { status: "success", answer: "x", artifacts: [] })).toEqual({ ok: false, errors: { [FORM_ERROR]: 'Group "99-gone" is not in the registry (known groups: 10-backend-group, 20-frontend-group, 30-devops-group, 40-security-group, a2a-gateway).' } });
	});
});
