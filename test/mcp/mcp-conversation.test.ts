import { describe, expect, it } from "vitest";
import { ARCHIVED } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { useMcpHarness, until } from "../helpers/mcp-harness";
import { listFiles } from "../../test-support/mcp-agents";

// Two agent processes (each `a2a mcp` for its group, driven by the official MCP client SDK) and a
// router process (`a2a route --watch`): a whole conversation through the tools of protocol section 7,
// then what the vault and the routing log hold afterwards.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";
const TOOLS = ["append_finding", "get_trace", "list_inbox", "read_message", "relay_status", "reply", "send_request", "set_agent_status", "take_response", "wait_for_response"];
/** What `a2a init` writes for Obsidian's Bases plugin beside the registry. */
const BASES = ["A2A/Agents.base", "A2A/Messages.base"];

const h = useMcpHarness();

/** The rows of the routing log (every day's note): outcome and message id. */
async function logRows(vault: TempVault): Promise<{ outcome: string; message: string; error: string }[]> {
	const rows: { outcome: string; message: string; error: string }[] = [];
	for (const file of (await vault.files("A2A/log")).sort()) {
		for (const line of (await vault.read(file)).split("\n")) {
			const cells = line.split("|").map((c) => c.trim());
			if (cells.length < 8 || cells[1] === "Time" || cells[1].startsWith("---")) continue;
			rows.push({ outcome: cells[2], message: cells[3], error: cells[6] });
		}
	}
	return rows;
}

const basename = (p: string) => p.slice(p.lastIndexOf("/") + 1);

describe("a2a mcp: a conversation between two agent processes through a router process", () => {
	it("A sends a query, B lists, reads and replies, A's wait returns the answer, A takes it, the trace shows it all", async () => {
		const vault = await h.vault();
		const router = h.router(vault);
		const a = await h.agent(vault, BACKEND, "backend-orchestrator");
		const b = await h.agent(vault, FRONTEND);
		expect((await a.client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);

		const sent = await a.ok<{ message_id: string; trace_id: string; path: string; hop_count: number }>("send_request", {
			to: FRONTEND,
			type: "query",
			question: "What fields are mandatory in the registration form?",
			context: "Designing the user table",
			priority: "high",
		});
		expect(sent.path).toMatch(new RegExp(`^A2A/groups/${BACKEND}/outbox/.+\\.md$`));
		expect(sent.hop_count).toBe(0);
		// A waits while B works: the wait is answered by the delivery, not by a later call.
		const waiting = a.ok<Record<string, any>>("wait_for_response", { message_id: sent.message_id, timeout_seconds: 45 });

		const inbox = await until("the request in B's inbox", async () => {
			const listing = await b.ok<{ messages: Record<string, unknown>[] }>("list_inbox", { kind: "requests" });
			return listing.messages.length > 0 ? listing.messages : undefined;
		});
		expect(inbox).toHaveLength(1);
		expect(inbox[0]).toMatchObject({ message_id: sent.message_id, trace_id: sent.trace_id, kind: "request", source_group: BACKEND, request_type: "query", priority: "high", summary: "What fields are mandatory in the registration form?" });
		const request = await b.ok<Record<string, any>>("read_message", { message_id: sent.message_id });
		expect(request).toMatchObject({ kind: "request", state: "delivered", where: "inbox", group: FRONTEND, hop_count: 0, route: [BACKEND, FRONTEND] });
		expect(request.payload).toEqual({ question: "What fields are mandatory in the registration form?", context: "Designing the user table" });
		const replied = await b.ok<{ message_id: string; in_reply_to: string }>("reply", { message_id: sent.message_id, status: "success", answer: "name, email and password" });
		expect(replied.in_reply_to).toBe(sent.message_id);

		const outcome = await waiting;
		expect(outcome.state).toBe("answered");
		expect(outcome.response).toMatchObject({ message_id: replied.message_id, in_reply_to: sent.message_id, status: "success", source_group: FRONTEND, target_group: BACKEND, where: "inbox", group: BACKEND });
		expect(outcome.response.payload).toEqual({ answer: "name, email and password" });
		expect((await a.ok<{ messages: unknown[] }>("list_inbox", {})).messages).toHaveLength(1);

		const taken = await a.ok<{ path: string; already_taken: boolean }>("take_response", { message_id: replied.message_id });
		expect(taken.already_taken).toBe(false);
		expect(taken.path.startsWith(`A2A/groups/${BACKEND}/archive/`)).toBe(true);
		expect((await a.ok<{ messages: unknown[] }>("list_inbox", {})).messages).toEqual([]);

		const trace = await until("the request archived", async () => {
			const t = await a.ok<{ messages: Record<string, unknown>[] }>("get_trace", { trace_id: sent.trace_id });
			return t.messages[0]?.where === "archive" ? t : undefined;
		});
		expect(trace.messages.map((m) => [m.kind, m.message_id, m.where, m.group, m.state])).toEqual([
			["request", sent.message_id, "archive", FRONTEND, "answered"],
			["response", replied.message_id, "archive", BACKEND, "taken"],
		]);

		await router.stop();
		const requestFile = `${ARCHIVED(FRONTEND)}/${basename(sent.path)}`;
		const files = await listFiles(vault.dir);
		expect(files.filter((f) => !f.startsWith("A2A/log/"))).toEqual([taken.path, requestFile, ...BASES, "A2A/registry.yaml", "A2A/router.md"].sort());
		expect(await vault.frontmatter(requestFile)).toMatchObject({ kind: "request", message_id: sent.message_id, state: "answered", source_group: BACKEND, target_group: FRONTEND, route: [BACKEND, FRONTEND], attempt: 1 });
		expect(await vault.body(requestFile)).toContain("## Question\n\nWhat fields are mandatory in the registration form?");
		const response = await vault.frontmatter(taken.path);
		expect(response).toMatchObject({ kind: "response", message_id: replied.message_id, in_reply_to: sent.message_id, status: "success", state: "taken", source_group: FRONTEND, target_group: BACKEND });
		expect(typeof response.delivered_at).toBe("string");
		expect(typeof response.processing_time_ms).toBe("number");
		expect(await logRows(vault)).toEqual([
			{ outcome: "delivered", message: sent.message_id, error: "" },
			{ outcome: "answered", message: replied.message_id, error: "" },
		]);
	});

	it("a request nobody answers: A's wait returns timed_out with the router's timeout response", async () => {
		const registry = `communication:\n  max_hops: 5\n  timeout_seconds: 1\n  retry_attempts: 0\ngroups:\n  ${BACKEND}: {}\n  ${FRONTEND}: {}\n`;
		const vault = await h.vault(registry);
		const router = h.router(vault);
		const a = await h.agent(vault, BACKEND);
		const b = await h.agent(vault, FRONTEND);
		const sent = await a.ok<{ message_id: string; trace_id: string; path: string }>("send_request", { to: FRONTEND, type: "task", task: "Review the form" });
		const outcome = await a.ok<Record<string, any>>("wait_for_response", { message_id: sent.message_id, timeout_seconds: 45 });
		expect(outcome.state).toBe("timed_out");
		expect(outcome.response).toMatchObject({ source_group: "a2a-relay", generated_by: "a2a-relay", status: "timeout", error_code: "TIMEOUT", in_reply_to: sent.message_id, where: "inbox", group: BACKEND });
		// The router writes its timeout response first, then moves the request to the dead-letter folder.
		const deadLetter = await until("the request in the dead-letter folder", async () => {
			const request = await a.ok<{ where: string; path: string; state: string }>("read_message", { message_id: sent.message_id });
			return request.where === "dead-letter" ? request : undefined;
		});
		expect(deadLetter.state).toBe("timed_out");
		const settled = await a.ok<Record<string, any>>("wait_for_response", { message_id: sent.message_id, timeout_seconds: 0 });
		expect(settled).toMatchObject({ state: "timed_out", request: { where: "dead-letter", path: deadLetter.path }, dead_letter: { path: deadLetter.path } });
		// B was never answered in time: nothing waits for it any more.
		expect((await b.ok<{ messages: unknown[] }>("list_inbox", {})).messages).toEqual([]);
		const taken = await a.ok<{ path: string }>("take_response", { message_id: sent.message_id });

		await router.stop();
		const files = (await listFiles(vault.dir)).filter((f) => !f.startsWith("A2A/log/"));
		expect(files).toEqual([deadLetter.path, taken.path, ...BASES, "A2A/registry.yaml", "A2A/router.md"].sort());
		expect(await vault.frontmatter(deadLetter.path)).toMatchObject({ message_id: sent.message_id, state: "timed_out", error_code: "TIMEOUT" });
		expect(await vault.frontmatter(taken.path)).toMatchObject({ status: "timeout", state: "taken", in_reply_to: sent.message_id });
		expect(await logRows(vault)).toEqual([
			{ outcome: "delivered", message: sent.message_id, error: "" },
			{ outcome: "timed_out", message: sent.message_id, error: "TIMEOUT" },
		]);
	});
});
