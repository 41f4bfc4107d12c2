import { describe, expect, it } from "vitest";
import { startOtlpReceiver } from "../helpers/otlp-receiver";
import { a2a } from "../helpers/temp-vault";
import { B_GROUP, notesWithId, until, useHarness } from "./harness";

// W3C trace context across A2A (protocol sections 8 and 9): an A2A client that sends `traceparent`
// finds its trace continued by the relay. The note keeps what the call carried, a caller that starts
// a conversation gives it its trace id, and the relay's span of the request is the caller's child.

const h = useHarness();
const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

describe("a2a serve and the caller's trace context", () => {
	it("keeps traceparent and tracestate on the note, takes the caller's trace as the conversation, and the relay's span continues it", async () => {
		const receiver = await startOtlpReceiver();
		const v = await h.vault();
		const gatewayReceiver = await startOtlpReceiver();
		const served = await h.serve(v.dir, ["--group", B_GROUP], { OTEL_EXPORTER_OTLP_ENDPOINT: gatewayReceiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
		const router = h.cli.startWatcher(v.dir, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" } });
		try {
			const res = await fetch(served.url, {
				method: "POST",
				headers: { "Content-Type": "application/json", "A2A-Version": "1.0", traceparent: TRACEPARENT, tracestate: "congo=t61rcWkgMzE" },
				body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "traced-1", role: "ROLE_USER", parts: [{ text: "a traced question" }] }, configuration: { returnImmediately: true } } }),
			});
			const sent = (await res.json()) as { result?: { task?: { contextId?: string } } };
			const conversation = "4bf92f35-77b3-4da6-a3ce-929d0e0e4736";
			expect(sent.result?.task?.contextId).toBe(conversation);
			const [note] = await until("the request delivered", async () => {
				const notes = await notesWithId(v, "traced-1");
				return notes.length === 1 && notes[0].fm.state === "delivered" ? notes : null;
			});
			expect(note.fm).toMatchObject({ trace_id: conversation, traceparent: TRACEPARENT, tracestate: "congo=t61rcWkgMzE" });
			const read = await a2a(v.dir, "read", "traced-1", "--json");
			expect(read.json[0]).toMatchObject({ traceparent: TRACEPARENT, relay_traceparent: expect.stringMatching(new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`)) });
			expect(await h.reply(v.dir, "traced-1", "the answer")).toBe(0);
			await until("the answer routed", async () => router.lines.some((l) => l.includes('"outcome":"answered"')));
			router.child.kill("SIGINT");
			await router.closed;
			const span = await until("the request's span", async () => receiver.spans.find((s) => s.attributes["messaging.message.id"] === "traced-1" && s.attributes["a2a_relay.outcome"] === "answered"));
			expect([span.traceId, span.parentSpanId]).toEqual([CALLER_TRACE, CALLER_SPAN]);
			expect(String(read.json[0].relay_traceparent)).toContain(span.spanId);
			// a2a serve's own span: the creation of the note, the caller's child too, beside the relay's hop.
			await served.stop();
			const created = await until("the gateway's creation span", async () => gatewayReceiver.spans.find((s) => s.attributes["messaging.message.id"] === "traced-1"));
			expect([created.traceId, created.parentSpanId, created.attributes["messaging.operation.type"], created.name]).toEqual([CALLER_TRACE, CALLER_SPAN, "create", `create ${B_GROUP}`]);
			expect(created.spanId).not.toBe(span.spanId);
		} finally {
			await served.stop();
			await receiver.close();
			await gatewayReceiver.close();
		}
	}, 60_000);

	it("does not let a traceparent join a conversation of the vault that no A2A client started, nor refuse for it: a new conversation", async () => {
		const v = await h.vault();
		const internal = await a2a(v.dir, "send", "--from", "10-backend-group", "--to", B_GROUP, "--type", "query", "--question", "internal secret", "--json");
		const trace = String(internal.json[0].trace_id);
		const internalId = String(internal.json[0].message_id);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const served = await h.serve(v.dir, ["--group", B_GROUP]);
		try {
			// An agent whose HTTP instrumentation continues the relay's own trace calls the gateway: trace context, not a contextId.
			const traceparent = `00-${trace.replace(/-/g, "")}-${CALLER_SPAN}-01`;
			const res = await fetch(served.url, {
				method: "POST",
				headers: { "Content-Type": "application/json", "A2A-Version": "1.0", traceparent },
				body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "intruder-1", role: "ROLE_USER", parts: [{ text: "let me in" }] }, configuration: { returnImmediately: true } } }),
			});
			const answer = (await res.json()) as { error?: { message: string }; result?: { task?: { contextId?: string } } };
			expect(answer.error, answer.error?.message).toBeUndefined();
			const context = answer.result?.task?.contextId ?? "";
			expect(context).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
			expect(context).not.toBe(trace);
			const [note] = await notesWithId(v, "intruder-1");
			// The note is in its own conversation and keeps the caller's trace context (the relay's span links to it).
			expect(note.fm).toMatchObject({ trace_id: context, traceparent });
			// Nothing of the internal conversation reaches the caller.
			const text = JSON.stringify(answer);
			expect(text).not.toContain("internal secret");
			expect(text).not.toContain(internalId);
			const listed = await fetch(served.url, {
				method: "POST",
				headers: { "Content-Type": "application/json", "A2A-Version": "1.0" },
				body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ListTasks", params: { contextId: trace } }),
			});
			const tasks = (await listed.json()) as { error?: unknown; result?: { tasks?: unknown[] } };
			expect(tasks.error).toBeUndefined();
			expect(tasks.result?.tasks ?? []).toEqual([]);
		} finally {
			await served.stop();
		}
	}, 30_000);

	it("ignores a traceparent that is not one, and refuses nothing for it", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir, ["--group", B_GROUP]);
		try {
			const res = await fetch(served.url, {
				method: "POST",
				headers: { "Content-Type": "application/json", "A2A-Version": "1.0", traceparent: "00-not-a-trace-01" },
				body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "untraced-1", role: "ROLE_USER", parts: [{ text: "a question" }] }, configuration: { returnImmediately: true } } }),
			});
			expect(((await res.json()) as { error?: unknown }).error).toBeUndefined();
			const [note] = await notesWithId(v, "untraced-1");
			expect(note.fm.traceparent).toBeUndefined();
		} finally {
			await served.stop();
		}
	}, 30_000);
});
