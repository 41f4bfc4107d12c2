import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { a2a } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { useMcpHarness } from "../helpers/mcp-harness";
import { listFiles } from "../../test-support/mcp-agents";

// Every tool with bad arguments (missing, of the wrong type, unknown ids, hostile strings, 200 KB) and
// every impossible action (another group's request, the hop limit, a cycle): a clear isError that
// says what to fix, and the vault byte for byte as it was.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";
const DEVOPS = "30-devops-group";
const BIG = "x".repeat(200 * 1024);
const UNKNOWN_UUID = "0f0f0f0f-1111-4222-8333-444444444444";

const h = useMcpHarness();

/** Every file of the vault with a hash of its bytes. */
async function snapshot(vault: TempVault): Promise<string[]> {
	const out: string[] = [];
	for (const file of await listFiles(vault.dir)) {
		const bytes = await fs.readFile(path.join(vault.dir, file));
		out.push(`${file} ${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`);
	}
	return out;
}

/** A vault where a request of BACKEND waits in FRONTEND's inbox, and one of FRONTEND (hop 4) in BACKEND's. */
async function preparedVault(): Promise<{ vault: TempVault; pending: string; deep: string }> {
	const vault = await h.vault();
	const sent = await a2a(vault.dir, "send", "--from", BACKEND, "--to", FRONTEND, "--type", "query", "--question", "Which fields?", "--json");
	const deepSent = await a2a(vault.dir, "send", "--from", FRONTEND, "--to", BACKEND, "--type", "task", "--task", "Deep", "--trace", UNKNOWN_UUID, "--hop", "4", "--json");
	expect((await a2a(vault.dir, "route")).code).toBe(0);
	return { vault, pending: sent.json[0].message_id as string, deep: deepSent.json[0].message_id as string };
}

describe("a2a mcp: bad arguments and impossible actions are refused, and nothing is written", () => {
	it("refuses each with isError and a message naming the fix; the vault is unchanged", async () => {
		const { vault, pending, deep } = await preparedVault();
		const a = await h.agent(vault, BACKEND);
		const b = await h.agent(vault, FRONTEND, "frontend-agent");
		const before = await snapshot(vault);

		const cases: [typeof a, string, Record<string, unknown>, RegExp][] = [
			// send_request
			[a, "send_request", {}, /to: Invalid input/],
			[a, "send_request", { to: 5, type: "query", question: "q" }, /to: Invalid input: expected string/],
			[a, "send_request", { to: "../../etc", type: "query", question: "q" }, /group "\.\.\/\.\.\/etc" is not in the registry \(known groups: 10-backend-group/],
			[a, "send_request", { to: "<script>alert(1)</script>", type: "query", question: "q" }, /is not in the registry/],
			[a, "send_request", { to: FRONTEND, type: "poll", question: "q" }, /type: Invalid option/],
			[a, "send_request", { to: FRONTEND, type: "query" }, /write the question, or give a context or an artifact/],
			[a, "send_request", { to: FRONTEND, type: "query", question: BIG }, /question: too long: at most 60000 characters/],
			[a, "send_request", { to: FRONTEND, type: "query", question: "q", trace_id: "../x" }, /trace_id: must be a UUID/],
			[a, "send_request", { to: FRONTEND, type: "query", question: "q", parent_id: "no-such-request" }, /parent_id: parent_id "no-such-request" names no request delivered to 10-backend-group/],
			[a, "send_request", { to: DEVOPS, type: "query", question: "q", parent_id: deep }, /MAX_HOPS_EXCEEDED.*hop_count is 5/],
			[b, "send_request", { to: BACKEND, type: "query", question: "q", parent_id: pending }, /CYCLE_DETECTED.*10-backend-group is already on this request's chain/],
			// The range of timeout_seconds is the router's rule (src/core/validate.ts), in its words.
			[a, "send_request", { to: FRONTEND, type: "query", question: "q", timeout_seconds: 0 }, /timeout_seconds: must be a whole number of seconds from 1 to 2592000 \(30 days\), got 0/],
			[a, "send_request", { to: FRONTEND, type: "query", question: "q", timeout_seconds: 1e20 }, /timeout_seconds: must be a whole number of seconds from 1 to 2592000 \(30 days\)/],
			// list_inbox
			[a, "list_inbox", { kind: "everything" }, /kind: Invalid option/],
			[a, "list_inbox", { kind: 3 }, /kind: Invalid option/],
			// read_message
			[a, "read_message", {}, /message_id: Invalid input/],
			[a, "read_message", { message_id: 42 }, /message_id: Invalid input: expected string/],
			[a, "read_message", { message_id: "../../etc/passwd" }, /no message with message_id "\.\.\/\.\.\/etc\/passwd" is in the relay/],
			[a, "read_message", { message_id: "<img src=x onerror=alert(1)>" }, /no message with message_id/],
			[a, "read_message", { message_id: BIG }, /a message_id has at most 128 characters/],
			[a, "read_message", { message_id: "line\nbreak" }, /is not a message_id/],
			// reply
			[a, "reply", {}, /message_id: Invalid input/],
			[a, "reply", { message_id: pending, status: "success", answer: "mine?" }, /was delivered to 20-frontend-group, not to 10-backend-group/],
			[b, "reply", { message_id: "no-such-request", status: "success", answer: "a" }, /no delivered request has message_id "no-such-request"\. Requests waiting in 20-frontend-group's inbox/],
			[b, "reply", { message_id: pending, status: "maybe", answer: "a" }, /status: Invalid option/],
			[b, "reply", { message_id: pending, status: "success" }, /answer: write the answer/],
			[b, "reply", { message_id: pending, status: "success", answer: BIG }, /answer: too long/],
			// wait_for_response
			[a, "wait_for_response", { message_id: "no-such-request", timeout_seconds: 1 }, /no message with message_id "no-such-request"/],
			[a, "wait_for_response", { message_id: pending, timeout_seconds: 51 }, /at most 50 seconds per call/],
			[a, "wait_for_response", { message_id: pending, timeout_seconds: -1 }, /timeout_seconds: Too small/],
			[a, "wait_for_response", { message_id: pending, timeout_seconds: "ten" }, /timeout_seconds: Invalid input: expected number/],
			[b, "wait_for_response", { message_id: pending, timeout_seconds: 1 }, /was sent by 10-backend-group, not by 20-frontend-group/],
			// take_response
			[a, "take_response", {}, /message_id: Invalid input/],
			[a, "take_response", { message_id: pending }, /no response to request .* has arrived yet: wait for it first/],
			[a, "take_response", { message_id: "../../A2A/registry.yaml" }, /no message with message_id/],
			// get_trace
			[a, "get_trace", {}, /trace_id: Invalid input/],
			[a, "get_trace", { trace_id: "not-a-uuid" }, /is not a trace_id/],
			[a, "get_trace", { trace_id: "<script>x</script>" }, /is not a trace_id/],
			[a, "get_trace", { trace_id: "0f0f0f0f-9999-4222-8333-444444444444" }, /no message of trace/],
			// set_agent_status
			[a, "set_agent_status", { status: "running" }, /this server keeps no agent note: start it with --agent NAME/],
			[b, "set_agent_status", { status: "sleeping" }, /status: status must be one of spawned, active, running, completed, failed, terminated, error, got "sleeping"/],
			[b, "set_agent_status", { progress_percent: 150 }, /progress_percent: progress_percent must be a number from 0 to 100, got 150/],
			[b, "set_agent_status", { progress_percent: "50" }, /progress_percent: progress_percent must be a number from 0 to 100, got "50"/],
			[b, "set_agent_status", { "bad key!": 1 }, /"bad key!" is not a field name/],
			[b, "set_agent_status", { last_action: BIG }, /last_action: Too big/],
			[b, "set_agent_status", {}, /give at least one field to set/],
			// append_finding
			[a, "append_finding", { action: "Found" }, /this server keeps no agent note/],
			[b, "append_finding", {}, /action: Invalid input/],
			[b, "append_finding", { action: "" }, /action: name the action/],
			[b, "append_finding", { action: "Found", data: BIG }, /data: too long/],
			// relay_status
			[a, "relay_status", { verbose: true }, /Unrecognized key/],
		];
		const seen = new Set<string>();
		for (const [agent, tool, args, expected] of cases) {
			const result = await agent.call(tool, args);
			const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
			expect(result.isError, `${tool} ${JSON.stringify(args).slice(0, 80)}: ${text.slice(0, 200)}`).toBe(true);
			expect(text.slice(0, 2000), `${tool} ${JSON.stringify(args).slice(0, 80)}`).toMatch(expected);
			// The answer is short: a 200 KB argument is not echoed back.
			expect(text.length).toBeLessThan(2000);
			seen.add(tool);
		}
		expect([...seen].sort()).toEqual((await a.client.listTools()).tools.map((t) => t.name).sort());
		expect(await snapshot(vault)).toEqual(before);
	});

	it("a2a mcp for a group the registry does not know exits 1 and prints nothing on stdout", async () => {
		const vault = await h.vault();
		const { spawnSync } = await import("node:child_process");
		const run = spawnSync(process.execPath, [h.bundle, "mcp", "--vault", vault.dir, "--group", "../nope"], { encoding: "utf8", input: "" });
		expect(run.status).toBe(1);
		expect(run.stdout).toBe("");
		expect(run.stderr).toMatch(/--group: group "\.\.\/nope" is not in the registry \(known groups: 10-backend-group/);
		const agent = spawnSync(process.execPath, [h.bundle, "mcp", "--vault", vault.dir, "--group", BACKEND, "--agent", "../evil"], { encoding: "utf8", input: "" });
		expect(agent.status).toBe(1);
		expect(agent.stdout).toBe("");
	});
});
