import { describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { a2a } from "../helpers/temp-vault";
import { useMcpHarness } from "../helpers/mcp-harness";

// Review finding 27.7: an MCP server speaks for its group. `a2a mcp --group C` reads the messages C
// sent or received and the traces C takes part in; for another pair's conversation every tool that
// takes an id answers with the very words it gives for an id the relay never saw (so it tells
// nothing, not even that the id exists). The vault owner's CLI (`a2a read`, `a2a trace`) reads all.

const A = "10-backend-group";
const B = "20-frontend-group";
const C = "30-devops-group";

const h = useMcpHarness();

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

describe("a2a mcp --group C: another pair's messages and traces are not found", () => {
	it("read_message, get_trace, wait_for_response, take_response and reply answer as for an unknown id; list_inbox shows none of it; A, B and the CLI read it all", async () => {
		const vault = await h.vault();
		const a = await h.agent(vault, A);
		const b = await h.agent(vault, B);
		const c = await h.agent(vault, C);
		for (const agent of [a, b, c]) await agent.client.listTools();

		const sent = await a.ok<{ message_id: string; trace_id: string }>("send_request", { to: B, type: "query", question: "What is the admin password policy?", context: "secret context" });
		expect((await a2a(vault.dir, "route")).code).toBe(0);
		const replied = await b.ok<{ message_id: string }>("reply", { message_id: sent.message_id, status: "success", answer: "twelve characters" });
		expect((await a2a(vault.dir, "route")).code).toBe(0);
		// One more request of A's, still in A's outbox (not routed yet): not C's either.
		const waiting = await a.ok<{ message_id: string; trace_id: string }>("send_request", { to: B, type: "task", task: "Rotate the keys" });

		const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
		const UNKNOWN_TRACE = "00000000-0000-4000-8000-0000000000ff";
		const same = async (tool: string, args: (id: string) => Record<string, unknown>, id: string, unknown: string) => {
			const foreign = await c.call(tool, args(id));
			const never = await c.call(tool, args(unknown));
			expect(never.isError, `${tool} of an unknown id`).toBe(true);
			expect(foreign.isError, `${tool} of ${id}: ${text(foreign)}`).toBe(true);
			expect(text(foreign).split(id).join("<id>"), tool).toBe(text(never).split(unknown).join("<id>"));
			expect(text(foreign)).not.toMatch(new RegExp(`${A}|${B}|password|twelve`));
		};
		for (const id of [sent.message_id, replied.message_id, waiting.message_id]) {
			await same("read_message", (m) => ({ message_id: m }), id, UNKNOWN_ID);
			await same("wait_for_response", (m) => ({ message_id: m, timeout_seconds: 0 }), id, UNKNOWN_ID);
			await same("take_response", (m) => ({ message_id: m }), id, UNKNOWN_ID);
			await same("reply", (m) => ({ message_id: m, status: "success", answer: "x" }), id, UNKNOWN_ID);
		}
		for (const trace of [sent.trace_id, waiting.trace_id]) await same("get_trace", (t) => ({ trace_id: t }), trace, UNKNOWN_TRACE);
		expect((await c.ok<{ messages: unknown[] }>("list_inbox", {})).messages).toEqual([]);
		// Nor can C join the conversation to read it: naming its trace in a request is refused as a new trace_id is.
		await same("send_request", (t) => ({ to: A, type: "query", question: "Anything new?", trace_id: t }), sent.trace_id, UNKNOWN_TRACE);
		await same("get_trace", (t) => ({ trace_id: t }), sent.trace_id, UNKNOWN_TRACE);
		// Nothing was written on C's behalf.
		expect(await vault.files(`A2A/groups/${C}`)).toEqual([]);

		// The two groups of the conversation read it all, and so does the vault owner's CLI.
		for (const agent of [a, b]) {
			expect(await agent.ok("read_message", { message_id: sent.message_id })).toMatchObject({ message_id: sent.message_id, payload: { question: "What is the admin password policy?" } });
			expect(await agent.ok("read_message", { message_id: replied.message_id })).toMatchObject({ payload: { answer: "twelve characters" } });
			const trace = await agent.ok<{ messages: { message_id: string }[] }>("get_trace", { trace_id: sent.trace_id });
			expect(trace.messages.map((m) => m.message_id)).toEqual([sent.message_id, replied.message_id]);
		}
		expect(await a.ok("read_message", { message_id: waiting.message_id })).toMatchObject({ where: "outbox", group: A });
		// A follow-up in a conversation of one's own is sent.
		expect(await b.ok("send_request", { to: A, type: "query", question: "Also the length?", trace_id: sent.trace_id })).toMatchObject({ trace_id: sent.trace_id });
		const cliRead = await a2a(vault.dir, "read", sent.message_id, "--json");
		expect(cliRead.code).toBe(0);
		expect(cliRead.json[0]).toMatchObject({ message_id: sent.message_id, source_group: A });
		const cliTrace = await a2a(vault.dir, "trace", sent.trace_id, "--json");
		expect(cliTrace.code).toBe(0);
		expect(cliTrace.stdout.join("\n")).toContain(replied.message_id);
	});

	it("a group that takes part in a trace reads the whole trace, and the messages it sent or received in it", async () => {
		const vault = await h.vault();
		const a = await h.agent(vault, A);
		const b = await h.agent(vault, B);
		const c = await h.agent(vault, C);
		const first = await a.ok<{ message_id: string; trace_id: string }>("send_request", { to: B, type: "query", question: "Which fields?" });
		expect((await a2a(vault.dir, "route")).code).toBe(0);
		// B, handling A's request, asks C in the same conversation: C takes part in the trace from then on.
		const delegated = await b.ok<{ message_id: string; trace_id: string }>("send_request", { to: C, type: "query", question: "Which ports?", parent_id: first.message_id });
		expect(delegated.trace_id).toBe(first.trace_id);
		expect((await a2a(vault.dir, "route")).code).toBe(0);

		expect(await c.ok("read_message", { message_id: delegated.message_id })).toMatchObject({ source_group: B, target_group: C });
		const trace = await c.ok<{ messages: { message_id: string }[] }>("get_trace", { trace_id: first.trace_id });
		expect(trace.messages.map((m) => m.message_id)).toEqual([first.message_id, delegated.message_id]);
		// A message of the trace that C neither sent nor received is still not C's to read whole.
		const foreign = await c.call("read_message", { message_id: first.message_id });
		expect(foreign.isError).toBe(true);
		expect(text(foreign)).toContain(`no message with message_id "${first.message_id}" is in the relay`);
	});
});
