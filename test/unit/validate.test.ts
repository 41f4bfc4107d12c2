import { describe, expect, it } from "vitest";
import { readRawMessage } from "../../src/core/message-parse";
import { MAX_FRONTMATTER_BYTES, MAX_NOTE_BYTES } from "../../src/core/protocol";
import { utf8Length } from "../../src/core/text";
import { formatProblems, validateRaw } from "../../src/core/validate";
import { TRACE, messageOf, note, problemFields, problemsOf, rawOf } from "./helpers";

// Protocol rule 3: every problem of a note at once, each naming its field.

const REQUEST = [
	`trace_id: ${TRACE}`,
	"hop_count: 0",
	"source_group: 10-backend-group",
	"target_group: 20-frontend-group",
	"request_type: query",
];

const RESPONSE = [`trace_id: ${TRACE}`, "source_group: 20-frontend-group", "status: success"];

function withField(lines: string[], field: string, value: string | null): string[] {
	const rest = lines.filter((line) => !line.startsWith(`${field}:`));
	return value === null ? rest : [...rest, `${field}: ${value}`];
}

function messageOfField(field: string, value: string | null, base = REQUEST): string {
	return note(withField(base, field, value), "## Question\n\nWhy?\n");
}

describe("a valid request", () => {
	it("reads every envelope field with its type", () => {
		const message = messageOf(
			note([
				"kind: request",
				"message_id: msg-1",
				...REQUEST,
				"priority: high",
				"timeout_seconds: 60",
				"created: 2026-01-15T10:30:00Z",
				"route: [10-backend-group]",
				"tags: [a2a, query]",
			]),
		);
		expect(message.envelope).toEqual({
			kind: "request",
			message_id: "msg-1",
			trace_id: TRACE,
			hop_count: 0,
			source_group: "10-backend-group",
			target_group: "20-frontend-group",
			request_type: "query",
			priority: "high",
			timeout_seconds: 60,
			created: "2026-01-15T10:30:00Z",
			route: ["10-backend-group"],
		});
		expect(message.extra).toEqual({ tags: ["a2a", "query"] });
	});

	it("leaves optional fields out rather than inventing them", () => {
		const message = messageOf(note(REQUEST));
		expect(Object.keys(message.envelope).sort()).toEqual(["hop_count", "kind", "request_type", "source_group", "target_group", "trace_id"]);
	});

	it("treats an empty (null) optional field as absent", () => {
		const message = messageOf(note([...REQUEST, "priority:", "message_id: ~"]));
		expect(message.envelope).not.toHaveProperty("priority");
		expect(message.envelope).not.toHaveProperty("message_id");
	});
});

describe("every problem at once, each naming its field", () => {
	it("reports a missing trace_id, a bad hop_count and a bad priority as three problems", () => {
		const problems = problemsOf(note(["hop_count: -2", "source_group: a", "target_group: b", "request_type: task", "priority: urgent"]));
		expect(problems).toHaveLength(3);
		expect(problemFields(problems)).toEqual(["hop_count", "priority", "trace_id"]);
		expect(problems.find((p) => p.field === "trace_id")?.message).toBe("is required");
		expect(problems.find((p) => p.field === "hop_count")?.message).toContain("-2");
		expect(problems.find((p) => p.field === "priority")?.message).toBe('must be one of low, medium, high, got "urgent"');
	});

	it("formats the problems into one reason naming each field", () => {
		const problems = problemsOf(note(["source_group: a", "target_group: b", "request_type: task"]));
		expect(formatProblems(problems)).toBe("trace_id is required; hop_count is required");
	});

	it("reports every required field of an empty request", () => {
		const problems = problemsOf(note(["request_type: query"]));
		expect(problemFields(problems)).toEqual(["hop_count", "source_group", "target_group", "trace_id"]);
		expect(problems.every((p) => p.message === "is required")).toBe(true);
	});

	it("reports every required field of an empty response", () => {
		expect(problemFields(problemsOf(note(["status: success"])))).toEqual(["source_group", "trace_id"]);
	});

	it("treats a required field left empty as missing", () => {
		const problems = problemsOf(messageOfField("trace_id", ""));
		expect(problems).toEqual([{ field: "trace_id", message: "is required" }]);
	});
});

describe("wrong types", () => {
	it.each([
		['"3"', '"3"'],
		["-1", "-1"],
		["1.5", "1.5"],
		["three", '"three"'],
		["[1]", "a list"],
		["true", "true"],
	])("hop_count: %s is a problem on hop_count", (value, shown) => {
		const problems = problemsOf(messageOfField("hop_count", value));
		expect(problems).toEqual([{ field: "hop_count", message: `must be an integer >= 0, got ${shown}` }]);
	});

	it.each(["0", "4", "99"])("hop_count: %s is accepted", (value) => {
		expect(messageOf(messageOfField("hop_count", value)).envelope).toMatchObject({ hop_count: Number(value) });
	});

	it.each(["0", "-5", "2.5", '"30"'])("timeout_seconds: %s is a problem on timeout_seconds", (value) => {
		expect(problemFields(problemsOf(messageOfField("timeout_seconds", value)))).toEqual(["timeout_seconds"]);
	});

	it("needs text group ids: a number or a path is a problem on the field", () => {
		expect(problemFields(problemsOf(messageOfField("target_group", "[a, b]")))).toEqual(["target_group"]);
		expect(problemFields(problemsOf(messageOfField("target_group", "../etc")))).toEqual(["target_group"]);
		expect(problemFields(problemsOf(messageOfField("target_group", "a/b")))).toEqual(["target_group"]);
		expect(problemFields(problemsOf(messageOfField("source_group", "-leading-dash")))).toEqual(["source_group"]);
		expect(problemFields(problemsOf(messageOfField("target_group", `${"g".repeat(65)}`)))).toEqual(["target_group"]);
	});

	it("accepts a numeric-looking group id only when written as text", () => {
		expect(messageOf(messageOfField("target_group", '"20"')).envelope).toMatchObject({ target_group: "20" });
		expect(problemFields(problemsOf(messageOfField("target_group", "20")))).toEqual(["target_group"]);
	});

	it("needs created to be a time", () => {
		const problems = problemsOf(messageOfField("created", "yesterday"));
		expect(problems).toEqual([{ field: "created", message: 'must be an ISO 8601 time, got "yesterday"' }]);
	});

	it("needs route to be a list of group ids", () => {
		expect(problemFields(problemsOf(messageOfField("route", "10-backend-group")))).toEqual(["route"]);
		expect(problemFields(problemsOf(messageOfField("route", "[ok, '../x']")))).toEqual(["route"]);
		expect(messageOf(messageOfField("route", "[]")).envelope.route).toEqual([]);
	});

	it("needs message_id to be printable text of at most 128 characters", () => {
		expect(problemFields(problemsOf(messageOfField("message_id", `"${"x".repeat(129)}"`)))).toEqual(["message_id"]);
		expect(problemFields(problemsOf(messageOfField("message_id", '"a\\tb"')))).toEqual(["message_id"]);
		expect(problemFields(problemsOf(messageOfField("message_id", '" padded "')))).toEqual(["message_id"]);
		expect(messageOf(messageOfField("message_id", `"${"x".repeat(128)}"`)).envelope.message_id).toHaveLength(128);
	});

	it("checks router-written fields too (attempt, state, times)", () => {
		const problems = problemsOf(note([...REQUEST, "attempt: 0", "state: lost", "expires_at: soon"]));
		expect(problemFields(problems)).toEqual(["attempt", "expires_at", "state"]);
		expect(problems.find((p) => p.field === "state")?.message).toContain("pending, delivered, answered, retrying, timed_out, dead");
	});
});

describe("values out of their set", () => {
	it.each([
		["request_type", "question", REQUEST, "query, task, artifact"],
		["priority", "urgent", REQUEST, "low, medium, high"],
		["priority", "HIGH", REQUEST, "low, medium, high"],
		["status", "ok", RESPONSE, "success, error, timeout"],
	])("%s: %s names the allowed values", (field, value, base, allowed) => {
		const problems = problemsOf(note(withField(base, field, value)));
		expect(problems).toEqual([{ field, message: `must be one of ${allowed}, got "${value}"` }]);
	});
});

describe("size limits", () => {
	it("rejects a note larger than 100 KB, naming the note and its size", () => {
		const raw = rawOf(note(REQUEST));
		expect(validateRaw(raw, { noteBytes: MAX_NOTE_BYTES }).ok).toBe(true);
		const result = validateRaw(raw, { noteBytes: MAX_NOTE_BYTES + 1 });
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems).toEqual([{ field: "note", message: `is ${MAX_NOTE_BYTES + 1} bytes; the limit is 102400 (100 KB)` }]);
	});

	function noteWithFrontmatterBytes(bytes: number): string {
		const lines = [...REQUEST, "filler: "];
		const head = `---\n${lines.join("\n")}\n---\n`;
		const pad = bytes - utf8Length(head);
		lines[lines.length - 1] = `filler: ${"é".repeat(Math.floor(pad / 2))}${"x".repeat(pad % 2)}`;
		const text = note(lines, "## Question\n\nWhy?\n");
		return text;
	}

	it("accepts a frontmatter of exactly 8 KB (counted in UTF-8 bytes, fences included) and rejects one byte more", () => {
		const exact = rawOf(noteWithFrontmatterBytes(MAX_FRONTMATTER_BYTES));
		expect(exact.frontmatterBytes).toBe(MAX_FRONTMATTER_BYTES);
		expect(validateRaw(exact).ok).toBe(true);
		const over = rawOf(noteWithFrontmatterBytes(MAX_FRONTMATTER_BYTES + 1));
		expect(over.frontmatterBytes).toBe(MAX_FRONTMATTER_BYTES + 1);
		const result = validateRaw(over);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.problems).toEqual([{ field: "frontmatter", message: "is 8193 bytes; the limit is 8192 (8 KB)" }]);
	});

	it("reports the size problems together with the field problems", () => {
		const raw = rawOf(note(["hop_count: x", "source_group: a", "target_group: b", "request_type: query"]));
		const result = validateRaw({ ...raw, frontmatterBytes: 9000 }, { noteBytes: 200_000 });
		expect(result.ok || problemFields(result.problems)).toEqual(["frontmatter", "hop_count", "note", "trace_id"]);
	});
});

describe("source_group and the outbox", () => {
	it("rejects a note whose source_group is not the group whose outbox holds it", () => {
		const problems = problemsOf(note(REQUEST), "x.md", { outboxGroup: "30-devops-group" });
		expect(problems).toEqual([{ field: "source_group", message: 'is "10-backend-group" but the note is in the outbox of 30-devops-group' }]);
	});

	it("accepts it in its own group's outbox", () => {
		expect(messageOf(note(REQUEST), "x.md", { outboxGroup: "10-backend-group" }).envelope.source_group).toBe("10-backend-group");
	});

	it("does not add an outbox problem when source_group is missing (it is reported as required)", () => {
		expect(problemsOf(note(withField(REQUEST, "source_group", null)), "x.md", { outboxGroup: "g" })).toEqual([{ field: "source_group", message: "is required" }]);
	});
});

describe("kind", () => {
	it("infers a request from request_type", () => {
		expect(messageOf(note(REQUEST)).envelope.kind).toBe("request");
	});

	it("infers a response from status", () => {
		expect(messageOf(note(RESPONSE)).envelope.kind).toBe("response");
	});

	it("reports kind when there is neither request_type nor status", () => {
		const problems = problemsOf(note([`trace_id: ${TRACE}`, "source_group: a"]));
		expect(problems).toEqual([{ field: "kind", message: "is missing: a request needs request_type, a response needs status" }]);
	});

	it("reports a kind that is neither request nor response", () => {
		expect(problemsOf(note(["kind: note", ...REQUEST]))).toEqual([{ field: "kind", message: 'must be request or response, got "note"' }]);
	});

	it("follows an explicit kind: a response that has request_type gets problems for the foreign fields", () => {
		const problems = problemsOf(note(["kind: response", ...RESPONSE, "request_type: query", "hop_count: 1"]));
		expect(problems).toEqual([
			{ field: "hop_count", message: "does not belong in a response" },
			{ field: "request_type", message: "does not belong in a response" },
		]);
	});
});

describe("foreign fields", () => {
	it("names status in a request (a request is inferred from request_type)", () => {
		expect(problemsOf(note([...REQUEST, "status: success"]))).toEqual([{ field: "status", message: "does not belong in a request" }]);
	});

	it("names in_reply_to and processing_time_ms in a request", () => {
		expect(problemFields(problemsOf(note([...REQUEST, "in_reply_to: x", "processing_time_ms: 5"])))).toEqual(["in_reply_to", "processing_time_ms"]);
	});

	it("names priority and timeout_seconds in a response", () => {
		expect(problemFields(problemsOf(note([...RESPONSE, "priority: high", "timeout_seconds: 5"])))).toEqual(["priority", "timeout_seconds"]);
	});
});

describe("trace_id shape", () => {
	it.each([
		["v1", "6fa459ea-ee8a-11ca-8ba9-0242ac130003"],
		["v3", "a3bb189e-8bf9-3888-9912-ace4e6543002"],
		["v4", "9b2c5e7a-4a1e-4d2b-9f3c-6e8d7a1b2c3d"],
		["v5", "886313e1-3b8a-5372-9b90-0c9aee199e5d"],
		["v7", "01890a5d-ac96-774b-bcce-b302099a8057"],
		["nil", "00000000-0000-0000-0000-000000000000"],
		["seed 001 (not a valid version nibble)", "c3d4e5f6-a7b8-9012-cdef-345678901234"],
		["upper case", "A1B2C3D4-E5F6-7890-ABCD-EF1234567890"],
	])("accepts a UUID-shaped trace_id of any version (%s)", (_label, id) => {
		expect(messageOf(messageOfField("trace_id", id)).envelope.trace_id).toBe(id);
	});

	it.each([
		"uuid-v4",
		"a1b2c3d4e5f67890abcdef1234567890",
		"{a1b2c3d4-e5f6-7890-abcd-ef1234567890}",
		"a1b2c3d4-e5f6-7890-abcd-ef123456789",
		"g1b2c3d4-e5f6-7890-abcd-ef1234567890",
		" a1b2c3d4-e5f6-7890-abcd-ef1234567890x",
	])("rejects %s as trace_id", (id) => {
		expect(problemFields(problemsOf(messageOfField("trace_id", JSON.stringify(id))))).toEqual(["trace_id"]);
	});
});

describe("the payload", () => {
	it("is refused by the reader when it is not a mapping, with a reason naming payload", () => {
		const read = readRawMessage(note([...REQUEST, "payload: [a, b]"]), "x.md");
		expect(read).toEqual({ ok: false, reason: "payload must be a mapping of fields" });
	});

	it("keeps extra frontmatter fields apart from the envelope", () => {
		const message = messageOf(note([...REQUEST, "tags: [x]", "aliases: [Y]", "cssclasses: wide"]));
		expect(message.extra).toEqual({ tags: ["x"], aliases: ["Y"], cssclasses: "wide" });
		expect(message.envelope).not.toHaveProperty("tags");
	});
});
