import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { VaultLayout } from "../../src/core/layout";
import { MessageIndex, entryFromRaw, wasDelivered } from "../../src/core/message-index";
import type { IndexEntry } from "../../src/core/message-index";
import { parseRegistry } from "../../src/core/registry";
import type { Registry } from "../../src/core/registry";
import { decideOutboxNote, requestAnswered, traceOf, traceParticipants } from "../../src/core/routing";
import type { RoutingContext, Verdict } from "../../src/core/routing";
import { flattenMessageText, quarantineText, stampAnswered, stampDead, stampDeliveredRequest, stampDeliveredResponse } from "../../src/core/stamps";
import { basename, stem } from "../../src/core/paths";
import { TRACE, TRACE_2, anyUnicodeString, note, rawOf, seedFixture, seedRegistry } from "./helpers";

// The routing decisions of protocol section 4, rules 1 to 6, on a registry, a layout and a message
// index filled the way the router fills it: notes stamped as delivered and indexed where they lie.

const NOW = Date.parse("2026-01-15T10:30:00Z");
const GRACE = 5000;
const A = "10-backend-group";
const B = "20-frontend-group";
const C = "30-devops-group";
const D = "40-security-group";

let registry: Registry;
let layout: VaultLayout;
let index: MessageIndex;
let ctx: RoutingContext;

beforeEach(() => {
	registry = seedRegistry();
	layout = new VaultLayout("A2A", registry);
	index = new MessageIndex();
	ctx = { registry, layout, index, now: NOW };
});

function outboxPath(group: string, name: string): string {
	return `${layout.box(group, "outbox")}/${name}`;
}

function request(from: string, to: string, extra: string[] = [], trace = TRACE): string {
	return note([`trace_id: ${trace}`, "hop_count: 0", `source_group: ${from}`, `target_group: ${to}`, "request_type: query", ...extra], "\n## Question\n\nWhat fields?\n");
}

function response(from: string, extra: string[] = [], trace = TRACE): string {
	return note([`trace_id: ${trace}`, `source_group: ${from}`, "status: success", ...extra], "\n## Answer\n\nThese.\n");
}

function decide(group: string, name: string, text: string, mtime = NOW - 60_000, grace = GRACE): Verdict {
	return decideOutboxNote({ path: outboxPath(group, name), text, mtime, group }, ctx, { graceMs: grace });
}

/** Indexes a note where it lies, as the router's scan does. */
function indexNote(path: string, text: string): IndexEntry {
	const entry = entryFromRaw(path, layout.locate(path), rawOf(text, path));
	index.set(entry);
	return entry;
}

/** Carries out a deliver verdict like the router: stamp the note, move it to the target's inbox, index it. */
function carryOut(verdict: Verdict, group: string, name: string, text: string, at = NOW): { path: string; text: string } {
	if (verdict.action !== "deliver") throw new Error(`expected deliver, got ${JSON.stringify(verdict)}`);
	expect(group).toBe(verdict.message.envelope.source_group);
	// The router writes the note, flattened and stamped, as `<stem>.md` in the inbox.
	const path = `${layout.box(verdict.target, "inbox")}/${stem(name)}.md`;
	const stamped = flattenMessageText(text, path, (fm) =>
		stampDeliveredRequest(fm, { target: verdict.target, now: at, settings: registry.communication, route: verdict.route, parentId: verdict.parentId, fallbackId: `id-${name}` }),
	);
	if (stamped === null) throw new Error("could not stamp");
	indexNote(path, stamped);
	return { path, text: stamped };
}

function expectReject(verdict: Verdict, code: string): string {
	expect(verdict.action).toBe("reject");
	if (verdict.action !== "reject") return "";
	expect(verdict.code).toBe(code);
	return verdict.reason;
}

describe("rule 1: ignored files", () => {
	it("ignores sync-conflict copies, dot-files and temp files without reading them", () => {
		expect(decide(A, "m.sync-conflict-20260115-ABC.md", request(A, B))).toEqual({ action: "ignore", reason: "a sync-conflict copy" });
		expect(decide(A, ".m.md", request(A, B))).toEqual({ action: "ignore", reason: "a dot-file" });
		expect(decide(A, "m.md.tmp", "---\nhalf")).toEqual({ action: "ignore", reason: "a lock or temporary file" });
	});
});

describe("rule 2: the grace period for notes still being written", () => {
	const half = "---\ntrace_id: a1b2c3d4";

	it("waits for a note that does not parse while it is younger than the grace period", () => {
		expect(decide(A, "m.md", half, NOW - 1000)).toEqual({ action: "wait", reason: "the frontmatter block is not closed by a --- line", until: NOW - 1000 + GRACE });
		expect(decide(A, "m.md", half, NOW - GRACE + 1)).toMatchObject({ action: "wait" });
	});

	it("rejects it as INVALID_MESSAGE once the grace period is over, with the reason", () => {
		expect(expectReject(decide(A, "m.md", half, NOW - GRACE), "INVALID_MESSAGE")).toBe("the frontmatter block is not closed by a --- line");
		expect(expectReject(decide(A, "m.md", note(["a: [1"]), NOW - 60_000), "INVALID_MESSAGE")).toMatch(/^YAML does not parse/);
	});

	it("rejects at once with no grace period (a2a route without --watch)", () => {
		expect(expectReject(decide(A, "m.md", half, NOW, 0), "INVALID_MESSAGE")).toContain("not closed");
	});

	it("does not hold a note back for ever when its mtime is in the future", () => {
		expect(decide(A, "m.md", half, NOW + 1000)).toMatchObject({ action: "wait" });
		expect(decide(A, "m.md", half, NOW + 10 * GRACE)).toMatchObject({ action: "reject", code: "INVALID_MESSAGE" });
	});

	it("item 11: gives a note that parses but is invalid (half typed) the grace period too, then rejects it with every problem", () => {
		const half = note([`source_group: ${A}`, `target_group: ${B}`, "request_type: query"]);
		expect(decide(A, "m.md", half, NOW - 1000)).toEqual({ action: "wait", reason: "trace_id is required; hop_count is required", until: NOW - 1000 + GRACE });
		const reason = expectReject(decide(A, "m.md", half, NOW - GRACE), "INVALID_MESSAGE");
		expect(reason).toBe("trace_id is required; hop_count is required");
	});

	it("routes a valid note at once, however fresh; a note that does not parse waits until it has been quiet for the grace period", () => {
		const valid = request(A, B);
		expect(decide(A, "m.md", valid, NOW - 1)).toMatchObject({ action: "deliver" });
		expect(decide(A, "m.md", "---\ntrace_id: [", NOW - 1000)).toMatchObject({ action: "wait", until: NOW - 1000 + GRACE });
		expect(decide(A, "m.md", "---\ntrace_id: [", NOW - GRACE)).toMatchObject({ action: "reject" });
	});

	it("item 11: never routes an empty note (Obsidian's New note), however old", () => {
		expect(decide(A, "Untitled.md", "", NOW - 3_600_000)).toEqual({ action: "ignore", reason: "an empty note: left for its writer" });
		expect(decide(A, "Untitled.md", "\n  \n", NOW - 3_600_000, 0)).toMatchObject({ action: "ignore" });
	});

	it("item 11: leaves a note open in an editor alone while it changed in the last seconds, even a valid one", () => {
		const valid = request(A, B);
		const editing = decideOutboxNote({ path: outboxPath(A, "m.md"), text: valid, mtime: NOW - 1000, group: A, editing: true }, ctx, { graceMs: GRACE });
		expect(editing).toMatchObject({ action: "wait" });
		const quiet = decideOutboxNote({ path: outboxPath(A, "m.md"), text: valid, mtime: NOW - GRACE, group: A, editing: true }, ctx, { graceMs: GRACE });
		expect(quiet).toMatchObject({ action: "deliver" });
	});
});

describe("rule 3: INVALID_MESSAGE", () => {
	it("names the field in the reason and keeps the raw fields for the error response", () => {
		const verdict = decide(A, "m.md", request(A, B, ["priority: urgent"]).replace("hop_count: 0", "hop_count: -1"));
		const reason = expectReject(verdict, "INVALID_MESSAGE");
		expect(reason).toContain("hop_count must be an integer >= 0");
		expect(reason).toContain('priority must be one of low, medium, high, got "urgent"');
		expect(verdict.action === "reject" && traceOf(verdict.raw)).toBe(TRACE);
	});

	it("rejects a note whose source_group is not the group of its outbox", () => {
		const reason = expectReject(decide(C, "m.md", request(A, B)), "INVALID_MESSAGE");
		expect(reason).toBe(`source_group is "${A}" but the note is in the outbox of ${C}`);
	});

	it("rejects a note larger than 100 KB", () => {
		const big = request(A, B).replace("What fields?", "x".repeat(100 * 1024));
		expect(expectReject(decide(A, "m.md", big), "INVALID_MESSAGE")).toMatch(/^note is \d+ bytes; the limit is 102400 \(100 KB\)$/);
	});

	it("rejects a note the router quarantined, with the reason it recorded", () => {
		const text = quarantineText("---\nbroken: [\n", { state: "dead", error_code: "INVALID_MESSAGE", error_message: "YAML does not parse: x" });
		expect(expectReject(decide(A, "m.md", text), "INVALID_MESSAGE")).toBe("YAML does not parse: x");
	});

	it("has no usable trace for the error response when the trace_id is not UUID-shaped", () => {
		const verdict = decide(A, "m.md", request(A, B).replace(TRACE, "uuid-v4"));
		expect(verdict.action === "reject" && traceOf(verdict.raw)).toBeUndefined();
	});
});

describe("rule 4: GROUP_NOT_FOUND", () => {
	it("rejects an unknown target group, listing the known groups", () => {
		const reason = expectReject(decide(A, "m.md", request(A, "99-unknown-group")), "GROUP_NOT_FOUND");
		expect(reason).toBe(`group "99-unknown-group" is not in the registry (known groups: ${A}, ${B}, ${C}, ${D})`);
	});

	it("says none when the registry has no groups", () => {
		ctx = { ...ctx, registry: parseRegistry(""), layout: new VaultLayout("A2A", parseRegistry("")) };
		expect(expectReject(decide(A, "m.md", request(A, B)), "GROUP_NOT_FOUND")).toBe(`group "${B}" is not in the registry (known groups: none)`);
	});

	it("checks the group before the hop count", () => {
		expectReject(decide(A, "m.md", request(A, "nope").replace("hop_count: 0", "hop_count: 9")), "GROUP_NOT_FOUND");
	});
});

describe("rule 5: MAX_HOPS_EXCEEDED", () => {
	it("delivers hop_count 4 and rejects hop_count 5 with max_hops 5", () => {
		expect(decide(A, "m.md", request(A, B).replace("hop_count: 0", "hop_count: 4"))).toMatchObject({ action: "deliver", target: B });
		const reason = expectReject(decide(A, "m.md", request(A, B).replace("hop_count: 0", "hop_count: 5")), "MAX_HOPS_EXCEEDED");
		expect(reason).toBe("hop_count is 5; this registry allows at most 5 hops (hop counts 0 to 4)");
	});

	it("follows the registry's max_hops", () => {
		const small = parseRegistry(`communication:\n  max_hops: 2\ngroups:\n  ${A}: {}\n  ${B}: {}\n`);
		ctx = { ...ctx, registry: small, layout: new VaultLayout("A2A", small) };
		expect(decide(A, "m.md", request(A, B).replace("hop_count: 0", "hop_count: 1"))).toMatchObject({ action: "deliver" });
		expectReject(decide(A, "m.md", request(A, B).replace("hop_count: 0", "hop_count: 2")), "MAX_HOPS_EXCEEDED");
	});
});

describe("rule 6: CYCLE_DETECTED and duplicates", () => {
	it("delivers A->B and B->C, and rejects C->A on the same trace at the third hop", () => {
		const first = request(A, B, ["message_id: m1"]);
		carryOut(decide(A, "m1.md", first), A, "m1.md", first);
		const second = request(B, C, ["message_id: m2"]).replace("hop_count: 0", "hop_count: 1");
		const delivered = carryOut(decide(B, "m2.md", second), B, "m2.md", second, NOW + 1000);
		expect(rawOf(delivered.text).fields.route).toEqual([A, B, C]);
		const third = request(C, A, ["message_id: m3"]).replace("hop_count: 0", "hop_count: 2");
		const reason = expectReject(decide(C, "m3.md", third), "CYCLE_DETECTED");
		expect(reason).toBe(`${A} is already on this request's chain (${A} -> ${B} -> ${C} -> ${A}): the request would come back to a group that is still waiting for it`);
	});

	it("detects the cycle from the note's own route even when the vault holds nothing of the trace", () => {
		const text = request(C, A, [`route: [${A}, ${B}, ${C}]`]).replace("hop_count: 0", "hop_count: 2");
		expectReject(decide(C, "m.md", text), "CYCLE_DETECTED");
	});

	it("rejects a request back to its own group", () => {
		expectReject(decide(A, "m.md", request(A, A)), "CYCLE_DETECTED");
	});

	it("does not count another trace, a request still in an outbox, or a rejected one", () => {
		const other = request(A, B, ["message_id: other"], TRACE_2);
		carryOut(decide(A, "other.md", other), A, "other.md", other);
		indexNote(outboxPath(B, "pending.md"), request(B, C, ["message_id: pending"]));
		const dead = note([`trace_id: ${TRACE}`, "hop_count: 0", `source_group: ${B}`, `target_group: ${D}`, "request_type: query", "state: dead", "error_code: GROUP_NOT_FOUND"]);
		indexNote("A2A/dead-letter/dead.md", dead);
		expect(traceParticipants(index, TRACE)).toEqual(new Set());
		expect(decide(A, "m.md", request(A, C))).toMatchObject({ action: "deliver", target: C });
		expect(decide(A, "m.md", request(A, D))).toMatchObject({ action: "deliver", target: D });
	});

	it("with cycle_detection: trace, counts a request that timed out in the dead-letter folder (it was delivered)", () => {
		const literal = parseRegistry(`communication:\n  cycle_detection: trace\ngroups:\n  ${A}: {}\n  ${B}: {}\n  ${C}: {}\n`);
		ctx = { ...ctx, registry: literal, layout: new VaultLayout("A2A", literal) };
		const timedOut = note([`trace_id: ${TRACE}`, "hop_count: 0", `source_group: ${A}`, `target_group: ${B}`, "request_type: query", "state: timed_out", `route: [${A}, ${B}]`]);
		const entry = indexNote("A2A/dead-letter/t.md", timedOut);
		expect(wasDelivered(entry)).toBe(true);
		expect(expectReject(decide(C, "m.md", request(C, B)), "CYCLE_DETECTED")).toContain("cycle_detection: trace");
	});

	it("item 9: with chain detection (the default), a new request to B after its TIMEOUT is delivered", () => {
		const timedOut = note([`trace_id: ${TRACE}`, "message_id: t", "hop_count: 0", `source_group: ${A}`, `target_group: ${B}`, "request_type: query", "state: timed_out", `route: [${A}, ${B}]`, "dead_at: 2026-01-15T10:00:00Z"]);
		indexNote("A2A/dead-letter/t.md", timedOut);
		expect(decide(A, "again.md", request(A, B, ["message_id: again"]))).toMatchObject({ action: "deliver", target: B, route: [A, B] });
	});

	it("item 9: a follow-up A->B after B answered is delivered", () => {
		const first = request(A, B, ["message_id: q1"]);
		const delivered = carryOut(decide(A, "q1.md", first), A, "q1.md", first);
		index.remove(delivered.path);
		indexNote(`${layout.box(B, "archive")}/q1.md`, delivered.text.replace("state: delivered", "state: answered"));
		expect(decide(A, "q2.md", request(A, B, ["message_id: q2"]))).toMatchObject({ action: "deliver", route: [A, B] });
	});

	it("item 9: a diamond A->B->D and A->C->D is delivered; A->B->C->A is stopped", () => {
		const ab = request(A, B, ["message_id: ab"]);
		carryOut(decide(A, "ab.md", ab), A, "ab.md", ab);
		const ac = request(A, C, ["message_id: ac"]);
		carryOut(decide(A, "ac.md", ac), A, "ac.md", ac);
		const bd = request(B, D, ["message_id: bd", "parent_id: ab"]).replace("hop_count: 0", "hop_count: 1");
		expect(decide(B, "bd.md", bd)).toMatchObject({ action: "deliver", route: [A, B, D] });
		carryOut(decide(B, "bd.md", bd), B, "bd.md", bd);
		const cd = request(C, D, ["message_id: cd", "parent_id: ac"]).replace("hop_count: 0", "hop_count: 1");
		expect(decide(C, "cd.md", cd)).toMatchObject({ action: "deliver", route: [A, C, D] });
		const bc = request(B, C, ["message_id: bc", "parent_id: ab"]).replace("hop_count: 0", "hop_count: 1");
		carryOut(decide(B, "bc.md", bc), B, "bc.md", bc);
		const ca = request(C, A, ["message_id: ca", "parent_id: bc"]).replace("hop_count: 0", "hop_count: 2");
		expectReject(decide(C, "ca.md", ca), "CYCLE_DETECTED");
	});

	it("item 9: parent_id is honoured, and a parent_id that names no request delivered to the sender is refused", () => {
		const ab = request(A, B, ["message_id: ab"]);
		carryOut(decide(A, "ab.md", ab), A, "ab.md", ab);
		expect(expectReject(decide(B, "x.md", request(B, C, ["parent_id: nowhere"])), "INVALID_MESSAGE")).toContain('parent_id "nowhere" names no request delivered to');
		expectReject(decide(C, "y.md", request(C, D, ["parent_id: ab"])), "INVALID_MESSAGE");
	});

	it("item 9: the parent is inferred (and stamped) when absent: the request B holds on this trace", () => {
		const ab = request(A, B, ["message_id: ab"]);
		carryOut(decide(A, "ab.md", ab), A, "ab.md", ab);
		const bc = request(B, C, ["message_id: bc"]).replace("hop_count: 0", "hop_count: 1");
		expect(decide(B, "bc.md", bc)).toMatchObject({ action: "deliver", route: [A, B, C], parentId: "ab" });
		const done = carryOut(decide(B, "bc.md", bc), B, "bc.md", bc);
		expect(rawOf(done.text).fields.parent_id).toBe("ab");
	});

	it("calls a message_id already delivered a duplicate, not a cycle", () => {
		const text = request(A, B, ["message_id: same-id"]);
		const delivered = carryOut(decide(A, "m.md", text), A, "m.md", text);
		const verdict = decide(A, "again.md", text);
		expect(verdict.action).toBe("duplicate");
		expect(verdict.action === "duplicate" && verdict.existing.path).toBe(delivered.path);
	});

	it("calls a message_id that was answered (now in the archive) a duplicate too", () => {
		const text = request(A, B, ["message_id: same-id"]);
		const delivered = carryOut(decide(A, "m.md", text), A, "m.md", text);
		index.remove(delivered.path);
		indexNote(`${layout.box(B, "archive")}/m.md`, delivered.text);
		expect(decide(A, "again.md", text)).toMatchObject({ action: "duplicate" });
	});

	it("does not call the note a duplicate of itself", () => {
		const text = request(A, B, ["message_id: me"]);
		indexNote(outboxPath(A, "m.md"), text);
		expect(decide(A, "m.md", text)).toMatchObject({ action: "deliver" });
	});

	it("a request B makes while it holds A's request continues A's chain, so B->A is a cycle", () => {
		const first = request(A, B, ["message_id: m1"]);
		carryOut(decide(A, "m1.md", first), A, "m1.md", first);
		expectReject(decide(B, "back.md", request(B, A).replace("hop_count: 0", "hop_count: 1")), "CYCLE_DETECTED");
	});
});

describe("responses", () => {
	function deliverRequest(from: string, to: string, id: string, at: number, trace = TRACE): IndexEntry {
		const text = request(from, to, [`message_id: ${id}`], trace);
		const saved = ctx;
		ctx = { ...ctx, now: at };
		const done = carryOut(decide(from, `${id}.md`, text), from, `${id}.md`, text, at);
		ctx = saved;
		const entry = index.get(done.path);
		if (!entry) throw new Error("not indexed");
		return entry;
	}

	it("derives the target from in_reply_to", () => {
		const req = deliverRequest(A, B, "q1", NOW - 5000);
		const verdict = decide(B, "r.md", response(B, ["in_reply_to: q1"]));
		expect(verdict).toMatchObject({ action: "answer", target: A });
		expect(verdict.action === "answer" && verdict.request?.path).toBe(req.path);
	});

	it("derives the target from the latest request of the trace delivered to the responder when in_reply_to is absent", () => {
		deliverRequest(A, B, "q1", NOW - 9000);
		deliverRequest(C, D, "other", NOW - 8000, TRACE_2);
		const fromD = entryFromRaw(`${layout.box(B, "inbox")}/q2.md`, layout.locate(`${layout.box(B, "inbox")}/q2.md`), rawOf(
			note([`trace_id: ${TRACE}`, "message_id: q2", "hop_count: 1", `source_group: ${D}`, `target_group: ${B}`, "request_type: query", "state: delivered", `delivered_at: ${new Date(NOW - 1000).toISOString()}`, `route: [${A}, ${D}, ${B}]`]),
		));
		index.set(fromD);
		const verdict = decide(B, "r.md", response(B));
		expect(verdict).toMatchObject({ action: "answer", target: D });
		expect(verdict.action === "answer" && verdict.request?.messageId).toBe("q2");
		expect(requestAnswered(index, { kind: "response", trace_id: TRACE, source_group: B, status: "success" })?.messageId).toBe("q2");
	});

	it("accepts a target_group that names the requester, and refuses one that does not", () => {
		deliverRequest(A, B, "q1", NOW - 5000);
		expect(decide(B, "r.md", response(B, ["in_reply_to: q1", `target_group: ${A}`]))).toMatchObject({ action: "answer", target: A });
		expect(expectReject(decide(B, "r.md", response(B, ["in_reply_to: q1", `target_group: ${C}`])), "INVALID_MESSAGE")).toContain(`target_group is ${C} but request q1 came from ${A}`);
	});

	it("rejects a response with nothing to answer as INVALID_MESSAGE, asking for in_reply_to", () => {
		const reason = expectReject(decide(B, "r.md", response(B)), "INVALID_MESSAGE");
		expect(reason).toBe(`no request of trace ${TRACE} waits for an answer from ${B}: give in_reply_to, the message_id of the request you answer`);
	});

	it("rejects a response to a requester that left the registry as GROUP_NOT_FOUND", () => {
		deliverRequest(A, B, "q1", NOW - 5000);
		const without = parseRegistry(`groups:\n  ${B}: {}\n  ${C}: {}\n`);
		ctx = { ...ctx, registry: without, layout: new VaultLayout("A2A", without) };
		expectReject(decide(B, "r.md", response(B, ["in_reply_to: q1"])), "GROUP_NOT_FOUND");
	});

	it("does not answer from a request delivered to another group", () => {
		deliverRequest(A, C, "q1", NOW - 5000);
		expectReject(decide(B, "r.md", response(B)), "INVALID_MESSAGE");
	});

	it("calls a response whose message_id was already delivered a duplicate", () => {
		deliverRequest(A, B, "q1", NOW - 5000);
		const text = response(B, ["in_reply_to: q1", "message_id: r1"]);
		const stamped = flattenMessageText(text, outboxPath(B, "r1.md"), (fm) => stampDeliveredResponse(fm, { target: A, now: NOW, late: false, fallbackId: "r1" }));
		indexNote(`${layout.box(A, "inbox")}/r1.md`, stamped ?? "");
		expect(decide(B, "again.md", text)).toMatchObject({ action: "duplicate" });
	});

	it("routes the seed's response example to the requester once the seed's request was delivered", () => {
		const req = seedFixture("request-1-backend-asks-frontend.yaml");
		const verdict = decide(A, "request-1.yaml", req);
		expect(verdict).toMatchObject({ action: "deliver", target: B });
		carryOut(verdict, A, "request-1.yaml", req);
		const answer = decide(B, "response-1.md", seedFixture("response-1-frontend-answers.md"));
		expect(answer).toMatchObject({ action: "answer", target: A });
	});
});

describe("stamps written on delivery", () => {
	const settings = { max_hops: 5, timeout_seconds: 30, retry_attempts: 3, cycle_detection: "chain" as const };
	const FALLBACK = "6a1f3c2e-0b5d-4c4e-9f7a-2d8e1b3c4a5f";

	it("stamps a delivered request with identity, route, state, times and attempt", () => {
		const fm: Record<string, unknown> = { trace_id: TRACE, source_group: A, target_group: B, request_type: "query", hop_count: 0, error_code: "OLD", dead_at: "x" };
		stampDeliveredRequest(fm, { target: B, now: NOW, settings, route: [A, B], fallbackId: FALLBACK });
		expect(fm).toMatchObject({
			kind: "request",
			created: "2026-01-15T10:30:00.000Z",
			route: [A, B],
			state: "delivered",
			delivered_at: "2026-01-15T10:30:00.000Z",
			expires_at: "2026-01-15T10:30:30.000Z",
			attempt: 1,
		});
		expect(fm.message_id).toBe(FALLBACK);
		expect(fm).not.toHaveProperty("error_code");
		expect(fm).not.toHaveProperty("dead_at");
	});

	it("uses the message's own timeout_seconds and keeps its message_id and created", () => {
		const fm: Record<string, unknown> = { message_id: "mine", created: "2026-01-15T10:00:00Z", source_group: B, timeout_seconds: 90, route: [A, B] };
		stampDeliveredRequest(fm, { target: C, now: NOW, settings, route: [A, B, C], fallbackId: FALLBACK });
		expect(fm).toMatchObject({ message_id: "mine", created: "2026-01-15T10:00:00Z", route: [A, B, C], expires_at: "2026-01-15T10:31:30.000Z" });
	});

	it("writes the route the decision found and the inferred parent; stamping twice gives the same fields", () => {
		const fm: Record<string, unknown> = { message_id: "m", source_group: B };
		stampDeliveredRequest(fm, { target: C, now: NOW, settings, route: [A, B, C], parentId: "p", fallbackId: FALLBACK });
		const once = structuredClone(fm);
		stampDeliveredRequest(fm, { target: C, now: NOW, settings, route: [A, B, C], parentId: "p", fallbackId: FALLBACK });
		expect(fm).toEqual(once);
		expect(fm).toMatchObject({ route: [A, B, C], parent_id: "p" });
	});

	it("stamps a delivered response with its target, in_reply_to and processing_time_ms", () => {
		const req = { messageId: "q1", deliveredAt: "2026-01-15T10:29:59.850Z" } as IndexEntry;
		const fm: Record<string, unknown> = { trace_id: TRACE, source_group: B, status: "success" };
		stampDeliveredResponse(fm, { target: A, now: NOW, request: req, late: false, fallbackId: FALLBACK });
		expect(fm).toMatchObject({ kind: "response", target_group: A, in_reply_to: "q1", processing_time_ms: 150, state: "delivered", delivered_at: "2026-01-15T10:30:00.000Z" });
	});

	it("measures processing_time_ms from the response's created, and keeps a value the agent gave", () => {
		const req = { messageId: "q1", deliveredAt: "2026-01-15T10:29:00.000Z" } as IndexEntry;
		const fm: Record<string, unknown> = { created: "2026-01-15T10:29:02.500Z" };
		stampDeliveredResponse(fm, { target: A, now: NOW, request: req, late: false, fallbackId: FALLBACK });
		expect(fm.processing_time_ms).toBe(2500);
		const given: Record<string, unknown> = { processing_time_ms: 7 };
		stampDeliveredResponse(given, { target: A, now: NOW, request: req, late: false, fallbackId: FALLBACK });
		expect(given.processing_time_ms).toBe(7);
		const early: Record<string, unknown> = { created: "2026-01-15T10:00:00Z" };
		stampDeliveredResponse(early, { target: A, now: NOW, request: req, late: false, fallbackId: FALLBACK });
		expect(early.processing_time_ms).toBe(0);
	});

	it("stamps answered and dead notes", () => {
		const fm: Record<string, unknown> = { state: "delivered" };
		stampAnswered(fm, NOW);
		expect(fm).toEqual({ state: "answered", answered_at: "2026-01-15T10:30:00.000Z" });
		const dead: Record<string, unknown> = {};
		stampDead(dead, "TIMEOUT", "nobody answered", NOW, "timed_out");
		expect(dead).toMatchObject({ state: "timed_out", dead_at: "2026-01-15T10:30:00.000Z", error_code: "TIMEOUT", error_message: "nobody answered" });
		expect(typeof dead.message_id).toBe("string");
	});
});

describe("the index entry of a note", () => {
	it("reads the fields the routing needs, from a wrapped seed note too", () => {
		const path = `${layout.box(B, "inbox")}/${basename("request-1.md")}`;
		const entry = indexNote(path, seedFixture("request-1-backend-asks-frontend.md"));
		expect(entry).toMatchObject({ path, kind: "request", traceId: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", sourceGroup: A, targetGroup: B, hopCount: 0, priority: "high", route: [] });
		expect(entry.location).toEqual({ area: "box", box: "inbox", group: B });
		expect(index.inTrace("a1b2c3d4-e5f6-7890-abcd-ef1234567890")).toEqual([entry]);
	});

	it("finds entries by id, trace and reply, and forgets removed ones", () => {
		const req = indexNote(`${layout.box(B, "inbox")}/q.md`, request(A, B, ["message_id: q", "state: delivered"]));
		const res = indexNote(`${layout.box(A, "inbox")}/r.md`, response(B, ["message_id: r", "in_reply_to: q"]));
		expect(index.withId("q")).toEqual([req]);
		expect(index.repliesTo("q")).toEqual([res]);
		expect(index.inTrace(TRACE)).toHaveLength(2);
		index.removeUnder(layout.box(A, "inbox") as string);
		expect(index.repliesTo("q")).toEqual([]);
		expect(index.size).toBe(1);
		index.set({ ...req, messageId: "renamed" });
		expect(index.withId("q")).toEqual([]);
		expect(index.withId("renamed")).toHaveLength(1);
	});
});

describe("any text at all", () => {
	const FRAGMENTS = ["---", "\n", "\r\n", "\uFEFF", "message:", "response:", "  ", "trace_id: ", TRACE, "hop_count: ", "-1", "5", "source_group: ", A, "target_group: ", B, "request_type: query", "status: success", "payload:", "  question: x", "## Question", "- item", "&a [1]", "*a", "!!binary", "? k", ": v", "[", "{", "'", '"', "|", ">", "#", "%YAML 1.2", "...", "<<: *a", "route: [", "kind: response", "message_id: m"];
	const textArb = fc.oneof(anyUnicodeString(60), fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }).map((parts) => parts.join("")));

	it("always gets a verdict, never an exception", { timeout: 60_000 }, () => {
		fc.assert(
			fc.property(textArb, fc.constantFrom("m.md", "m.yaml", "m.yml"), fc.integer({ min: 0, max: 10_000 }), (text, name, age) => {
				const verdict = decide(A, name, text, NOW - age);
				expect(["wait", "reject", "deliver", "answer", "duplicate", "ignore"]).toContain(verdict.action);
				if (verdict.action === "ignore") expect(text.trim()).toBe("");
				if (verdict.action === "reject") expect(verdict.reason.length).toBeGreaterThan(0);
				if (verdict.action === "wait") expect(age).toBeLessThan(GRACE);
			}),
			{ numRuns: 1000 },
		);
	});
});
