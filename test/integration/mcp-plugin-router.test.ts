import { afterEach, describe, expect, it } from "vitest";
import { REGISTRY } from "../helpers/temp-vault";
import { useMcpHarness, until } from "../helpers/mcp-harness";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";

// The conversation of test/mcp/mcp-conversation.test.ts with the plugin as the router: the real
// plugin class in the fake Obsidian over a real folder, two `a2a mcp` agent processes writing into
// it. The fake notices outside writes the way Obsidian's file watcher does (here: a disk rescan
// every 50 ms); the agents' waits watch the folder themselves.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";

let b: Booted | undefined;
let watcher: ReturnType<typeof setInterval> | undefined;
// Registered before the harness's own: after-each hooks run last-registered first, so the agent
// processes are stopped before the host and its folder go.
afterEach(async () => {
	if (watcher) clearInterval(watcher);
	watcher = undefined;
	await b?.host.cleanup();
	b = undefined;
});
const h = useMcpHarness();

describe("a2a mcp agents with the plugin routing", () => {
	it("A asks, B answers, A's wait returns the answer and A takes it; the trace shows both in the archives", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const host = b.host;
		let scanning = false;
		watcher = setInterval(() => {
			if (scanning) return;
			scanning = true;
			void host.rescan().finally(() => (scanning = false));
		}, 50);
		const a = await h.agent(host, BACKEND);
		const other = await h.agent(host, FRONTEND);
		const sent = await a.ok<{ message_id: string; trace_id: string }>("send_request", { to: FRONTEND, type: "query", question: "Which fields?" });
		const waiting = a.ok<Record<string, any>>("wait_for_response", { message_id: sent.message_id, timeout_seconds: 45 });
		await until("the request in B's inbox", async () => ((await other.ok<{ messages: unknown[] }>("list_inbox", { kind: "requests" })).messages.length > 0 ? true : undefined));
		expect((await other.ok<Record<string, any>>("read_message", { message_id: sent.message_id })).payload).toEqual({ question: "Which fields?" });
		const replied = await other.ok<{ message_id: string }>("reply", { message_id: sent.message_id, status: "success", answer: "Name and email" });
		const outcome = await waiting;
		expect(outcome).toMatchObject({ state: "answered", response: { message_id: replied.message_id, payload: { answer: "Name and email" } } });
		await a.ok("take_response", { message_id: sent.message_id });
		const trace = await until("the request archived", async () => {
			const t = await a.ok<{ messages: Record<string, unknown>[] }>("get_trace", { trace_id: sent.trace_id });
			return t.messages[0]?.where === "archive" ? t : undefined;
		});
		expect(trace.messages.map((m) => [m.kind, m.where, m.group, m.state])).toEqual([
			["request", "archive", FRONTEND, "answered"],
			["response", "archive", BACKEND, "taken"],
		]);
		expect(b.plugin.parts.relay.recent.map((d) => d.outcome).sort()).toEqual(["answered", "delivered"]);
	});
});
