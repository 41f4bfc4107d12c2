import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The receiving half of the CLI: a2a inbox, read, wait, take and trace, run as `a2a ...` would be,
// against a real vault folder routed by `a2a route`.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";
const DEVOPS = "30-devops-group";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

async function route(): Promise<void> {
	expect((await a2a(v.dir, "route")).code).toBe(0);
}

async function send(from: string, to: string, question: string, ...extra: string[]): Promise<{ message_id: string; trace_id: string; path: string }> {
	const sent = await a2a(v.dir, "send", "--from", from, "--to", to, "--type", "query", "--question", question, "--json", ...extra);
	expect(sent.code, sent.stderr.join("\n")).toBe(0);
	return sent.json[0] as { message_id: string; trace_id: string; path: string };
}

async function reply(id: string, answer: string): Promise<string> {
	const sent = await a2a(v.dir, "reply", "--message", id, "--status", "success", "--answer", answer, "--json");
	expect(sent.code, sent.stderr.join("\n")).toBe(0);
	return sent.json[0].message_id as string;
}

describe("a2a inbox", () => {
	it("lists requests to answer by priority then age, then responses not taken yet", async () => {
		const notes: [string, string, string, string][] = [
			["old-low", BACKEND, "low", "2026-01-01T10:00:00Z"],
			["new-high", DEVOPS, "high", "2026-01-01T12:00:00Z"],
			["old-high", BACKEND, "high", "2026-01-01T11:00:00Z"],
			["mid", DEVOPS, "medium", "2026-01-01T09:00:00Z"],
		];
		for (const [n, [id, from, priority, created]] of notes.entries()) {
			await v.write(`${BOX(from, "outbox")}/${id}.md`, requestNote({ message_id: id, source_group: from, target_group: FRONTEND, priority, created, trace_id: `0000000${n}-0000-4000-8000-000000000000` }, `## Question\n\n${id}?\n`));
		}
		const own = await send(FRONTEND, BACKEND, "Which API?");
		await route();
		await reply(own.message_id, "The user API");
		await route();
		const listed = await a2a(v.dir, "inbox", "--group", FRONTEND, "--json");
		expect(listed.code).toBe(0);
		expect(listed.json.map((m) => [m.kind, m.message_id])).toEqual([
			["request", "old-high"],
			["request", "new-high"],
			["request", "mid"],
			["request", "old-low"],
			["response", expect.any(String)],
		]);
		expect(listed.json[0]).toMatchObject({ source_group: BACKEND, request_type: "query", priority: "high", summary: "old-high?", state: "delivered", path: `${BOX(FRONTEND, "inbox")}/old-high.md` });
		expect(listed.json[4]).toMatchObject({ kind: "response", status: "success", in_reply_to: own.message_id, source_group: BACKEND, summary: "The user API" });
		const text = await a2a(v.dir, "inbox", "--group", FRONTEND);
		expect(text.stdout[0]).toBe("Requests to answer (4)");
		expect(text.stdout).toContain("Responses to take (1)");
	});

	it("does not list a request whose answer waits in the group's outbox, and refuses a second answer", async () => {
		const sent = await send(BACKEND, FRONTEND, "Q?");
		await route();
		await reply(sent.message_id, "A");
		expect((await a2a(v.dir, "inbox", "--group", FRONTEND, "--json")).json).toEqual([]);
		const again = await a2a(v.dir, "reply", "--message", sent.message_id, "--status", "success", "--answer", "again");
		expect(again.code).toBe(1);
		expect(again.stderr[0]).toMatch(/--message: the router would reject it \(INVALID_MESSAGE\): request .* is already answered \(response .* waits in 20-frontend-group's outbox: /);
	});

	it("refuses a group the registry does not know (exit 1) and needs --group", async () => {
		const unknown = await a2a(v.dir, "inbox", "--group", "../etc");
		expect(unknown.code).toBe(1);
		expect(unknown.stderr[0]).toBe(`a2a inbox: --group: group "../etc" is not in the registry (known groups: ${BACKEND}, ${FRONTEND}, ${DEVOPS}, 40-security-group, a2a-gateway)`);
		expect((await a2a(v.dir, "inbox")).code).toBe(1);
	});
});

describe("a2a read", () => {
	it("prints a message whole, as text and as one JSON object, wherever it is", async () => {
		const sent = await send(BACKEND, FRONTEND, "What fields?", "--context", "The user table", "--artifact", "docs/schema.md");
		const inOutbox = await a2a(v.dir, "read", sent.message_id, "--json");
		expect(inOutbox.json[0]).toMatchObject({ where: "outbox", group: BACKEND, message_id: sent.message_id });
		await route();
		const json = await a2a(v.dir, "read", sent.message_id, "--json");
		expect(json.code).toBe(0);
		expect(json.json).toHaveLength(1);
		expect(json.json[0]).toMatchObject({ kind: "request", message_id: sent.message_id, trace_id: sent.trace_id, state: "delivered", where: "inbox", group: FRONTEND });
		expect(json.json[0].payload).toEqual({ question: "What fields?", context: "The user table", artifacts: ["docs/schema.md"] });
		const text = await a2a(v.dir, "read", sent.message_id);
		expect(text.stdout).toEqual(expect.arrayContaining([`message_id: ${sent.message_id}`, "## Question", "What fields?", "## Artifacts", "- docs/schema.md"]));
	});

	it("a long Markdown task with its own ## headings is sent, routed and read back exactly, its headings escaped in the body", async () => {
		const plan = Array.from({ length: 160 }, (_, i) => `## Step ${i + 1}\n\nMigrate table ${i + 1}, then check its row count and its indexes.`).join("\n\n");
		expect(plan.length).toBeGreaterThan(8192);
		const sent = await send(BACKEND, FRONTEND, plan);
		await route();
		const read = await a2a(v.dir, "read", sent.message_id, "--json");
		expect(read.json[0]).toMatchObject({ state: "delivered", where: "inbox", group: FRONTEND });
		expect(read.json[0].payload).toEqual({ question: plan });
		const note = await v.read(read.json[0].path as string);
		expect(note).toContain("## Question\n\n\\## Step 1\n\nMigrate table 1");
		expect(note.slice(0, note.indexOf("\n---\n", 4))).not.toContain("Step 1");
	});

	it("says what to do about an unknown or missing ID (exit 1)", async () => {
		const unknown = await a2a(v.dir, "read", "no-such-id");
		expect(unknown.code).toBe(1);
		expect(unknown.stderr[0]).toMatch(/^a2a read: ID: no message with message_id "no-such-id" is in the relay: check the id/);
		const missing = await a2a(v.dir, "read");
		expect(missing.code).toBe(1);
		expect(missing.stderr[0]).toMatch(/give the ID/);
	});
});

describe("a2a take and a2a trace", () => {
	it("takes the response into the requester's archive (by the request's id), once; the trace shows where each message is", async () => {
		const sent = await send(BACKEND, FRONTEND, "Q?");
		const early = await a2a(v.dir, "take", sent.message_id);
		expect(early.code).toBe(1);
		expect(early.stderr[0]).toMatch(/no response to request .* has arrived yet: wait for it first/);
		await route();
		const responseId = await reply(sent.message_id, "A");
		await route();
		const taken = await a2a(v.dir, "take", sent.message_id, "--json");
		expect(taken.code).toBe(0);
		const result = taken.json[0] as { path: string; already_taken: boolean; taken: { message_id: string }[] };
		expect(result.already_taken).toBe(false);
		expect(result.taken.map((t) => t.message_id)).toEqual([responseId]);
		expect(result.path.startsWith(`${BOX(BACKEND, "archive")}/`)).toBe(true);
		expect(await v.frontmatter(result.path)).toMatchObject({ state: "taken", message_id: responseId, in_reply_to: sent.message_id });
		expect(await v.files(BOX(BACKEND, "inbox"))).toEqual([]);
		const again = await a2a(v.dir, "take", responseId, "--json");
		expect(again.json[0]).toMatchObject({ already_taken: true, path: result.path });

		const trace = await a2a(v.dir, "trace", sent.trace_id, "--json");
		expect(trace.code).toBe(0);
		expect(trace.json.map((m) => [m.kind, m.message_id, m.where, m.group, m.state])).toEqual([
			["request", sent.message_id, "archive", FRONTEND, "answered"],
			["response", responseId, "archive", BACKEND, "taken"],
		]);
		expect((await a2a(v.dir, "trace", "not-a-trace")).code).toBe(1);
	});
});

describe("a2a wait", () => {
	it("exits 3 when the time passes with the request pending, and 0 with the answer once it is delivered", async () => {
		const sent = await send(BACKEND, FRONTEND, "Q?");
		await route();
		const pending = await a2a(v.dir, "wait", "--message", sent.message_id, "--timeout", "0.2");
		expect(pending.code).toBe(3);
		expect(pending.stdout).toEqual([]);
		expect(pending.stderr[0]).toMatch(/still pending \(the request is in the inbox of 20-frontend-group\)/);
		// The wait starts first; the answer is delivered while it sleeps.
		const waiting = a2a(v.dir, "wait", "--message", sent.message_id, "--timeout", "25", "--json");
		const responseId = await reply(sent.message_id, "Name and email");
		await route();
		const done = await waiting;
		expect(done.code).toBe(0);
		expect(done.json[0]).toMatchObject({ state: "answered", message_id: sent.message_id, request: { where: "archive", group: FRONTEND } });
		expect(done.json[0].response).toMatchObject({ message_id: responseId, status: "success", payload: { answer: "Name and email" } });
		const text = await a2a(v.dir, "wait", "--message", sent.message_id);
		expect(text.stdout.slice(0, 1)).toEqual(["state: answered"]);
		expect(text.stdout).toContain("Name and email");
	});

	it("exits 0 with the router's response when the request is rejected or timed out", async () => {
		await v.write(`${BOX(BACKEND, "outbox")}/lost.md`, requestNote({ message_id: "lost-1", target_group: "99-nowhere" }));
		await route();
		const rejected = await a2a(v.dir, "wait", "--message", "lost-1", "--json");
		expect(rejected.code).toBe(0);
		expect(rejected.json[0]).toMatchObject({ state: "rejected", request: { where: "dead-letter" }, response: { source_group: "a2a-relay", status: "error", error_code: "GROUP_NOT_FOUND" } });

		await v.write("A2A/registry.yaml", REGISTRY.replace("timeout_seconds: 30", "timeout_seconds: 1").replace("retry_attempts: 3", "retry_attempts: 0"));
		const sent = await send(BACKEND, FRONTEND, "Anyone?");
		await route();
		const waiting = a2a(v.dir, "wait", "--message", sent.message_id, "--timeout", "25", "--json");
		await new Promise((r) => setTimeout(r, 1100));
		await route();
		const timedOut = await waiting;
		expect(timedOut.code).toBe(0);
		expect(timedOut.json[0]).toMatchObject({ state: "timed_out", response: { status: "timeout", error_code: "TIMEOUT", in_reply_to: sent.message_id } });
		const after = await a2a(v.dir, "wait", "--message", sent.message_id, "--json");
		expect(after.json[0]).toMatchObject({ state: "timed_out", request: { where: "dead-letter" }, dead_letter: { where: "dead-letter" } });
	});

	it("refuses what it cannot wait for (exit 1)", async () => {
		const sent = await send(BACKEND, FRONTEND, "Q?");
		expect((await a2a(v.dir, "wait")).stderr[0]).toMatch(/--message is required/);
		expect((await a2a(v.dir, "wait", "--message", sent.message_id, "--timeout", "soon")).stderr[0]).toMatch(/--timeout must be a number of seconds/);
		const unknown = await a2a(v.dir, "wait", "--message", "nope", "--timeout", "1");
		expect(unknown.code).toBe(1);
		expect(unknown.stderr[0]).toMatch(/^a2a wait: --message: no message with message_id "nope"/);
	});
});

describe("help", () => {
	it("every receiving command has --help (exit 0) and is listed in a2a --help", async () => {
		const main = await a2a(v.dir, "--help");
		for (const command of ["inbox", "read", "wait", "take", "trace", "mcp", "skill"]) {
			const help = await a2a(v.dir, command, "--help");
			expect(help.code, command).toBe(0);
			expect(help.stdout[0], command).toMatch(new RegExp(`^Usage: a2a ${command}`));
			expect(main.stdout.some((l) => l.startsWith(`  ${command} `)), command).toBe(true);
		}
	});
});
