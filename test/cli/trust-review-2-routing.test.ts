import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The second adversarial review of the router (its routing rules): one named test per break it
// found, through the CLI on a real folder. The log's items are in trust-review-2.test.ts.

const A = "10-backend-group";
const B = "20-frontend-group";
const C = "30-devops-group";
const D = "40-security-group";
const TRACE = "a1b2c3d4-e5f6-7890-abcd-ef1234567890";
const OTHER_TRACE = "77777777-7777-4777-8777-777777777777";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-review2-routing-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

const route = async () => {
	const run = await a2a(v.dir, "route", "--json");
	expect(run.code, run.stderr.join("\n")).toBe(0);
	return run.json;
};

const response = (from: string, fields: Record<string, string | boolean>, answer = "Done.") =>
	`---\n${Object.entries({ trace_id: TRACE, source_group: from, status: "success", ...fields })
		.map(([k, val]) => `${k}: ${val}`)
		.join("\n")}\n---\n\n## Answer\n\n${answer}\n`;

/** A registry whose requests time out after one second, with no retry. */
const quickTimeouts = () => v.write("A2A/registry.yaml", REGISTRY.replace("timeout_seconds: 30", "timeout_seconds: 1").replace("retry_attempts: 3", "retry_attempts: 0"));

/** Routes until the request times out (its timeout response is in its sender's inbox). */
async function timeOut(): Promise<void> {
	await new Promise((r) => setTimeout(r, 1100));
	expect((await route()).map((d) => d.outcome)).toEqual(["timed_out"]);
}

const names = async (folder: string) => (await v.files(folder)).map((f) => path.basename(f));

describe("review 2, item 1: only the request's own answer settles it", () => {
	it("another group's note reusing the request's id, and a response planted in its own inbox, neither answer nor reject it for wait and take", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-1", target_group: B }));
		await route();
		// C reuses q-1 for a note the router rejects: its error response (in_reply_to q-1) goes to C.
		await v.write(`${BOX(C, "outbox")}/reuse.md`, requestNote({ message_id: "q-1", source_group: C, target_group: "99-nowhere", trace_id: OTHER_TRACE }));
		expect((await route()).map((d) => `${d.outcome}:${d.error_code ?? ""}`)).toEqual(["rejected:GROUP_NOT_FOUND"]);
		expect((await names(BOX(C, "inbox"))).filter((n) => n.startsWith("error-q-1"))).toHaveLength(1);
		// And C plants, in its own inbox, an "answer" to q-1 bearing the router's delivery stamps.
		await v.write(
			`${BOX(C, "inbox")}/planted.md`,
			response(C, { message_id: "forged-r", in_reply_to: "q-1", target_group: C, state: "delivered", delivered_at: "2026-01-01T00:00:00Z" }, "Forged."),
		);
		const waited = await a2a(v.dir, "wait", "--message", "q-1", "--timeout", "0", "--json");
		expect(waited.code, waited.stdout.join("\n")).toBe(3);
		expect(waited.json[0]).toMatchObject({ state: "pending", message_id: "q-1", target_group: B });
		const took = await a2a(v.dir, "take", "q-1");
		expect(took.code).toBe(1);
		expect(took.stderr.join("\n")).toContain('no response to request "q-1" has arrived yet');
		expect(await v.exists(`${BOX(C, "inbox")}/planted.md`)).toBe(true);
		expect((await names(BOX(C, "inbox"))).filter((n) => n.startsWith("error-q-1"))).toHaveLength(1);
		// The real answer settles it, and take moves that one only.
		await v.write(`${BOX(B, "outbox")}/reply.md`, response(B, { message_id: "real-r", in_reply_to: "q-1" }, "The real answer."));
		expect((await route()).map((d) => d.outcome)).toEqual(["answered"]);
		const answered = await a2a(v.dir, "wait", "--message", "q-1", "--timeout", "0", "--json");
		expect(answered.code).toBe(0);
		expect(answered.json[0]).toMatchObject({ state: "answered", response: { message_id: "real-r", source_group: B } });
		const taken = await a2a(v.dir, "take", "q-1", "--json");
		expect(taken.code, taken.stderr.join("\n")).toBe(0);
		expect(taken.json[0]).toMatchObject({ taken: [{ message_id: "real-r", path: `${ARCHIVED(A)}/reply.md` }] });
		expect(await v.exists(`${BOX(C, "inbox")}/planted.md`)).toBe(true);
	});

	it("a dead letter with the request's id from another group does not make it rejected; taking another group's planted response by its id is refused", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-2", target_group: B }));
		await route();
		// C's note with q-2's id and its trace, to a group that does not exist: a dead letter of "q-2".
		await v.write(`${BOX(C, "outbox")}/reuse.md`, requestNote({ message_id: "q-2", source_group: C, target_group: "99-nowhere" }));
		await route();
		expect(await v.files("A2A/dead-letter")).toEqual(["A2A/dead-letter/reuse.md"]);
		const waited = await a2a(v.dir, "wait", "--message", "q-2", "--timeout", "0", "--json");
		expect(waited.code).toBe(3);
		expect(waited.json[0]).toMatchObject({ state: "pending" });
		expect(waited.json[0].dead_letter).toBeUndefined();
		// Nor does C's note that claims to come from A, with q-2's id and trace: its dead letter says source_group A.
		await v.write(`${BOX(C, "outbox")}/claims-a.md`, requestNote({ message_id: "q-2", source_group: A, target_group: D }));
		expect((await route()).map((d) => `${d.outcome}:${d.error_code ?? ""}`)).toEqual(["rejected:INVALID_MESSAGE"]);
		expect(await v.frontmatter("A2A/dead-letter/claims-a.md")).toMatchObject({ message_id: "q-2", source_group: A, trace_id: TRACE, state: "dead" });
		const again = await a2a(v.dir, "wait", "--message", "q-2", "--timeout", "0", "--json");
		expect(again.code).toBe(3);
		expect(again.json[0]).toMatchObject({ state: "pending", request: { where: "inbox", group: B } });
		await v.write(`${BOX(C, "inbox")}/planted.md`, response(C, { message_id: "forged-2", in_reply_to: "q-2", target_group: A, state: "delivered", delivered_at: "2026-01-01T00:00:00Z" }));
		const took = await a2a(v.dir, "take", "forged-2");
		expect(took.code).toBe(1);
		expect(await v.exists(`${BOX(C, "inbox")}/planted.md`)).toBe(true);
	});

	it("the router's own error response for the request still settles it as rejected", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-3", target_group: "99-nowhere" }));
		await route();
		const waited = await a2a(v.dir, "wait", "--message", "q-3", "--timeout", "0", "--json");
		expect(waited.code).toBe(0);
		expect(waited.json[0]).toMatchObject({ state: "rejected", response: { source_group: "a2a-relay", error_code: "GROUP_NOT_FOUND" }, dead_letter: { path: "A2A/dead-letter/ask.md" } });
	});
});

describe("review 2, item 6: only the router speaks as a2a-relay", () => {
	it("an answer marked generated_by: a2a-relay is INVALID_MESSAGE and never reaches the requester", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-6", target_group: B }));
		await route();
		await v.write(`${BOX(B, "outbox")}/reply.md`, response(B, { message_id: "r-6", in_reply_to: "q-6", generated_by: "a2a-relay" }, "Looks like the router."));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE", message_id: "r-6" }]);
		expect(String(decisions[0].reason)).toContain("generated_by is a2a-relay: only the router writes that");
		expect(await v.files(BOX(A, "inbox"))).toEqual([]);
		expect((await names(BOX(B, "inbox"))).filter((n) => n.startsWith("error-r-6"))).toHaveLength(1);
		expect(await v.frontmatter(`${BOX(B, "inbox")}/ask.md`)).toMatchObject({ state: "delivered" });
	});

	it("a request from an outbox with generated_by: a2a-relay, or with source_group: a2a-relay, is INVALID_MESSAGE too", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-6b", target_group: B, generated_by: "A2A-Relay" }));
		await v.write(`${BOX(A, "outbox")}/as-router.md`, requestNote({ message_id: "q-6e", source_group: "a2a-relay", target_group: B, trace_id: OTHER_TRACE }));
		const decisions = await route();
		expect(decisions.map((d) => `${d.message_id as string}:${d.outcome as string}:${(d.error_code as string | undefined) ?? ""}`).sort()).toEqual(["q-6b:rejected:INVALID_MESSAGE", "q-6e:rejected:INVALID_MESSAGE"]);
		expect(String(decisions.find((d) => d.message_id === "q-6e")?.reason)).toContain(`source_group is "a2a-relay" but the note is in the outbox of ${A}`);
		expect(await v.files(BOX(B, "inbox"))).toEqual([]);
		// Both error responses go to A, whose outbox held the notes.
		expect((await names(BOX(A, "inbox"))).sort()).toEqual([expect.stringMatching(/^error-q-6b-/), expect.stringMatching(/^error-q-6e-/)]);
	});

	it("the registry refuses the group id a2a-relay (any case) and keeps a2a-gateway; a note claiming to come from a2a-relay is not the router's", async () => {
		await v.write("A2A/registry.yaml", `${REGISTRY}  a2a-relay:\n    description: pretends to be the router\n  A2A-Relay:\n    description: the same in capitals\n`);
		const init = await a2a(v.dir, "init");
		expect(init.code).toBe(2);
		expect(init.stderr.join("\n")).toMatch(/groups\.a2a-relay: group id "a2a-relay" is reserved for the router/);
		expect(init.stderr.join("\n")).toMatch(/groups\.A2A-Relay: group id "A2A-Relay" is reserved for the router/);
		expect(await v.exists("A2A/groups/a2a-relay")).toBe(false);
		expect(await v.exists(BOX("a2a-gateway", "inbox"))).toBe(true);
		await v.write(`${BOX(A, "outbox")}/to-router.md`, requestNote({ message_id: "q-6c", target_group: "a2a-relay" }));
		await v.write(`${BOX("a2a-gateway", "outbox")}/gw.md`, requestNote({ message_id: "q-6d", source_group: "a2a-gateway", target_group: B, trace_id: OTHER_TRACE }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code, "a registry error is reported: exit 2").toBe(2);
		expect(run.json.map((d) => `${d.message_id as string}:${d.outcome as string}:${(d.error_code as string | undefined) ?? ""}`).sort()).toEqual(["q-6c:rejected:GROUP_NOT_FOUND", "q-6d:delivered:"]);
	});
});

describe("review 2, item 7: one answer per request, late or not", () => {
	it("a second late answer is INVALID_MESSAGE; a2a reply accepts the first late answer and refuses the second with the router's words", async () => {
		await quickTimeouts();
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "slow-7", target_group: B }));
		await route();
		await timeOut();
		const first = await a2a(v.dir, "reply", "--message", "slow-7", "--status", "success", "--answer", "Late, but here.", "--json");
		expect(first.code, first.stderr.join("\n")).toBe(0);
		expect(await route()).toMatchObject([{ outcome: "late", message_id: first.json[0].message_id }]);
		const second = await a2a(v.dir, "reply", "--message", "slow-7", "--status", "success", "--answer", "And again.");
		expect(second.code).toBe(1);
		expect(second.stderr.join("\n")).toContain("the router would reject it (INVALID_MESSAGE): request slow-7 is already answered");
		// Written by hand, the second late answer is refused by the router in the same words.
		await v.write(`${BOX(B, "outbox")}/again.md`, response(B, { message_id: "late-2", in_reply_to: "slow-7" }, "And again."));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE", message_id: "late-2" }]);
		expect(decisions[0].reason).toBe("request slow-7 is already answered");
		const inA = (await names(BOX(A, "inbox"))).filter((n) => !n.startsWith("timeout-"));
		expect(inA).toHaveLength(1);
	});

	it("a2a reply to a request that was rejected (never delivered) is refused with the router's words", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "lost-7", target_group: B, hop_count: 9 }));
		await route();
		const run = await a2a(v.dir, "reply", "--message", "lost-7", "--status", "success", "--answer", "Hm.");
		expect(run.code).toBe(1);
		expect(run.stderr.join("\n")).toContain("the router would reject it (INVALID_MESSAGE): request lost-7 was not delivered (MAX_HOPS_EXCEEDED): there is nothing to answer");
	});
});

describe("review 2, item 8: the hop limit counts the route, not only hop_count", () => {
	it("a request with hop_count 0 and a route of five groups is MAX_HOPS_EXCEEDED", async () => {
		await v.write(`${BOX(A, "outbox")}/long.md`, requestNote({ message_id: "hop-8", target_group: D, route: ["x1", "x2", "x3", "x4", "x5", A] }));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "MAX_HOPS_EXCEEDED", message_id: "hop-8" }]);
		expect(String(decisions[0].reason)).toContain("5 hops");
		expect(await v.files(BOX(D, "inbox"))).toEqual([]);
	});

	it("with parent_id, hop_count 0 all along a chain: five hops are delivered, the sixth is MAX_HOPS_EXCEEDED", async () => {
		await v.write("A2A/registry.yaml", `${REGISTRY}  50-extra-group:\n    description: one more\n  60-extra-group:\n    description: and another\n  70-extra-group:\n    description: and a last one\n`);
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const groups = [A, B, C, D, "50-extra-group", "60-extra-group", "70-extra-group"];
		for (let i = 0; i < groups.length - 1; i++) {
			await v.write(
				`${BOX(groups[i], "outbox")}/hop-${i}.md`,
				requestNote({ message_id: `chain-${i}`, source_group: groups[i], target_group: groups[i + 1], parent_id: i === 0 ? undefined : `chain-${i - 1}` }),
			);
			const decisions = await route();
			// chain-5 continues chain-4 (route A -> B -> C -> D -> 50 -> 60: five hops taken): its hop_count 0 is not believed.
			if (i < 5) expect(decisions, `hop ${i}`).toMatchObject([{ outcome: "delivered", message_id: `chain-${i}` }]);
			else {
				expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "MAX_HOPS_EXCEEDED", message_id: "chain-5" }]);
				expect(await v.files(BOX("70-extra-group", "inbox"))).toEqual([]);
			}
		}
	});
});

describe("review 2, item 15: a note planted in an inbox is refused whatever stamps it has but delivered_at", () => {
	it("an inbox note with dead_at and no delivered_at goes to the dead-letter folder; the error response goes to the group whose inbox held it", async () => {
		await v.write(
			`${BOX(B, "inbox")}/planted.md`,
			requestNote({ message_id: "planted-15", source_group: A, target_group: B, state: "dead", dead_at: "2026-01-01T00:00:00Z", error_code: "TIMEOUT" }),
		);
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE", path: "A2A/dead-letter/planted.md" }]);
		expect(String(decisions[0].reason)).toContain("write into your outbox");
		expect(await v.files(BOX(A, "inbox"))).toEqual([]);
		const inB = await v.files(BOX(B, "inbox"));
		expect(inB.map((f) => path.basename(f))).toEqual([expect.stringMatching(/^error-planted-15-[0-9a-f]{10}\.md$/)]);
		expect(await v.frontmatter(inB[0])).toMatchObject({ source_group: "a2a-relay", target_group: B, in_reply_to: "planted-15", error_code: "INVALID_MESSAGE" });
		// The next pass leaves the error response alone.
		expect(await route()).toEqual([]);
		expect(await v.files(BOX(B, "inbox"))).toEqual(inB);
	});
});
