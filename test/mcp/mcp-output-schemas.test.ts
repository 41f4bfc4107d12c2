import { describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { BOX, a2a, requestNote } from "../helpers/temp-vault";
import { useMcpHarness } from "../helpers/mcp-harness";
import { undeclaredFields } from "../helpers/schema-fields";
import type { McpAgent } from "../../test-support/mcp-agents";

// Every tool's result as a real MCP client takes it: the official client lists the tools first (as
// every client does), so it validates each structuredContent against the outputSchema it was given and
// fails the call with -32602 where they disagree. All ten tools, each on a path that succeeds and on
// one that fails; results in every shape the tools have (a remote group and a router's lease in the
// status, answered, rejected and pending waits, router-written responses in a trace, a note whose own
// fields are named like a result's). Beyond what
// the client checks, no result carries a field its schema does not name.

const A = "10-backend-group";
const B = "20-frontend-group";
const REGISTRY = `communication:\n  max_hops: 5\n  timeout_seconds: 30\n  retry_attempts: 3\ngroups:\n  ${A}: {}\n  ${B}: {}\n  30-devops-group: {}\n  50-partner-group:\n    description: A remote agent\n    url: http://127.0.0.1:9/a2a\n`;

const h = useMcpHarness();

interface Called {
	tool: string;
	result?: CallToolResult;
	/** What the client threw instead of returning the result (-32602 when it did not validate). */
	thrown?: string;
}

describe("a2a mcp: every result validates under the official client after tools/list", () => {
	it("all ten tools, on success and on error, return what their announced output schemas describe", async () => {
		const vault = await h.vault(REGISTRY);
		// Obsidian Sync on: relay_status then warns that it may not carry registry.yaml (a registry_warnings row).
		await vault.write(".obsidian/core-plugins.json", JSON.stringify({ sync: true }));
		const a = await h.agent(vault, A, "backend-agent");
		const b = await h.agent(vault, B);
		const schemas = new Map<string, Record<string, unknown>>();
		for (const agent of [a, b]) {
			for (const tool of (await agent.client.listTools()).tools) {
				expect(tool.outputSchema, `${tool.name} announces an output schema`).toBeDefined();
				schemas.set(tool.name, tool.outputSchema as Record<string, unknown>);
			}
		}
		expect(schemas.size).toBe(10);

		const calls: Called[] = [];
		const call = async (agent: McpAgent, tool: string, args: Record<string, unknown>): Promise<Called> => {
			const called: Called = { tool };
			try {
				called.result = await agent.call(tool, args, 30_000);
			} catch (error) {
				called.thrown = (error as Error).message;
			}
			calls.push(called);
			return called;
		};
		const data = <T = Record<string, any>>(c: Called): T => (c.result?.structuredContent ?? {}) as T;
		const route = async () => expect((await a2a(vault.dir, "route")).code).toBe(0);

		// Success paths: a whole conversation, then a rejected and a pending request, then the agent tools.
		const sent = data<{ message_id: string; trace_id: string }>(await call(a, "send_request", { to: B, type: "query", question: "Which fields are mandatory?", priority: "high" }));
		await route();
		await call(b, "list_inbox", { kind: "requests" });
		await call(b, "read_message", { message_id: sent.message_id });
		const replied = data<{ message_id: string }>(await call(b, "reply", { message_id: sent.message_id, status: "success", answer: "name and email", artifacts: ["docs/form.md"] }));
		await route();
		const answered = data(await call(a, "wait_for_response", { message_id: sent.message_id, timeout_seconds: 5 }));
		await call(a, "list_inbox", {});
		await call(a, "read_message", { message_id: replied.message_id });
		await call(a, "take_response", { message_id: replied.message_id });
		await call(a, "get_trace", { trace_id: sent.trace_id });

		await vault.write(`${BOX(A, "outbox")}/to-nowhere.md`, requestNote({ message_id: "to-nowhere-1", trace_id: "b1b2c3d4-e5f6-7890-abcd-ef1234567890", source_group: A, target_group: "99-nowhere", truncated: "no", where: 7 }));
		await route();
		const rejected = data(await call(a, "wait_for_response", { message_id: "to-nowhere-1", timeout_seconds: 5 }));
		await call(a, "get_trace", { trace_id: "b1b2c3d4-e5f6-7890-abcd-ef1234567890" });
		// A message read whole carries its note's own fields, even ones named like a result's: still valid.
		const deadLetter = data(await call(a, "read_message", { message_id: "to-nowhere-1" }));
		await call(a, "list_inbox", { kind: "responses" });
		const later = data<{ message_id: string }>(await call(a, "send_request", { to: "30-devops-group", type: "task", task: "Deploy it", timeout_seconds: 600 }));
		const pending = data(await call(a, "wait_for_response", { message_id: later.message_id, timeout_seconds: 0 }));

		await call(a, "set_agent_status", { status: "running", progress_percent: 40, last_action: "Checking", ticket: "UI-7" });
		await call(a, "set_agent_status", { status: "spawned" });
		await call(a, "append_finding", { action: "Email missing", data: "no input", next_steps: "Ask" });
		const status = data(await call(a, "relay_status", {}));

		const successes = calls.length;
		// Error paths: what each tool refuses, with the words a user sees.
		const refusals: [McpAgent, string, Record<string, unknown>, RegExp][] = [
			[a, "send_request", { to: "99-nowhere", type: "query", question: "q" }, /group "99-nowhere" is not in the registry/],
			[a, "list_inbox", { kind: "everything" }, /kind/],
			[a, "read_message", { message_id: "no-such-id" }, /no message with message_id "no-such-id"/],
			[b, "reply", { message_id: "no-such-id", status: "success", answer: "x" }, /no-such-id/],
			[a, "wait_for_response", { message_id: "no-such-id", timeout_seconds: 0 }, /no message with message_id "no-such-id"/],
			[a, "take_response", { message_id: "no-such-id" }, /no message with message_id "no-such-id"/],
			[a, "get_trace", { trace_id: "c1b2c3d4-e5f6-7890-abcd-ef1234567890" }, /no message of trace/],
			[b, "set_agent_status", { status: "running" }, /start it with --agent NAME/],
			[b, "append_finding", { action: "x" }, /start it with --agent NAME/],
			[a, "relay_status", { verbose: true }, /verbose|Unrecognized|Invalid/i],
		];
		for (const [agent, tool, args] of refusals) await call(agent, tool, args);

		// What the client refused (the -32602 of a result that does not match its schema): nothing.
		expect(calls.filter((c) => c.thrown !== undefined).map((c) => `${c.tool}: ${c.thrown}`)).toEqual([]);
		expect(new Set(calls.map((c) => c.tool)).size).toBe(10);

		const ok = calls.slice(0, successes);
		expect(ok.filter((c) => c.result?.isError).map((c) => `${c.tool}: ${JSON.stringify(c.result?.content)}`)).toEqual([]);
		expect(ok.flatMap((c) => undeclaredFields(schemas.get(c.tool) ?? {}, c.result?.structuredContent).map((f) => `${c.tool}: ${f}`))).toEqual([]);
		for (const c of ok) expect(JSON.parse((c.result?.content[0] as { text: string }).text)).toEqual(c.result?.structuredContent);

		// The shapes the run was meant to reach, so that the schemas were checked against each.
		expect(answered).toMatchObject({ state: "answered", response: { status: "success", payload: { answer: "name and email" } } });
		expect(rejected).toMatchObject({ state: "rejected", dead_letter: { where: "dead-letter" }, response: { generated_by: "a2a-relay", error_code: "GROUP_NOT_FOUND" } });
		expect(pending).toMatchObject({ state: "pending" });
		expect(deadLetter).toMatchObject({ where: "dead-letter", truncated: "no", payload: { question: "What fields are mandatory?" } });
		expect(status.groups).toContainEqual(expect.objectContaining({ group: "50-partner-group", url: "http://127.0.0.1:9/a2a", forwarded: 0 }));
		expect(status.summary.router).toMatchObject({ device: expect.any(String), released: true });
		expect(status.summary.registry_warnings).toContainEqual(expect.stringContaining("registry.yaml is a .yaml file"));

		// An error is isError with the sentence that says what to fix, and no structuredContent: valid for
		// a client that skips validation on errors and for one that validates whatever structuredContent it gets.
		const errors = calls.slice(successes);
		errors.forEach((c, i) => {
			expect(c.result?.isError, c.tool).toBe(true);
			expect(c.result?.structuredContent, c.tool).toBeUndefined();
			expect((c.result?.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("\n"), c.tool).toMatch(refusals[i][3]);
		});
	});
});
