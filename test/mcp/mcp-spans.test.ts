import { describe, expect, it } from "vitest";
import { startOtlpReceiver } from "../helpers/otlp-receiver";
import { a2a } from "../helpers/temp-vault";
import { until, useMcpHarness } from "../helpers/mcp-harness";

// `a2a mcp` with OpenTelemetry asked for (protocol section 9): each message a tool writes has a
// creation span (the messaging conventions' `create`) in the conversation's trace, beside the span
// the router gives the same message (same parent, another id); nothing an agent wrote is in it.

const h = useMcpHarness();

describe("a2a mcp exports the creation of what its tools write", () => {
	it("send_request and reply each give a create span in the message's trace", async () => {
		const receiver = await startOtlpReceiver();
		try {
			const v = await h.vault();
			const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
			const backend = await h.agent(v, "10-backend-group", undefined, env);
			const frontend = await h.agent(v, "20-frontend-group", undefined, env);
			const sent = await backend.ok<{ message_id: string; trace_id: string }>("send_request", { to: "20-frontend-group", type: "query", question: "secret question text" });
			expect((await a2a(v.dir, "route")).code).toBe(0);
			const replied = await frontend.ok<{ message_id: string }>("reply", { message_id: sent.message_id, status: "success", answer: "secret answer text" });
			await backend.close();
			await frontend.close();
			const trace = sent.trace_id.replace(/-/g, "");
			const request = await until("the request's create span", async () => receiver.spans.find((s) => s.attributes["messaging.message.id"] === sent.message_id));
			const response = await until("the answer's create span", async () => receiver.spans.find((s) => s.attributes["messaging.message.id"] === replied.message_id));
			expect([request.traceId, request.attributes["messaging.operation.type"], request.name, request.parentSpanId ?? ""]).toEqual([trace, "create", "create 20-frontend-group", ""]);
			const read = await a2a(v.dir, "read", sent.message_id, "--json");
			// The relay's hop of the request is another span; the answer's creation is the request's child, as its hop is.
			expect(String(read.json[0].relay_traceparent)).not.toContain(request.spanId);
			expect(response.traceId).toBe(trace);
			expect(String(read.json[0].relay_traceparent)).toContain(response.parentSpanId);
			expect(JSON.stringify(receiver.spans)).not.toMatch(/secret (question|answer) text/);
		} finally {
			await receiver.close();
		}
	}, 60_000);
});
