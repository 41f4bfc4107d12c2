import { SendMessageRequest, Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { messageToRequest } from "../../servers/a2a/mapping/message-to-request";
import { noteToTask } from "../../servers/a2a/mapping/note-to-task";
import { ROUTING_EXTENSION } from "../../src/core/a2a-routing";
import type { WireSendResult, WireTask } from "../../src/core/a2a-wire";
import type { IndexEntry } from "../../src/core/message-index";
import { serialiseMessage } from "../../src/core/message-serialise";
import { readRawMessage } from "../../src/core/message-parse";
import { REMOTE_ERROR, readRemoteResult, readRemoteTask, remoteResponse, remoteResponseId, tooLargeAnswer } from "../../src/core/remote-answer";
import { artifactNames, remoteFileBytes, safeArtifactName } from "../../src/core/remote-files";
import { forwardParams, routeBefore, tokenRefusal } from "../../src/core/remote-request";
import { spanIdOf } from "../../src/core/trace-context";

// The outbound half of contract v2 section 8 as pure functions: a request note delivered to a
// remote group -> SendMessage params; the remote's task or message -> the relay's response. The
// params are read back with the official SDK's codec and the inbound gateway's own mapping, so the
// two ends of a relay-to-relay hop are checked against each other.

const TRACE = "a1b2c3d4-e5f6-4890-abcd-ef1234567890";
const NOW = Date.parse("2026-03-01T12:00:00.000Z");

const delivered = {
	kind: "request",
	message_id: "req-1",
	trace_id: TRACE,
	hop_count: 1,
	source_group: "10-backend",
	target_group: "remote-x",
	request_type: "task",
	priority: "high",
	route: ["a", "10-backend", "remote-x"],
	state: "delivered",
	expires_at: "2026-03-01T12:00:30.000Z",
};

const task = (state: string, extra: Partial<WireTask> = {}): WireTask => ({ id: "t-9", contextId: TRACE, status: { state, message: { messageId: "s", role: "ROLE_AGENT", parts: [{ text: "because" }] } }, ...extra });

describe("a request note as SendMessage params", () => {
	const params = forwardParams({ fields: delivered, payload: { task: "Design the schema", context: "Postgres 16", artifacts: ["docs/spec.md", "[[notes/api|API]]"] }, timeoutSeconds: 30 });

	it("sends the task as it is, other sections with their heading, artifacts as file parts by vault path", () => {
		expect(params.message.parts).toEqual([
			{ text: "Design the schema", mediaType: "text/plain" },
			{ text: "## Context\n\nPostgres 16", mediaType: "text/markdown" },
			{ url: "docs/spec.md", filename: "spec.md", metadata: { vault_path: "docs/spec.md" } },
			{ url: "[[notes/api|API]]", filename: "api", metadata: { vault_path: "notes/api" } },
		]);
	});

	it("is idempotent by message id, in the trace, with the note's hop count and the route without the remote group", () => {
		expect(params.message).toMatchObject({ messageId: "req-1", contextId: TRACE, role: "ROLE_USER", extensions: [ROUTING_EXTENSION] });
		expect(params.message.metadata?.[ROUTING_EXTENSION]).toEqual({ trace_id: TRACE, hop_count: 1, route: ["a", "10-backend"], priority: "high", request_type: "task", timeout_seconds: 30, expires_at: "2026-03-01T12:00:30.000Z", traceparent: `00-${TRACE.replace(/-/g, "")}-${spanIdOf("req-1")}-01` });
		expect(params.configuration?.returnImmediately).toBe(true);
		expect(forwardParams({ fields: delivered, payload: { task: "Design the schema" }, timeoutSeconds: 30 }).message.messageId).toBe("req-1");
	});

	it("is read by the official SDK and by the inbound gateway of another relay as the same request", () => {
		const sdk = SendMessageRequest.fromJSON(params as never);
		expect(sdk.message?.messageId).toBe("req-1");
		const inbound = messageToRequest({ message: sdk.message!, target: "remote-x", gateway: "a2a-gateway", now: NOW });
		if (!inbound.ok) throw new Error(inbound.message);
		expect(inbound.request.envelope).toMatchObject({ message_id: "req-1", trace_id: TRACE, hop_count: 1, route: ["a", "10-backend"], request_type: "task", priority: "high" });
		const note = serialiseMessage(inbound.request);
		const read = readRawMessage(note, "x.md");
		if (!read.ok) throw new Error(read.reason);
		// The other relay keeps the sections under their headings inside its task text (a remote's text never makes sections of its own).
		expect(read.raw.payload).toEqual({ task: "Design the schema\n\n## Context\n\nPostgres 16", artifacts: ["docs/spec.md", "[[notes/api|API]]"] });
	});

	it("routeBefore drops the target only when it ends the route", () => {
		expect(routeBefore(["a", "b"], "b")).toEqual(["a"]);
		expect(routeBefore(["a", "b"], "c")).toEqual(["a", "b"]);
		expect(routeBefore(undefined, "c")).toEqual([]);
	});
});

describe("the remote's answer as the relay's response", () => {
	it("a COMPLETED task: its artifact texts are the answer, listed paths and links are artifacts, file bytes are handed on as files", () => {
		const read = readRemoteTask(
			task("TASK_STATE_COMPLETED", { artifacts: [{ parts: [{ text: "42 fields" }, { text: "docs/out.md", metadata: { vault_path: "docs/out.md" } }, { url: "https://x.example/r.pdf" }, { raw: "AAAA", filename: "../../etc/passwd" }] }] }),
			"remote-x",
		);
		expect(read).toEqual({
			kind: "final",
			taskId: "t-9",
			answer: { status: "success", answer: "42 fields", artifacts: ["docs/out.md", "https://x.example/r.pdf"], files: [{ name: "../../etc/passwd", base64: "AAAA" }] },
		});
	});

	it("a COMPLETED task without artifacts answers with its status message; a direct message is a success", () => {
		expect(readRemoteTask(task("TASK_STATE_COMPLETED"), "r")).toMatchObject({ kind: "final", answer: { status: "success", answer: "because" } });
		const direct: WireSendResult = { message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "hi" }, { data: { a: 1 } }] } };
		expect(readRemoteResult(direct, "r")).toMatchObject({ kind: "final", answer: { status: "success", answer: 'hi\n\n```json\n{\n  "a": 1\n}\n```' } });
	});

	it("FAILED, REJECTED, CANCELED are errors with the remote's reason; INPUT_REQUIRED and AUTH_REQUIRED say a person must answer", () => {
		expect(readRemoteTask(task("TASK_STATE_FAILED"), "r")).toMatchObject({ kind: "final", answer: { status: "error", errorCode: REMOTE_ERROR.failed, errorMessage: "r failed the task: because" } });
		expect(readRemoteTask(task("TASK_STATE_REJECTED"), "r")).toMatchObject({ answer: { errorCode: "REMOTE_REJECTED" } });
		expect(readRemoteTask(task("TASK_STATE_CANCELED"), "r")).toMatchObject({ answer: { errorCode: "REMOTE_CANCELED" } });
		const input = readRemoteTask(task("TASK_STATE_INPUT_REQUIRED"), "r");
		expect(input).toMatchObject({ kind: "final", answer: { status: "error", errorCode: "INPUT_REQUIRED" } });
		expect(input.kind === "final" && input.answer.errorMessage).toContain("a person must give it");
		expect(readRemoteTask(task("TASK_STATE_AUTH_REQUIRED"), "r")).toMatchObject({ answer: { errorCode: "AUTH_REQUIRED" } });
	});

	it("SUBMITTED and WORKING are pending", () => {
		expect(readRemoteTask(task("TASK_STATE_WORKING"), "r")).toEqual({ kind: "pending", taskId: "t-9", state: "TASK_STATE_WORKING" });
		expect(readRemoteResult({ task: { id: "t-1" } }, "r")).toMatchObject({ kind: "pending", state: "TASK_STATE_SUBMITTED" });
	});

	it("a long reason is cut in the frontmatter and kept whole in the answer; a task id that cannot be kept is refused", () => {
		const long = "why ".repeat(600).trim();
		const read = readRemoteTask({ id: "t", status: { state: "TASK_STATE_FAILED", message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: long }] } } }, "r");
		if (read.kind !== "final") throw new Error("not final");
		expect(read.answer.errorMessage?.length).toBe(1000);
		expect(read.answer.answer).toBe(`r failed the task: ${long}`);
		expect(readRemoteTask({ id: "x\ny", status: { state: "TASK_STATE_COMPLETED" } }, "r")).toMatchObject({ kind: "final", answer: { status: "error", errorCode: "REMOTE_ERROR" } });
		expect(readRemoteTask({ id: "a".repeat(257) }, "r")).toMatchObject({ kind: "final", answer: { status: "error" } });
	});

	it("a file's name is made safe (its last segment, never hidden), and its bytes are kept as they came", () => {
		expect(safeArtifactName("../../etc/passwd")).toBe("passwd");
		expect(safeArtifactName("..\\win\\.hidden.txt")).toBe("hidden.txt");
		expect(safeArtifactName("a:b*c?.csv")).toBe("a-b-c-.csv");
		expect(safeArtifactName("...")).toMatch(/^file-[0-9a-f]{8}$/);
		expect(artifactNames("report.csv", 3)).toEqual(["report.csv", "report-2.csv", "report-3.csv"]);
		expect(remoteFileBytes({ name: "a.txt", base64: Buffer.from("héllo\n").toString("base64") })).toEqual({ ok: true, bytes: new Uint8Array(Buffer.from("héllo\n")) });
		expect(remoteFileBytes({ name: "a.bin", base64: Buffer.from([0xff, 0x00, 0x01]).toString("base64") })).toEqual({ ok: true, bytes: new Uint8Array([0xff, 0x00, 0x01]) });
		expect(remoteFileBytes({ name: "a.bin", base64: "%%%" })).toEqual({ ok: false, reason: "its bytes are not valid base64" });
	});

	it("an answer over 1 MB is refused", () => {
		expect(tooLargeAnswer("r", 2_000_000)).toMatchObject({ status: "error", errorCode: "RESPONSE_TOO_LARGE" });
	});

	it("reads the task another relay's gateway serves for an answered request", () => {
		const request: IndexEntry = { path: "A2A/groups/x/archive/r.md", location: { area: "box", box: "archive", group: "x" }, kind: "request", messageId: "req-1", traceId: TRACE, sourceGroup: "a2a-gateway", targetGroup: "x", route: [], state: "answered" };
		const response: IndexEntry = { path: "A2A/groups/a2a-gateway/inbox/s.md", location: { area: "box", box: "inbox", group: "a2a-gateway" }, kind: "response", messageId: "resp-1", traceId: TRACE, sourceGroup: "x", status: "success", route: [], deliveredAt: "2026-03-01T12:00:01.000Z" };
		const served = Task.toJSON(noteToTask({ request, response, responsePayload: { answer: "the answer", artifacts: ["docs/a.md"] } })) as WireTask;
		expect(readRemoteTask(served, "x")).toMatchObject({ kind: "final", answer: { status: "success", answer: "the answer", artifacts: ["docs/a.md"] } });
	});

	it("the response goes from the remote group to the requester, with one id per request and the remote task id", () => {
		const response = remoteResponse({ messageId: "req-1", traceId: TRACE, sourceGroup: "10-backend", targetGroup: "remote-x" }, { status: "error", errorCode: "REMOTE_FAILED", errorMessage: "no", artifacts: [], files: [] }, NOW, "t-9");
		expect(response.envelope).toMatchObject({ message_id: remoteResponseId("req-1"), in_reply_to: "req-1", trace_id: TRACE, source_group: "remote-x", target_group: "10-backend", status: "error", error_code: "REMOTE_FAILED", error_message: "no" });
		expect(response.extra.remote_task_id).toBe("t-9");
	});
});

describe("where a group's token may go (tokenRefusal)", () => {
	const home = "http://good.example:8080/agents/x/";
	it("to the registry url's origin, however the card spells it (case, default port, path)", () => {
		expect(tokenRefusal("g", home, "http://GOOD.example:8080/rpc")).toBeNull();
		expect(tokenRefusal("g", "https://good.example/a/", "https://good.example:443/rpc")).toBeNull();
		expect(tokenRefusal("g", "http://good.example/a/", "http://good.example:80/rpc")).toBeNull();
		// URL parsing drops a tab: this is a user name "evil.example" at good.example, where fetch goes.
		expect(tokenRefusal("g", home, "http://evil.example\t@good.example:8080/")).toBeNull();
	});

	it("nowhere else: another host, port or scheme, userinfo tricks, and a backslash that fetch reads as a slash", () => {
		for (const target of [
			"http://evil.example:8080/rpc",
			"http://good.example:8081/rpc",
			"https://good.example:8080/rpc",
			"http://good.example:8080@evil.example/rpc",
			"http://evil.example\\@good.example:8080/rpc",
			"https://[::1]\\@good.example:8080/",
			"ftp://good.example:8080/",
			"not a url",
		]) {
			expect(tokenRefusal("g", home, target), target).toContain("on another address than its registry url");
		}
	});
});
