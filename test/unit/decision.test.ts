import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decisionJson, logHeader, logLine, parseLogLines } from "../../src/core/decision";
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
		expect([...OUTCOMES]).toEqual(["delivered", "answered", "rejected", "ignored", "retried", "timed_out", "duplicate"]);
	});
});

describe("log lines", () => {
	it("writes one table row per decision under the day's header", () => {
		const text = logHeader("2026-01-15") + logLine(decision({ outcome: "rejected", error_code: "MAX_HOPS_EXCEEDED", path: "A2A/dead-letter/m-1.md" }));
		expect(text).toBe(
			`# Routing log 2026-01-15\n\n| Time | Outcome | Message | Trace | Route | Error | Note |\n| --- | --- | --- | --- | --- | --- | --- |\n| 10:30:15 | rejected | m-1 | ${TRACE} | 10-backend-group -> 20-frontend-group | MAX_HOPS_EXCEEDED | [[A2A/dead-letter/m-1.md\\|m-1.md]] |\n`,
		);
	});

	it("reads back what it wrote, skipping the header", () => {
		const text = logHeader("2026-01-15") + logLine(decision()) + logLine(decision({ outcome: "timed_out", error_code: "TIMEOUT", source_group: undefined, target_group: undefined }));
		expect(parseLogLines(text)).toEqual([
			{ time: "10:30:15", outcome: "delivered", messageId: "m-1", traceId: TRACE, route: "10-backend-group -> 20-frontend-group", errorCode: "", path: "A2A/groups/20-frontend-group/inbox/m-1.md" },
			{ time: "10:30:15", outcome: "timed_out", messageId: "m-1", traceId: TRACE, route: "", errorCode: "TIMEOUT", path: "A2A/groups/20-frontend-group/inbox/m-1.md" },
		]);
	});

	it("escapes pipes so a message id cannot break the table, and reads them back unescaped", () => {
		const line = logLine(decision({ message_id: "a|b\\|c", path: "A2A/dead-letter/a b.md" }));
		expect(line.split(/(?<!\\)\|/)).toHaveLength(9);
		const [row] = parseLogLines(line);
		expect(row.messageId).toBe("a|b\\|c");
		expect(row.path).toBe("A2A/dead-letter/a b.md");
	});

	it("round-trips any single-line id, outcome and error code", () => {
		const token = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter((s) => !/\s/.test(s));
		fc.assert(
			fc.property(fc.constantFrom(...OUTCOMES), token, token, fc.option(token, { nil: undefined }), fc.stringMatching(/^[A-Za-z0-9 ._-]{1,20}\.md$/).filter((s) => s.trim() === s && !/\s\s/.test(s)), (outcome, messageId, traceId, errorCode, name) => {
				const path = `A2A/dead-letter/${name}`;
				const [row] = parseLogLines(logLine({ outcome, message_id: messageId, trace_id: traceId, error_code: errorCode, path, time: TIME }));
				expect(row).toEqual({ time: "10:30:15", outcome, messageId, traceId, route: "", errorCode: errorCode ?? "", path });
			}),
			{ numRuns: 300 },
		);
	});

	it("keeps a row on one line whatever the message id holds", () => {
		const line = logLine(decision({ message_id: "two\nlines", trace_id: undefined }));
		expect(line.trimEnd()).not.toContain("\n");
		expect(parseLogLines(line)[0]).toMatchObject({ messageId: "two lines", traceId: "" });
	});
});

describe("router responses", () => {
	it("writes an error response that reads and validates, addressed to the sender", () => {
		const res = routerResponse({
			kind: "error",
			deadMessageId: "m-1",
			traceId: TRACE,
			sender: "10-backend-group",
			about: "20-frontend-group",
			code: "CYCLE_DETECTED",
			reason: "20-frontend-group has already taken part",
			deadLetterPath: "A2A/dead-letter/m-1.md",
			now: TIME,
		});
		expect(res.fileName).toBe("error-m-1.md");
		const read = readRawMessage(res.text, res.fileName);
		const validation = read.ok ? validateRaw(read.raw) : null;
		expect(validation?.ok).toBe(true);
		if (!validation?.ok) return;
		expect(validation.message.envelope).toMatchObject({
			kind: "response",
			message_id: res.messageId,
			trace_id: TRACE,
			in_reply_to: "m-1",
			source_group: "20-frontend-group",
			target_group: "10-backend-group",
			status: "error",
			error_code: "CYCLE_DETECTED",
			error_message: "20-frontend-group has already taken part",
		});
		expect(validation.message.payload.dead_letter).toBe("[[A2A/dead-letter/m-1.md]]");
		expect(validation.message.payload.answer).toContain("20-frontend-group has already taken part");
	});

	it("writes a timeout response, with a file name that cannot leave its folder", () => {
		const res = routerResponse({ kind: "timeout", deadMessageId: "../../x", traceId: TRACE, sender: "a", about: ROUTER_SENDER, code: "TIMEOUT", reason: "no answer after 4 attempts", deadLetterPath: "A2A/dead-letter/x.md", now: TIME });
		expect(res.fileName).toBe("timeout-x.md");
		const read = readRawMessage(res.text, res.fileName);
		expect(read.ok && validateRaw(read.raw).ok).toBe(true);
		expect(read.ok && read.raw.fields.status).toBe("timeout");
	});
});
