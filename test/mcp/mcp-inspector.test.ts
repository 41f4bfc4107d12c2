import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { a2a } from "../helpers/temp-vault";
import { useMcpHarness } from "../helpers/mcp-harness";

// A client nobody here wrote: the MCP Inspector's command-line mode, run as a user runs it
// (`npx @modelcontextprotocol/inspector --cli node a2a.cjs mcp ... --method ...`), from the
// devDependency (npx --no, npm offline: nothing is downloaded). It lists the tools (with --strict: no
// schema problem of error severity), then calls each of the ten, validating each structuredContent
// against the listed output schema as its client does. Every inspector process is started in its own
// process group and the group is killed when the call ends, also when it times out or the test fails.

const A = "10-backend-group";
const B = "20-frontend-group";
const TOOLS = ["append_finding", "get_trace", "list_inbox", "read_message", "relay_status", "reply", "send_request", "set_agent_status", "take_response", "wait_for_response"];

const h = useMcpHarness();

/** The process groups of the inspector runs not finished yet: killed after each test, whatever happened. */
const running = new Set<() => void>();
afterEach(() => {
	for (const kill of running) kill();
	running.clear();
});

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

function inspector(args: string[], timeoutMs = 60_000): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child = spawn("npx", ["--no", "--", "@modelcontextprotocol/inspector", "--cli", "--format", "json", ...args], {
			detached: true,
			stdio: ["ignore", "pipe", "pipe"],
			env: { ...process.env, npm_config_offline: "true", npm_config_update_notifier: "false" },
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		const killGroup = () => {
			try {
				if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
			} catch {
				// The group has exited already.
			}
		};
		running.add(killGroup);
		const timer = setTimeout(() => {
			killGroup();
			reject(new Error(`the inspector did not finish within ${timeoutMs} ms: ${args.join(" ")}\n${stderr}`));
		}, timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (code) => {
			clearTimeout(timer);
			killGroup();
			running.delete(killGroup);
			resolve({ code, stdout, stderr });
		});
	});
}

describe("the MCP Inspector's CLI mode against a2a mcp", () => {
	it("lists the ten tools without a schema error and calls each of them, on success and on error", async () => {
		const vault = await h.vault();
		// Obsidian Sync on: relay_status then warns that it may not carry registry.yaml (a registry_warnings row).
		await vault.write(".obsidian/core-plugins.json", JSON.stringify({ sync: true }));
		const server = (group: string, ...extra: string[]) => [process.execPath, h.bundle, "mcp", "--vault", vault.dir, "--group", group, ...extra];
		const call = async (group: string, tool: string, args: string[], extra: string[] = []): Promise<{ run: Run; result: Record<string, any> }> => {
			const run = await inspector([...server(group, ...extra), "--method", "tools/call", "--tool-name", tool, ...(args.length > 0 ? ["--tool-arg", ...args] : [])]);
			const parsed = run.stdout.trim() === "" ? {} : (JSON.parse(run.stdout) as { result?: Record<string, any> });
			return { run, result: parsed.result ?? {} };
		};
		const ok = async (group: string, tool: string, args: string[], extra: string[] = []): Promise<Record<string, any>> => {
			const { run, result } = await call(group, tool, args, extra);
			expect(run.code, `${tool}: ${run.stdout} ${run.stderr}`).toBe(0);
			expect(result.isError, tool).toBeUndefined();
			expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
			return result.structuredContent as Record<string, any>;
		};

		const listed = await inspector([...server(A), "--method", "tools/list", "--strict"]);
		expect(listed.code, listed.stderr).toBe(0);
		const tools = (JSON.parse(listed.stdout) as { result: { tools: { name: string; outputSchema?: object }[] } }).result.tools;
		expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
		expect(tools.filter((t) => t.outputSchema === undefined)).toEqual([]);
		expect(listed.stderr).toMatch(/\b0 errors\b/);

		const sent = await ok(A, "send_request", [`to=${B}`, "type=query", "question=Which fields are mandatory?", "priority=high"]);
		expect(sent).toMatchObject({ message_id: expect.any(String), trace_id: expect.any(String), hop_count: 0 });
		expect((await a2a(vault.dir, "route")).code).toBe(0);
		const inbox = await ok(B, "list_inbox", ["kind=requests"]);
		expect(inbox.messages).toEqual([expect.objectContaining({ message_id: sent.message_id, source_group: A, summary: "Which fields are mandatory?" })]);
		expect(await ok(B, "read_message", [`message_id=${sent.message_id}`])).toMatchObject({ where: "inbox", group: B, payload: { question: "Which fields are mandatory?" } });
		const replied = await ok(B, "reply", [`message_id=${sent.message_id}`, "status=success", "answer=name and email"]);
		expect(replied.in_reply_to).toBe(sent.message_id);
		expect((await a2a(vault.dir, "route")).code).toBe(0);
		const outcome = await ok(A, "wait_for_response", [`message_id=${sent.message_id}`, "timeout_seconds=5"]);
		expect(outcome).toMatchObject({ state: "answered", response: { message_id: replied.message_id, payload: { answer: "name and email" } } });
		const taken = await ok(A, "take_response", [`message_id=${replied.message_id}`]);
		expect(taken).toMatchObject({ already_taken: false, path: expect.stringMatching(new RegExp(`^A2A/groups/${A}/archive/`)) });
		const trace = await ok(A, "get_trace", [`trace_id=${sent.trace_id}`]);
		expect(trace.messages.map((m: { message_id: string }) => m.message_id)).toEqual([sent.message_id, replied.message_id]);
		const agent = ["--agent", "backend-agent"];
		expect(await ok(A, "set_agent_status", ["status=running", "progress_percent=40", "last_action=Checking"], agent)).toMatchObject({ fields: { status: "running", progress_percent: 40 } });
		expect(await ok(A, "append_finding", ["action=Email missing", "next_steps=Ask"], agent)).toMatchObject({ heading: expect.stringMatching(/\] Email missing$/) });
		const status = await ok(A, "relay_status", []);
		expect(status.agents).toContainEqual(expect.objectContaining({ name: "backend-agent", status: "running", progress: 40 }));
		expect(status.summary).toMatchObject({ type: "summary", router: { released: true }, registry_warnings: [expect.stringContaining(".yaml file")] });

		// Errors: isError with the sentence that says what to fix (the inspector exits 5 for a tool error).
		const unknown = await call(A, "read_message", ["message_id=no-such-id"]);
		expect(unknown.run.code).toBe(5);
		expect(unknown.result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining('no message with message_id "no-such-id"') }] });
		expect(unknown.result.structuredContent).toBeUndefined();
		const noAgent = await call(A, "set_agent_status", ["status=running"]);
		expect(noAgent.run.code).toBe(5);
		expect(noAgent.result.content[0].text).toContain("start it with --agent NAME");
	}, 300_000);
});
