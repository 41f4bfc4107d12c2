import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { useMcpHarness } from "../helpers/mcp-harness";

// The stdio channel carries the MCP protocol and nothing else: every line `a2a mcp` writes on stdout
// is a JSON-RPC message (its own words go to stderr), and it exits when its client closes stdin.

const h = useMcpHarness();
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
	for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("a2a mcp on stdio", () => {
	it("writes only JSON-RPC on stdout, logs on stderr, and exits 0 when stdin ends", async () => {
		const vault = await h.vault();
		const child = spawn(process.execPath, [h.bundle, "mcp", "--vault", vault.dir, "--group", "10-backend-group"], { stdio: ["pipe", "pipe", "pipe"] });
		children.push(child);
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
		child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
		const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
		const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
		const answered = (id: number) => stdout.split("\n").some((l) => l.startsWith("{") && (JSON.parse(l) as { id?: number }).id === id);
		const waitFor = async (id: number) => {
			for (let i = 0; i < 400 && !answered(id); i++) await new Promise((r) => setTimeout(r, 25));
			expect(answered(id), `answer to request ${id}`).toBe(true);
		};

		send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
		await waitFor(1);
		send({ jsonrpc: "2.0", method: "notifications/initialized" });
		send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
		send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read_message", arguments: { message_id: "<b>nope</b>" } } });
		send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "send_request", arguments: { to: "20-frontend-group", type: "query", question: "Ping?" } } });
		for (const id of [2, 3, 4]) await waitFor(id);
		child.stdin.end();
		expect(await exited).toBe(0);

		const lines = stdout.split("\n").filter((l) => l !== "");
		for (const line of lines) expect((JSON.parse(line) as { jsonrpc: string }).jsonrpc).toBe("2.0");
		expect(lines).toHaveLength(4);
		const byId = new Map(lines.map((l) => JSON.parse(l) as { id: number; result: any }).map((m) => [m.id, m.result]));
		expect(byId.get(2).tools).toHaveLength(10);
		expect(byId.get(3).isError).toBe(true);
		expect(byId.get(4).structuredContent.path).toMatch(/^A2A\/groups\/10-backend-group\/outbox\//);
		expect(stderr).toMatch(/a2a mcp \(10-backend-group\): serving/);
	});

	// The SDK aborts the requests in flight when stdin ends; the wait listens to that signal.
	it("ends a wait still sleeping when its client goes, and exits", async () => {
		const vault = await h.vault();
		const child = spawn(process.execPath, [h.bundle, "mcp", "--vault", vault.dir, "--group", "10-backend-group"], { stdio: ["pipe", "pipe", "pipe"] });
		children.push(child);
		let stdout = "";
		child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
		const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
		const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
		const lines = async (n: number) => {
			for (let i = 0; i < 400 && stdout.split("\n").filter((l) => l !== "").length < n; i++) await new Promise((r) => setTimeout(r, 25));
		};
		send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
		await lines(1);
		send({ jsonrpc: "2.0", method: "notifications/initialized" });
		send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "send_request", arguments: { to: "20-frontend-group", type: "query", question: "Anyone?" } } });
		await lines(2);
		const sent = (JSON.parse(stdout.split("\n")[1]) as { result: { structuredContent: { message_id: string } } }).result.structuredContent;
		// No router runs: this wait would sleep its whole 45 s.
		send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "wait_for_response", arguments: { message_id: sent.message_id, timeout_seconds: 45 } } });
		await new Promise((r) => setTimeout(r, 300));
		child.stdin.end();
		const bound = new Promise<string>((resolve) => setTimeout(() => resolve("still running 20 s after its stdin ended"), 20_000));
		expect(await Promise.race([exited, bound])).toBe(0);
	});
});
