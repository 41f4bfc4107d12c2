import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { readFrontmatter } from "../../src/core/frontmatter";
import { readRawMessage } from "../../src/core/message-parse";
import { parseLogLines } from "../../src/core/routing-log";
import { unquarantineText } from "../../src/core/stamps";
import { Router } from "../../src/router/router";
import type { ReadFile, VaultPort } from "../../src/router/vault-port";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The review "Trust the post office" (issue 10): one named test per item it broke, through the CLI
// and the router on a real folder. The plugin's items are in test/integration/trust-plugin.test.ts.

const A = "10-backend-group";
const B = "20-frontend-group";
const C = "30-devops-group";
const TRACE = "a1b2c3d4-e5f6-7890-abcd-ef1234567890";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-trust-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

const route = async () => {
	const run = await a2a(v.dir, "route", "--json");
	expect(run.code, run.stderr.join("\n")).toBe(0);
	return run.json;
};

const response = (from: string, fields: Record<string, string>, answer = "Done.") =>
	`---\n${Object.entries({ trace_id: TRACE, source_group: from, status: "success", ...fields })
		.map(([k, val]) => `${k}: ${val}`)
		.join("\n")}\n---\n\n## Answer\n\n${answer}\n`;

/** Every file of the vault's parent folder that is not inside the vault. */
async function outsideVault(): Promise<string[]> {
	const parent = path.dirname(v.dir);
	const mine = path.basename(v.dir);
	const names = await fs.readdir(parent);
	return names.filter((n) => n.includes("Escaped") || n === "planted.md").filter((n) => n !== mine);
}

describe("item 1: a file name is not a path", () => {
	it("delivers a name with backslashes and dots under a safe name in the target's inbox, and writes nothing anywhere else", async () => {
		const hostile = "x\\..\\..\\..\\Escaped\\planted.md";
		const deeper = "x\\..\\..\\..\\..\\..\\..\\Escaped\\planted.md";
		await v.write(`${BOX(A, "outbox")}/${hostile}`, requestNote({ message_id: "n-1", target_group: B }));
		await v.write(`${BOX(A, "outbox")}/${deeper}`, requestNote({ message_id: "n-2", target_group: B, trace_id: "22222222-2222-4222-8222-222222222222" }));
		await v.write(`${BOX(A, "outbox")}/ctrl\u0007bell\u001b.md`, requestNote({ message_id: "n-3", target_group: B, trace_id: "33333333-3333-4333-8333-333333333333" }));
		// A name that is only dots and spaces once trimmed (a name starting with a dot is a dot-file: rule 1).
		await v.write(`${BOX(A, "outbox")}/ . . .md`, requestNote({ message_id: "n-4", target_group: B, trace_id: "44444444-4444-4444-8444-444444444444" }));
		const decisions = await route();
		expect(decisions.map((d) => d.outcome).sort()).toEqual(["delivered", "delivered", "delivered", "delivered"]);
		const inbox = await v.files(BOX(B, "inbox"));
		expect(inbox).toHaveLength(4);
		for (const file of inbox) expect(path.basename(file)).toMatch(/^[^\\/\u0000-\u001f]+\.md$/);
		expect(inbox).toContain(`${BOX(B, "inbox")}/x-..-..-..-Escaped-planted.md`);
		expect(inbox.some((f) => /\/message-[0-9a-f]{8}\.md$/.test(f)), "a name of only dots gets a derived one").toBe(true);
		expect(await outsideVault()).toEqual([]);
		expect((await v.files()).filter((f) => !f.startsWith("A2A/"))).toEqual([]);
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
	});

	it("one hostile file never stops the router: the others are routed in the same pass", async () => {
		await v.write(`${BOX(A, "outbox")}/a ok.md`, requestNote({ message_id: "ok-1", target_group: B }));
		await v.write(`${BOX(A, "outbox")}/x\\..\\..\\..\\..\\..\\..\\..\\..\\etc\\passwd.md`, "---\nnot: [yaml\n---\n");
		await v.write(`${BOX(A, "outbox")}/z ok.md`, requestNote({ message_id: "ok-2", target_group: C, trace_id: "55555555-5555-4555-8555-555555555555" }));
		const decisions = await route();
		expect(decisions.map((d) => `${d.outcome}:${d.message_id ?? ""}`).filter((d) => !d.startsWith("rejected")).sort()).toEqual(["delivered:ok-1", "delivered:ok-2"]);
		expect(decisions.filter((d) => d.outcome === "rejected")).toHaveLength(1);
	});
});

describe("item 2: what is delivered is what was validated", () => {
	it("a note swapped between the read and the move stays in the outbox; the copy delivered is the one validated", async () => {
		const valid = requestNote({ message_id: "swap-1", target_group: B });
		const spoof = requestNote({ message_id: "swap-1", target_group: B, source_group: C, hop_count: 99, request_type: "bogus" }, `## Question\n\n${"x".repeat(200 * 1024)}\n`);
		await v.write(`${BOX(A, "outbox")}/swap.md`, valid);
		// The port swaps the note for another text right after the router read it.
		const inner = new NodeVault(v.dir);
		let swapped = false;
		const port: VaultPort = Object.assign(Object.create(inner) as NodeVault, {
			read: async (p: string, o?: { maxBytes?: number }): Promise<ReadFile | null> => {
				const read = await inner.read(p, o);
				if (!swapped && p.endsWith("/swap.md")) {
					swapped = true;
					await new Promise((r) => setTimeout(r, 5));
					await fs.writeFile(path.join(v.dir, p), spoof);
				}
				return read;
			},
		});
		const router = new Router(port);
		await router.loadRegistry();
		const first = await router.pass();
		expect(swapped).toBe(true);
		// Nothing was delivered from the swapped file: the note changed after it was read.
		expect(await v.files(BOX(B, "inbox"))).toEqual([]);
		expect(await v.read(`${BOX(A, "outbox")}/swap.md`)).toBe(spoof);
		expect(first.decisions.filter((d) => d.outcome === "delivered")).toEqual([]);
		// The next pass decides the note as it now is: rejected, never delivered with its spoofed fields.
		const second = await router.pass();
		expect(second.decisions.map((d) => `${d.outcome}:${d.error_code ?? ""}`)).toEqual(["rejected:INVALID_MESSAGE"]);
		expect(await v.files(BOX(B, "inbox"))).toEqual([]);
		expect(await v.files(BOX(C, "inbox"))).toEqual([]);
	});

	it("a note written straight into an inbox, with forged delivery fields but no delivered_at, is dead-lettered: write into your outbox", async () => {
		await v.write(`${BOX(B, "inbox")}/forged.md`, requestNote({ message_id: "forged-1", source_group: "99-nobody", target_group: B, hop_count: 9, state: "delivered" }));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE", path: "A2A/dead-letter/forged.md" }]);
		expect(String(decisions[0].reason)).toContain("write into your outbox");
		// What is left in B's inbox is the router's error response about it: B's inbox held the note.
		const left = await v.files(BOX(B, "inbox"));
		expect(left.map((f) => path.basename(f))).toEqual([expect.stringMatching(/^error-forged-1-[0-9a-f]{10}\.md$/)]);
		expect(await v.frontmatter(left[0])).toMatchObject({ source_group: "a2a-relay", target_group: B, in_reply_to: "forged-1" });
	});
});

describe("item 3: only the holder answers", () => {
	it("an answer from a group that never received the request is INVALID_MESSAGE; the requester gets nothing from it", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "q-1", target_group: B }));
		await route();
		await v.write(`${BOX(C, "outbox")}/forgery.md`, response(C, { in_reply_to: "q-1", message_id: "forged-answer" }));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE", message_id: "forged-answer" }]);
		expect(String(decisions[0].reason)).toContain(`only the group that holds a request may answer it: request q-1 was delivered to ${B}, not to ${C}`);
		expect(await v.files(BOX(A, "inbox"))).toEqual([]);
		expect((await v.files(BOX(C, "inbox"))).map((f) => path.basename(f))).toEqual([expect.stringMatching(/^error-forged-answer-[0-9a-f]{10}\.md$/)]);
		// The request still waits for its real answer.
		expect(await v.frontmatter(`${BOX(B, "inbox")}/ask.md`)).toMatchObject({ state: "delivered" });
	});
});

describe("items 7 and 8: error responses", () => {
	it("item 7: an agent that deletes the error response it read does not get it again; a corrected note rejected again gets a new one", async () => {
		await v.write(`${BOX(A, "outbox")}/lost.md`, requestNote({ message_id: "lost-1", target_group: "99-nowhere" }));
		await route();
		const [error] = await v.files(BOX(A, "inbox"));
		expect(await v.frontmatter(error)).toMatchObject({ source_group: "a2a-relay", generated_by: "a2a-relay", in_reply_to: "lost-1", error_code: "GROUP_NOT_FOUND" });
		await fs.rm(path.join(v.dir, error));
		for (let i = 0; i < 3; i++) await route();
		expect(await v.files(BOX(A, "inbox"))).toEqual([]);
		await v.write(`${BOX(A, "outbox")}/lost.md`, requestNote({ message_id: "lost-1", target_group: "98-still-nowhere" }));
		await route();
		const again = await v.files(BOX(A, "inbox"));
		expect(again).toHaveLength(1);
		expect(again[0]).not.toBe(error);
		expect(await v.files("A2A/dead-letter")).toHaveLength(2);
	});

	it("item 7: two rejected messages whose ids share their first 80 characters each get their error response", async () => {
		const long = "m".repeat(90);
		await v.write(`${BOX(A, "outbox")}/one.md`, requestNote({ message_id: `${long}-one`, target_group: "99-nowhere" }));
		await v.write(`${BOX(A, "outbox")}/two.md`, requestNote({ message_id: `${long}-two`, target_group: "99-nowhere", trace_id: "66666666-6666-4666-8666-666666666666" }));
		await route();
		const responses = await v.files(BOX(A, "inbox"));
		expect(responses).toHaveLength(2);
		expect((await Promise.all(responses.map((r) => v.frontmatter(r)))).map((fm) => fm.in_reply_to).sort()).toEqual([`${long}-one`, `${long}-two`]);
	});

	it("item 8: a response that reuses its request's message_id is INVALID_MESSAGE, with an error response to its sender", async () => {
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "same-id", target_group: B }));
		await route();
		await v.write(`${BOX(B, "outbox")}/reply.md`, response(B, { in_reply_to: "same-id", message_id: "same-id" }));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE" }]);
		expect(String(decisions[0].reason)).toContain("is the request's own id");
		const [error] = await v.files(BOX(B, "inbox")).then((fs2) => fs2.filter((f) => path.basename(f).startsWith("error-")));
		expect(await v.frontmatter(error)).toMatchObject({ error_code: "INVALID_MESSAGE", source_group: "a2a-relay" });
	});
});

describe("item 10: late answers", () => {
	it("an answer to a request that timed out is delivered, stamped late: true, logged and printed as late", async () => {
		await v.write("A2A/registry.yaml", REGISTRY.replace("timeout_seconds: 30", "timeout_seconds: 1").replace("retry_attempts: 3", "retry_attempts: 0"));
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "slow-1", target_group: B }));
		await route();
		await new Promise((r) => setTimeout(r, 1100));
		expect((await route()).map((d) => d.outcome)).toEqual(["timed_out"]);
		await v.write(`${BOX(B, "outbox")}/reply.md`, response(B, { in_reply_to: "slow-1", message_id: "late-1" }, "Sorry, here it is."));
		const decisions = await route();
		expect(decisions).toMatchObject([{ outcome: "late", message_id: "late-1", path: `${BOX(A, "inbox")}/reply.md` }]);
		expect(await v.frontmatter(`${BOX(A, "inbox")}/reply.md`)).toMatchObject({ late: true, state: "delivered", in_reply_to: "slow-1" });
		const log = parseLogLines(await v.read(`A2A/log/${new Date().toISOString().slice(0, 10)}.md`));
		expect(log.map((r) => r.outcome)).toEqual(["delivered", "timed_out", "late"]);
		// The timed-out request stays a dead letter (its requester already has the timeout response).
		expect(await v.frontmatter("A2A/dead-letter/ask.md")).toMatchObject({ state: "timed_out", error_code: "TIMEOUT" });
	});
});

describe("item 15: seed-format keys that name JavaScript internals are data", () => {
	it("keeps payload keys constructor, toString and __proto__ of a message: note", async () => {
		const note = `---\nmessage:\n  message_id: proto-1\n  trace_id: ${TRACE}\n  hop_count: 0\n  source_group: ${A}\n  target_group: ${B}\n  request_type: query\n  payload:\n    question: What?\n    constructor: built\n    toString: said\n    __proto__: kept\n---\n`;
		await v.write(`${BOX(A, "outbox")}/proto.md`, note);
		expect((await route()).map((d) => d.outcome)).toEqual(["delivered"]);
		const text = await v.read(`${BOX(B, "inbox")}/proto.md`);
		const read = readRawMessage(text, "proto.md");
		if (!read.ok) throw new Error(read.reason);
		const payload = read.raw.payload;
		expect(Object.keys(payload).sort()).toEqual(["__proto__", "constructor", "question", "toString"].sort());
		expect([payload.question, payload.constructor, payload.toString, payload.__proto__]).toEqual(["What?", "built", "said", "kept"]);
		expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
	});
});

describe("item 16: message notes are never agents", () => {
	it("a group folder inside the agents folder is refused by the registry, and no message becomes an agent in a2a status", async () => {
		await v.write("A2A/registry.yaml", `${REGISTRY}  50-agents-group:\n    folder: A2A/agents/team\n`);
		await a2a(v.dir, "init");
		await a2a(v.dir, "agent", "set", "alpha", "status=active");
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "pa-1", target_group: "50-agents-group" }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(2);
		expect(run.stderr.join("\n")).toContain('folder "A2A/agents/team" overlaps the agents folder A2A/agents');
		expect(run.json.map((d) => [d.outcome, d.error_code])).toEqual([["rejected", "GROUP_NOT_FOUND"]]);
		const status = await a2a(v.dir, "status", "--json");
		expect(status.json.filter((l) => l.type === "agent").map((l) => l.name)).toEqual(["alpha"]);
	});
});

describe("item 18: unknown commands", () => {
	it("a2a toString, constructor and __proto__ are usage errors (exit 1), not crashes", async () => {
		for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
			const run = await a2a(v.dir, name);
			expect(run.code, name).toBe(1);
			expect(run.stderr.join("\n")).toContain(`unknown command "${name}"`);
		}
	});
});

describe("what the review left open", () => {
	it("hidden temporary files older than a minute are removed by the next pass, younger ones are kept", async () => {
		const old = `${BOX(A, "inbox")}/.a2a-12345-1-old.md.tmp`;
		const young = `${BOX(A, "inbox")}/.a2a-12345-2-young.md.tmp`;
		const foreign = `${BOX(A, "outbox")}/.someone-else.md.tmp`;
		for (const f of [old, young, foreign]) await v.write(f, "half");
		const twoMinutesAgo = new Date(Date.now() - 120_000);
		await fs.utimes(path.join(v.dir, old), twoMinutesAgo, twoMinutesAgo);
		await fs.utimes(path.join(v.dir, foreign), twoMinutesAgo, twoMinutesAgo);
		await route();
		expect(await v.exists(old)).toBe(false);
		expect(await v.exists(young)).toBe(true);
		expect(await v.exists(foreign), "another program's temporary file is not ours to remove").toBe(true);
	});

	it("non-UTF-8 bytes in the frontmatter are kept when the note is stamped", async () => {
		const text = requestNote({ message_id: "latin-1", target_group: B, note_by: "Ren\u00e9" });
		const bytes = Buffer.from(text.replace("Ren\u00e9", "RenXX"), "utf8");
		const at = bytes.indexOf("RenXX") + 3;
		bytes[at] = 0xe9; // Latin-1 é: not valid UTF-8
		bytes[at + 1] = 0x20;
		await fs.writeFile(path.join(v.dir, BOX(A, "outbox"), "latin.md"), bytes);
		expect((await route()).map((d) => d.outcome)).toEqual(["delivered"]);
		const delivered = await fs.readFile(path.join(v.dir, BOX(B, "inbox"), "latin.md"));
		expect(delivered.includes(Buffer.from([0x52, 0x65, 0x6e, 0xe9, 0x20]))).toBe(true);
		expect(readFrontmatter(delivered.toString("utf8"))).toMatchObject({ state: "delivered", message_id: "latin-1" });
	});

	it("a quarantined note keeps its original bytes below the router's block", async () => {
		const original = "---\nbroken: [yaml\n---\nbody\n";
		await v.write(`${BOX(A, "outbox")}/broken.md`, original);
		await route();
		expect(unquarantineText(await v.read("A2A/dead-letter/broken.md"))).toBe(original);
	});
});
