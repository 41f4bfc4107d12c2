import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decisionJson } from "../../src/core/decision";
import { logHeader, logLine, parseLogLines } from "../../src/core/routing-log";
import type { RoutingDecision } from "../../src/core/decision";
import { readRawMessage } from "../../src/core/message-parse";
import { OUTCOMES } from "../../src/core/protocol";
import { ROUTER_SENDER, routerResponse } from "../../src/core/responses";
import { validateRaw } from "../../src/core/validate";
import { TRACE } from "./helpers";

// One routing decision as `a2a route --json` prints it and as the day's log note records it.

const TIME = Date.parse("2026-01-15T10:30:15.250Z");

function decision(overrides: Partial<RoutingDecision> = {}): RoutingDecision {
	return {
		outcome: "delivered",
		message_id: "m-1",
		trace_id: TRACE,
		path: "A2A/groups/20-frontend-group/inbox/m-1.md",
		from: "A2A/groups/10-backend-group/outbox/m-1.md",
		source_group: "10-backend-group",
		target_group: "20-frontend-group",
		time: TIME,
		...overrides,
	};
}

describe("decisionJson", () => {
	it("prints outcome, message_id, trace_id and path, plus where the note came from", () => {
		expect(JSON.parse(decisionJson(decision()))).toEqual({
			outcome: "delivered",
			message_id: "m-1",
			trace_id: TRACE,
			path: "A2A/groups/20-frontend-group/inbox/m-1.md",
			from: "A2A/groups/10-backend-group/outbox/m-1.md",
			source_group: "10-backend-group",
			target_group: "20-frontend-group",
		});
	});

	it("adds error_code on rejections and timeouts, and the reason", () => {
		const line = JSON.parse(decisionJson(decision({ outcome: "rejected", path: "A2A/dead-letter/m-1.md", error_code: "CYCLE_DETECTED", reason: "20-frontend-group has already taken part" })));
		expect(line).toMatchObject({ outcome: "rejected", error_code: "CYCLE_DETECTED", path: "A2A/dead-letter/m-1.md", reason: "20-frontend-group has already taken part" });
		expect(JSON.parse(decisionJson(decision({ outcome: "timed_out", error_code: "TIMEOUT" }))).error_code).toBe("TIMEOUT");
	});

	it("prints null ids for a note that had none, and leaves out error_code and from when there are none", () => {
		const line = JSON.parse(decisionJson({ outcome: "ignored", path: "A2A/groups/g/outbox/.x.md", from: "A2A/groups/g/outbox/.x.md", time: TIME }));
		expect(line).toEqual({ outcome: "ignored", message_id: null, trace_id: null, path: "A2A/groups/g/outbox/.x.md" });
	});

	it("is one line of JSON whatever the reason holds", () => {
		const text = decisionJson(decision({ reason: "line 1\nline 2 \"quoted\"" }));
		expect(text).not.toContain("\n");
		expect(JSON.parse(text).reason).toBe("line 1\nline 2 \"quoted\"");
	});

	it("knows every outcome of the contract", () => {
		expect([...OUTCOMES]).toEqual(["delivered", "answered", "late", "rejected", "ignored", "retried", "timed_out", "duplicate", "forwarded"]);
	});
});

describe("log lines (item 4: the log cannot be written into)", () => {
	it("writes one table row per decision under the day's header, linking the note by its name", () => {
		const text = logHeader("2026-01-15") + logLine(decision({ outcome: "rejected", error_code: "MAX_HOPS_EXCEEDED", path: "A2A/dead-letter/m-1.md" }));
		expect(text).toBe(
			`# Routing log 2026-01-15\n\n| Time | Outcome | Message | Trace | Route | Error | Note |\n| --- | --- | --- | --- | --- | --- | --- |\n| 10:30:15 | rejected | m-1 | ${TRACE} | 10-backend-group -&gt; 20-frontend-group | MAX_HOPS_EXCEEDED | [[m-1]] |\n`,
		);
	});

	it("reads back what it wrote, skipping the header", () => {
		const text = logHeader("2026-01-15") + logLine(decision()) + logLine(decision({ outcome: "timed_out", error_code: "TIMEOUT", source_group: undefined, target_group: undefined }));
		expect(parseLogLines(text)).toEqual([
			{ time: "10:30:15", outcome: "delivered", messageId: "m-1", traceId: TRACE, route: "10-backend-group -> 20-frontend-group", errorCode: "", name: "m-1.md" },
			{ time: "10:30:15", outcome: "timed_out", messageId: "m-1", traceId: TRACE, route: "", errorCode: "TIMEOUT", name: "m-1.md" },
		]);
	});

	it("escapes HTML, links, embeds and table pipes in every value, and reads them back as written", () => {
		const hostile = decision({ message_id: '<img src=x onerror="alert(1)">', source_group: '<a href="javascript:x">g</a>', trace_id: "[[Secret]] ![[embed]] |x| `code` **b** %%c%% #tag ==hl==", path: "A2A/dead-letter/m.md" });
		const line = logLine(hostile);
		expect(line).not.toMatch(/<img|<a |\[\[Secret|!\[\[|(?<!\\)`|(?<!\\)\*\*|(?<!\\)%%|(?<!\\)#tag|(?<!\\)==/);
		expect(line.split(/(?<!\\)\|/)).toHaveLength(9);
		const [row] = parseLogLines(line);
		expect(row.messageId).toBe(hostile.message_id);
		expect(row.traceId).toBe(hostile.trace_id);
		expect(row.route).toBe(`${hostile.source_group} -> 20-frontend-group`);
	});

	it("round-trips any single-line id, outcome and error code", () => {
		const token = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter((s) => !/\s/.test(s));
		fc.assert(
			fc.property(fc.constantFrom(...OUTCOMES), token, token, fc.option(token, { nil: undefined }), fc.stringMatching(/^[A-Za-z0-9 ._-]{1,20}\.md$/).filter((s) => s.trim() === s && !/\s\s/.test(s)), (outcome, messageId, traceId, errorCode, name) => {
				const path = `A2A/dead-letter/${name}`;
				const [row] = parseLogLines(logLine({ outcome, message_id: messageId, trace_id: traceId, error_code: errorCode, path, time: TIME }));
				expect(row).toEqual({ time: "10:30:15", outcome, messageId, traceId, route: "", errorCode: errorCode ?? "", name });
			}),
			{ numRuns: 300 },
		);
	});

	it("keeps a row on one line whatever a value holds (newlines, line separators)", () => {
		const line = logLine(decision({ message_id: "two\nlines\r\u2028three", trace_id: undefined }));
		expect(line.trimEnd()).not.toMatch(/[\n\r\u2028]/);
		expect(parseLogLines(line)[0]).toMatchObject({ messageId: "two lines three", traceId: "" });
	});
});

describe("router responses (rule 7: they come from a2a-relay)", () => {
	const base = { traceId: TRACE, sender: "10-backend-group", deadLetterPath: "A2A/dead-letter/m-1.md", now: TIME, occasion: "the note" };

	it("writes an error response that reads and validates, from a2a-relay to the sender, naming the rejected message", () => {
		const res = routerResponse({ ...base, kind: "error", deadMessageId: "m-1", intendedTarget: "20-frontend-group", code: "CYCLE_DETECTED", reason: "20-frontend-group is already on this request's chain" });
		expect(res.fileName).toMatch(/^error-m-1-[0-9a-f]{10}\.md$/);
		const read = readRawMessage(res.text, res.fileName);
		const validation = read.ok ? validateRaw(read.raw) : null;
		expect(validation?.ok).toBe(true);
		if (!validation?.ok) return;
		expect(validation.message.envelope).toMatchObject({
			kind: "response",
			message_id: res.messageId,
			trace_id: TRACE,
			in_reply_to: "m-1",
			source_group: ROUTER_SENDER,
			target_group: "10-backend-group",
			status: "error",
			error_code: "CYCLE_DETECTED",
			error_message: "20-frontend-group is already on this request's chain",
		});
		expect(validation.message.extra.generated_by).toBe(ROUTER_SENDER);
		// By name: a link by path would create an empty note in dead-letter/ once Retry… moved the note on.
		expect(validation.message.payload.dead_letter).toBe("[[m-1]]");
		expect(validation.message.payload.answer).toContain("to 20-frontend-group was not delivered");
	});

	it("item 7: two rejected ids that share their first 80 characters get two responses; the same rejection again gets the same one; a corrected note a new one", () => {
		const long = "x".repeat(90);
		const a = routerResponse({ ...base, kind: "error", deadMessageId: `${long}-a`, code: "INVALID_MESSAGE", reason: "r" });
		const b = routerResponse({ ...base, kind: "error", deadMessageId: `${long}-b`, code: "INVALID_MESSAGE", reason: "r" });
		expect(a.fileName).not.toBe(b.fileName);
		expect(routerResponse({ ...base, kind: "error", deadMessageId: `${long}-a`, code: "INVALID_MESSAGE", reason: "r" }).fileName).toBe(a.fileName);
		expect(routerResponse({ ...base, kind: "error", deadMessageId: `${long}-a`, code: "INVALID_MESSAGE", reason: "r", occasion: "the corrected note" }).fileName).not.toBe(a.fileName);
	});

	it("writes a timeout response, with a file name that cannot leave its folder", () => {
		const res = routerResponse({ ...base, kind: "timeout", deadMessageId: "../../x", code: "TIMEOUT", reason: "no answer after 4 attempts" });
		expect(res.fileName).toMatch(/^timeout-x-[0-9a-f]{10}\.md$/);
		const read = readRawMessage(res.text, res.fileName);
		expect(read.ok && validateRaw(read.raw).ok).toBe(true);
		expect(read.ok && read.raw.fields.status).toBe("timeout");
	});
});
