import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import type { IndexEntry } from "../../src/core/message-index";
import { entryFromRaw } from "../../src/core/message-index";
import { readRawMessage } from "../../src/core/message-parse";
import type { CommunicationSettings } from "../../src/core/registry";
import { attemptTimeoutSeconds, flattenMessageText, quarantineText, stampDeliveredRequest, stampRetry, timeoutStep, unquarantineText } from "../../src/core/stamps";
import { validateRaw } from "../../src/core/validate";
import { TRACE, anyUnicodeString, messageOf, note, rawOf, seedFixture } from "./helpers";

// Rule 8 (timeouts and retries) and what the router writes into notes: the flat form of wrapped and
// YAML notes, and quarantined dead letters.

const NOW = Date.parse("2026-01-15T10:30:00Z");
const SETTINGS: CommunicationSettings = { max_hops: 5, timeout_seconds: 30, retry_attempts: 3, cycle_detection: "chain" };
const INBOX = "A2A/groups/20-frontend-group/inbox/q.md";

function delivered(overrides: Partial<IndexEntry> = {}): IndexEntry {
	return {
		path: INBOX,
		location: { area: "box", box: "inbox", group: "20-frontend-group" },
		kind: "request",
		messageId: "q",
		traceId: TRACE,
		sourceGroup: "10-backend-group",
		targetGroup: "20-frontend-group",
		state: "delivered",
		route: ["10-backend-group", "20-frontend-group"],
		deliveredAt: new Date(NOW).toISOString(),
		expiresAt: new Date(NOW + 30_000).toISOString(),
		attempt: 1,
		timeoutSeconds: 30,
		...overrides,
	};
}

describe("timeoutStep", () => {
	it("does nothing before expires_at", () => {
		expect(timeoutStep(delivered(), NOW + 29_999, SETTINGS)).toBeNull();
	});

	it("retries exactly at expires_at, with attempt 2 and a doubled timeout", () => {
		expect(timeoutStep(delivered(), NOW + 30_000, SETTINGS)).toEqual({ action: "retry", attempt: 2, expiresAt: new Date(NOW + 30_000 + 60_000).toISOString() });
	});

	it("retries after expires_at, counting the new timeout from now", () => {
		const late = NOW + 45_000;
		expect(timeoutStep(delivered(), late, SETTINGS)).toEqual({ action: "retry", attempt: 2, expiresAt: new Date(late + 60_000).toISOString() });
	});

	it("follows the schedule: attempts 2, 3 and 4 with 60, 120 and 240 s, then the final timeout", () => {
		const steps: string[] = [];
		let entry = delivered();
		let now = NOW;
		for (let i = 0; i < 10; i++) {
			now = Date.parse(entry.expiresAt as string);
			const step = timeoutStep(entry, now, SETTINGS);
			if (step === null) throw new Error("nothing due at expires_at");
			if (step.action === "timeout") {
				steps.push("timeout");
				break;
			}
			const fm: Record<string, unknown> = { state: entry.state, attempt: entry.attempt, expires_at: entry.expiresAt };
			stampRetry(fm, step.attempt, step.expiresAt);
			expect(fm).toEqual({ state: "retrying", attempt: step.attempt, expires_at: step.expiresAt });
			steps.push(`attempt ${step.attempt} for ${(Date.parse(step.expiresAt) - now) / 1000} s`);
			entry = { ...entry, state: "retrying", attempt: step.attempt, expiresAt: step.expiresAt };
		}
		expect(steps).toEqual(["attempt 2 for 60 s", "attempt 3 for 120 s", "attempt 4 for 240 s", "timeout"]);
	});

	it("times out at the first expiry when retry_attempts is 0", () => {
		expect(timeoutStep(delivered(), NOW + 30_000, { ...SETTINGS, retry_attempts: 0 })).toEqual({ action: "timeout" });
	});

	it("uses the registry's timeout when the request gives none", () => {
		const step = timeoutStep(delivered({ timeoutSeconds: undefined }), NOW + 30_000, { ...SETTINGS, timeout_seconds: 10 });
		expect(step).toEqual({ action: "retry", attempt: 2, expiresAt: new Date(NOW + 30_000 + 20_000).toISOString() });
	});

	it("ignores answered, dead and pending requests, responses, and requests without expires_at", () => {
		const late = NOW + 3_600_000;
		for (const state of ["answered", "timed_out", "dead", "pending", undefined]) expect(timeoutStep(delivered({ state }), late, SETTINGS)).toBeNull();
		expect(timeoutStep(delivered({ kind: "response" }), late, SETTINGS)).toBeNull();
		expect(timeoutStep(delivered({ expiresAt: undefined }), late, SETTINGS)).toBeNull();
		expect(timeoutStep(delivered({ expiresAt: "garbage" }), late, SETTINGS)).toBeNull();
	});

	it("reads its schedule from a stamped note through the index entry", () => {
		const fm: Record<string, unknown> = { trace_id: TRACE, source_group: "10-backend-group", target_group: "20-frontend-group", request_type: "task", hop_count: 0, timeout_seconds: 5 };
		stampDeliveredRequest(fm, { target: "20-frontend-group", now: NOW, settings: SETTINGS, route: ["10-backend-group", "20-frontend-group"], fallbackId: "f" });
		const entry = entryFromRaw(INBOX, { area: "box", box: "inbox", group: "20-frontend-group" }, { fields: fm, payload: {}, format: "flat", frontmatterBytes: 0 });
		expect(timeoutStep(entry, NOW + 4_999, SETTINGS)).toBeNull();
		expect(timeoutStep(entry, NOW + 5_000, SETTINGS)).toEqual({ action: "retry", attempt: 2, expiresAt: new Date(NOW + 15_000).toISOString() });
	});

	it("doubles the timeout per attempt", () => {
		expect([1, 2, 3, 4].map((a) => attemptTimeoutSeconds(30, a))).toEqual([30, 60, 120, 240]);
		expect(attemptTimeoutSeconds(30, 0)).toBe(30);
	});
});

describe("flattenMessageText", () => {
	const SEEDS = ["request-1-backend-asks-frontend", "request-2-frontend-asks-backend", "request-3-devops-asks-security", "response-1-frontend-answers"];

	it.each(SEEDS.flatMap((name) => [[`${name}.md`], [`${name}.yaml`]]))("turns the seed's %s into a flat note with the same message", (file) => {
		const text = seedFixture(file);
		const flat = flattenMessageText(text, `A2A/groups/g/inbox/${file}`);
		expect(flat).not.toBeNull();
		const before = messageOf(text, file);
		const after = messageOf(flat as string, "flat.md");
		expect(rawOf(flat as string, "flat.md").format).toBe("flat");
		expect(after.envelope).toEqual(before.envelope);
		expect(after.payload).toEqual(before.payload);
		expect(readFrontmatter(flat as string)?.kind).toBe(before.envelope.kind);
	});

	it("writes plain text payload values as body sections", () => {
		const flat = flattenMessageText(seedFixture("request-3-devops-asks-security.yaml"), "m.yaml") as string;
		expect(splitNote(flat).body).toBe("\n## Task\n\nReview Kubernetes configuration for compliance\n\n## Artifacts\n\n- skills/30-devops-group/manifests/deployment.yaml\n");
	});

	it("keeps the response's literal block answer exactly (it ends with a newline, so it stays in the frontmatter)", () => {
		const flat = flattenMessageText(seedFixture("response-1-frontend-answers.yaml"), "r.yaml") as string;
		expect(messageOf(flat).payload.answer).toBe(messageOf(seedFixture("response-1-frontend-answers.yaml"), "r.yaml").payload.answer);
	});

	it("keeps a wrapped note's body byte for byte, body sections winning over the wrapper's payload", () => {
		const body = "\n## Question\n\nFrom the body, with **Markdown**.\n\n```\n## fenced\n```\n";
		const text = `---\nmessage:\n  trace_id: "${TRACE}"\n  hop_count: 0\n  source_group: a\n  target_group: b\n  request_type: query\n  payload:\n    question: from the wrapper\n    context: wrapper only\n---\n${body}`;
		const flat = flattenMessageText(text, "m.md") as string;
		expect(splitNote(flat).body.startsWith(body)).toBe(true);
		expect(messageOf(flat).payload).toEqual({ question: "From the body, with **Markdown**.\n\n```\n## fenced\n```", context: "wrapper only" });
	});

	it("applies the stamp to the fields of a wrapped or YAML note", () => {
		const flat = flattenMessageText(seedFixture("request-2-frontend-asks-backend.yaml"), "m.md", (fm) => stampDeliveredRequest(fm, { target: "10-backend-group", now: NOW, settings: SETTINGS, route: ["20-frontend-group", "10-backend-group"], fallbackId: "f" })) as string;
		const fm = readFrontmatter(flat);
		expect(fm).toMatchObject({ kind: "request", state: "delivered", attempt: 1, route: ["20-frontend-group", "10-backend-group"], hop_count: 1, priority: "medium" });
		expect(validateRaw(rawOf(flat)).ok).toBe(true);
	});

	it("leaves a flat note as it is apart from the stamp", () => {
		const text = note([`trace_id: ${TRACE}`, "hop_count: 0 # first hop", "source_group: a", "target_group: b", "request_type: query"], "\n## Question\n\nWhy?\n");
		expect(flattenMessageText(text, "m.md")).toBe(text);
		const stamped = flattenMessageText(text, "m.md", (fm) => void (fm.state = "delivered")) as string;
		expect(stamped).toBe(text.replace("request_type: query\n", "request_type: query\nstate: delivered\n"));
	});

	it("is null for a note it cannot read", () => {
		expect(flattenMessageText("---\nbroken: [\n---\n", "m.md")).toBeNull();
		expect(flattenMessageText("just: [", "m.yaml")).toBeNull();
	});
});

describe("quarantined dead letters", () => {
	it("keeps the original text byte for byte and gives it back", { timeout: 60_000 }, () => {
		fc.assert(
			fc.property(
				fc.oneof(
					anyUnicodeString(200),
					fc.constantFrom("---\nbroken: [\n", "\uFEFF---\r\nhalf", "---\n---\n", "\n\n", "", "---\nquarantined: true\n---\nnested"),
				),
				fc.string({ maxLength: 40 }),
				(original, reason) => {
					const text = quarantineText(original, { state: "dead", error_code: "INVALID_MESSAGE", error_message: reason });
					expect(unquarantineText(text)).toBe(original);
					expect(readFrontmatter(text)).toMatchObject({ quarantined: true, error_message: reason });
				},
			),
			{ numRuns: 500 },
		);
	});

	it("is null for a note that was not quarantined", () => {
		expect(unquarantineText("---\nstate: dead\n---\nbody")).toBeNull();
		expect(unquarantineText('---\nquarantined: "true"\n---\nbody')).toBeNull();
		expect(unquarantineText("no frontmatter")).toBeNull();
		expect(unquarantineText("---\nquarantined: [\n---\nbody")).toBeNull();
	});

	it("makes a note that reads (so it can be shown) but that the reader still knows was quarantined", () => {
		const read = readRawMessage(quarantineText("---\nbroken", { error_message: "x" }), "A2A/dead-letter/q.md");
		expect(read.ok && read.raw.fields.quarantined).toBe(true);
	});
});

describe("flattenMessageText after a body that ends inside a code fence", () => {
	it("keeps the wrapped payload in the frontmatter, where a section would have been read as code", () => {
		const text = ["---", "message:", "  message_id: w-1", `  trace_id: ${TRACE}`, "  source_group: 10-backend-group", "  target_group: 20-frontend-group", "  request_type: query", "  payload:", '    question: "## Q\\nsub"', "---", "Notes:", "```", "unclosed", ""].join("\n");
		expect(rawOf(text).payload).toEqual({ question: "## Q\nsub" });
		const flat = flattenMessageText(text, "A2A/groups/10-backend-group/outbox/w.md");
		expect(flat).not.toBeNull();
		expect(rawOf(flat ?? "").payload).toEqual({ question: "## Q\nsub" });
		expect(splitNote(flat ?? "").body).toBe("Notes:\n```\nunclosed\n");
	});
});
