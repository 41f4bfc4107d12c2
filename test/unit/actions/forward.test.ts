import { describe, expect, it } from "vitest";
import { planForward, readForwardable } from "../../../src/actions/forward";
import { buildResponse } from "../../../src/core/compose";
import { readFrontmatter } from "../../../src/core/frontmatter";
import type { RequestMessage } from "../../../src/core/message";
import { serialiseMessage } from "../../../src/core/message-serialise";
import { BACKEND, DEVOPS, FRONTEND, deliveredRequest, routingContext } from "./context";

// Forward planned on plain inputs: the router's verdict on the forward is predicted, a hop limit
// or a cycle as a warning (the user may write it anyway), anything else as an error.

function original(ctx: ReturnType<typeof routingContext>, hopCount = 0): RequestMessage {
	const { text, entry } = deliveredRequest(ctx, { hopCount });
	const read = readForwardable(text, entry.path);
	if (!read.ok) throw new Error(read.why);
	return read.request;
}

describe("planForward", () => {
	it("plans a request one hop further on the same trace, with the route extended", () => {
		const ctx = routingContext();
		const request = original(ctx);
		const planned = planForward(ctx, request, FRONTEND, ` ${DEVOPS} `, "Please check the deploy side.");
		if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
		expect(planned.warning).toBeNull();
		expect(planned.folder).toBe(`A2A/groups/${FRONTEND}/outbox`);
		// The forward continues the forwarded request (its parent): the router extends that request's route.
		expect(readFrontmatter(planned.text)).toMatchObject({ source_group: FRONTEND, target_group: DEVOPS, trace_id: request.envelope.trace_id, hop_count: 1, parent_id: request.envelope.message_id });
	});

	it("warns of a cycle and of the hop limit before anything is written", () => {
		const ctx = routingContext();
		const back = planForward(ctx, original(ctx), FRONTEND, BACKEND, "");
		expect(back.ok && back.warning?.code).toBe("CYCLE_DETECTED");
		const far = planForward(ctx, original(routingContext(), 4), FRONTEND, DEVOPS, "");
		expect(far.ok && far.warning).toEqual({ code: "MAX_HOPS_EXCEEDED", reason: "hop_count is 5; this registry allows at most 5 hops (hop counts 0 to 4)" });
	});

	it("refuses the group that holds the request and a group outside the registry", () => {
		const ctx = routingContext();
		const request = original(ctx);
		expect(planForward(ctx, request, FRONTEND, FRONTEND, "")).toEqual({ ok: false, errors: { to: `${FRONTEND} cannot send a request to itself: choose another group.` } });
		expect(planForward(ctx, request, FRONTEND, "99-x", "")).toMatchObject({ ok: false, errors: { to: expect.stringContaining('Group "99-x" is not in the registry') } });
	});
});

describe("readForwardable", () => {
	it("says why a note cannot be forwarded", () => {
		expect(readForwardable("just text", "a.md")).toMatchObject({ ok: false, why: expect.stringMatching(/^This request cannot be forwarded: /) });
		const { entry } = deliveredRequest(routingContext());
		const response = serialiseMessage(buildResponse({ request: entry, status: "success", answer: "ok" }, Date.now()));
		expect(readForwardable(response, "r.md")).toEqual({ ok: false, why: "Only a request can be forwarded." });
	});
});
