import { Role, TaskState } from "@a2a-js/sdk";
import type { Message, Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { CONTEXT_ID_FIELD, messageToRequest } from "../../servers/a2a/mapping/message-to-request";
import { noteToTask } from "../../servers/a2a/mapping/note-to-task";
import { ROUTING_EXTENSION, readRoutingMetadata } from "../../servers/a2a/mapping/routing-extension";
import { uuidFromText } from "../../src/core/hash";
import type { IndexEntry } from "../../src/core/message-index";
import { serialiseMessage } from "../../src/core/message-serialise";

// The A2A <-> note mapping of contract v2, section 8, as pure functions (the half the outbound
// forwarding reuses).

const NOW = Date.parse("2026-03-01T12:00:00.000Z");
const TRACE = "a1b2c3d4-e5f6-4890-abcd-ef1234567890";
const text = (value: string): Part => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" });
const message = (parts: Part[], extra: Partial<Message> = {}): Message => ({ messageId: "m-1", contextId: "", taskId: "", role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra });
const map = (m: Message) => messageToRequest({ message: m, target: "10-backend-group", gateway: "a2a-gateway", now: NOW });

describe("routing metadata", () => {
	it("reads every field, the extension winning over a bare request_type", () => {
		const read = readRoutingMetadata({ request_type: "query", [ROUTING_EXTENSION]: { trace_id: TRACE.toUpperCase(), hop_count: 2, route: ["a", "b"], priority: "high", request_type: "task", timeout_seconds: 9, expires_at: "2026-03-01T12:01:00Z" } });
		expect(read).toEqual({ ok: true, value: { trace_id: TRACE, hop_count: 2, route: ["a", "b"], priority: "high", request_type: "task", timeout_seconds: 9, expires_at: "2026-03-01T12:01:00Z" } });
	});

	it("names the field that is wrong", () => {
		expect(readRoutingMetadata({ [ROUTING_EXTENSION]: { hop_count: -1 } })).toEqual({ ok: false, problem: `metadata["${ROUTING_EXTENSION}"].hop_count must be an integer >= 0, got -1` });
		expect(readRoutingMetadata({ request_type: "poem" })).toMatchObject({ ok: false, problem: 'metadata.request_type must be query, task, artifact, got "poem"' });
		expect(readRoutingMetadata({ [ROUTING_EXTENSION]: { route: ["../x"] } })).toMatchObject({ ok: false });
		expect(readRoutingMetadata({ [ROUTING_EXTENSION]: "yes" })).toMatchObject({ ok: false });
	});
});

describe("an A2A message as a request note", () => {
	it("text parts become the question; messageId the message_id; a UUID contextId the trace", () => {
		const mapped = map(message([text("What fields?"), text("And why?")], { contextId: TRACE }));
		if (!mapped.ok) throw new Error(mapped.message);
		expect(mapped.contextId).toBe(TRACE);
		expect(mapped.request.envelope).toMatchObject({ message_id: "m-1", trace_id: TRACE, hop_count: 0, source_group: "a2a-gateway", target_group: "10-backend-group", request_type: "query" });
		expect(serialiseMessage(mapped.request)).toContain("## Question\n\nWhat fields?\n\nAnd why?\n");
	});

	it("request_type task gives ## Task; url parts the artifacts; data parts a JSON block in the context", () => {
		const parts: Part[] = [text("Build it"), { content: { $case: "url", value: "https://example.org/spec.pdf" }, metadata: undefined, filename: "", mediaType: "" }, { content: { $case: "data", value: { a: 1 } }, metadata: undefined, filename: "", mediaType: "" }];
		const mapped = map(message(parts, { metadata: { [ROUTING_EXTENSION]: { request_type: "task", priority: "high", route: ["20-frontend-group"], hop_count: 1 } } }));
		if (!mapped.ok) throw new Error(mapped.message);
		expect(mapped.request.payload).toEqual({ task: "Build it", context: '```json\n{\n  "a": 1\n}\n```', artifacts: ["https://example.org/spec.pdf"] });
		expect(mapped.request.envelope).toMatchObject({ request_type: "task", priority: "high", route: ["20-frontend-group"], hop_count: 1 });
	});

	it("keeps a contextId that is not a UUID beside a trace derived from it", () => {
		const mapped = map(message([text("hi")], { contextId: "conversation-7" }));
		if (!mapped.ok) throw new Error(mapped.message);
		expect(mapped.contextId).toBe("conversation-7");
		expect(mapped.request.envelope.trace_id).toBe(uuidFromText("a2a-context\nconversation-7"));
		expect(mapped.request.extra[CONTEXT_ID_FIELD]).toBe("conversation-7");
	});

	it("refuses file bytes, an empty message, a bad messageId and an expired one, and mends broken text", () => {
		expect(map(message([{ content: { $case: "raw", value: Buffer.from("x") }, metadata: undefined, filename: "x", mediaType: "" }]))).toMatchObject({ ok: false, kind: "content" });
		expect(map(message([]))).toMatchObject({ ok: false, kind: "malformed" });
		expect(map(message([text("hi")], { messageId: " padded" }))).toMatchObject({ ok: false, kind: "malformed" });
		expect(map(message([text("hi")], { metadata: { [ROUTING_EXTENSION]: { expires_at: "2026-03-01T11:59:59Z" } } }))).toMatchObject({ ok: false, kind: "expired" });
		const mended = map(message([text("a\ud800b\u0000c")]));
		expect(mended.ok && mended.request.payload.question).toBe("a\uFFFDb\uFFFDc");
		const timed = map(message([text("hi")], { metadata: { [ROUTING_EXTENSION]: { expires_at: "2026-03-01T12:00:09.500Z" } } }));
		expect(timed.ok && timed.request.envelope.timeout_seconds).toBe(10);
	});
});

describe("a request note as an A2A task", () => {
	const entry = (fields: Partial<IndexEntry>): IndexEntry => ({ path: "p.md", location: { area: "box", box: "inbox", group: "10-backend-group" }, kind: "request", messageId: "m-1", traceId: TRACE, sourceGroup: "a2a-gateway", targetGroup: "10-backend-group", route: [], created: "2026-03-01T12:00:00.000Z", state: "delivered", deliveredAt: "2026-03-01T12:00:01.000Z", attempt: 1, ...fields });
	const stateOf = (request: IndexEntry, response?: IndexEntry) => noteToTask({ request, response, responsePayload: response ? { answer: "yes", artifacts: ["[[specs/a.md]]"] } : undefined }).status?.state;

	it("follows the note: waiting and delivered are WORKING, answered COMPLETED with the answer and artifacts", () => {
		expect(stateOf(entry({ location: { area: "box", box: "outbox", group: "a2a-gateway" }, state: undefined }))).toBe(TaskState.TASK_STATE_WORKING);
		expect(stateOf(entry({ state: "retrying", attempt: 2 }))).toBe(TaskState.TASK_STATE_WORKING);
		const response = entry({ kind: "response", messageId: "r-1", sourceGroup: "10-backend-group", status: "success", location: { area: "box", box: "inbox", group: "a2a-gateway" } });
		const task = noteToTask({ request: entry({}), response, responsePayload: { answer: "yes", artifacts: ["[[specs/a.md]]"] } });
		expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
		expect(task.artifacts[0].parts.map((p) => [p.content?.value, p.filename])).toEqual([["yes", ""], ["[[specs/a.md]]", "a.md"]]);
		expect(stateOf(entry({}), { ...response, status: "error", errorCode: "NOPE" })).toBe(TaskState.TASK_STATE_FAILED);
	});

	it("dead letters: TIMEOUT is FAILED, CANCELED is CANCELED, a rejection REJECTED, a move not yet stamped CANCELED", () => {
		const dead = (fields: Partial<IndexEntry>) => entry({ location: { area: "dead-letter" }, deadAt: "2026-03-01T12:05:00.000Z", ...fields });
		expect(stateOf(dead({ state: "timed_out", errorCode: "TIMEOUT" }))).toBe(TaskState.TASK_STATE_FAILED);
		expect(stateOf(dead({ state: "dead", errorCode: "CANCELED" }))).toBe(TaskState.TASK_STATE_CANCELED);
		expect(stateOf(dead({ state: "dead", errorCode: "CYCLE_DETECTED" }))).toBe(TaskState.TASK_STATE_REJECTED);
		expect(stateOf(dead({ deadAt: undefined }))).toBe(TaskState.TASK_STATE_CANCELED);
	});
});
