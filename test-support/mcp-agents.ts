import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

// Agents and a router as real processes of the CLI bundle, for the MCP tests and the MCP benchmark:
// each agent is `a2a mcp` driven by the official MCP client SDK over stdio, the router is
// `a2a route --watch`. Nothing here opens a network socket.

export async function tempDir(prefix: string): Promise<string> {
	return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

function alive(pid: number | undefined): boolean {
	if (pid === undefined) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** One agent: an `a2a mcp` process for a group, and an MCP client connected to it. */
export class McpAgent {
	readonly stderr: string[] = [];

	private constructor(
		readonly group: string,
		readonly client: Client,
		private readonly transport: StdioClientTransport,
	) {}

	static async start(bundle: string, vaultDir: string, group: string, agentName?: string, env?: Record<string, string>): Promise<McpAgent> {
		const args = [bundle, "mcp", "--vault", vaultDir, "--group", group, ...(agentName ? ["--agent", agentName] : [])];
		// Without `env` the client gives the server its own minimal environment, as real clients do.
		const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "pipe", ...(env ? { env: { ...(process.env as Record<string, string>), ...env } } : {}) });
		const client = new Client({ name: "a2a-relay-test", version: "0.0.0" });
		const agent = new McpAgent(group, client, transport);
		transport.stderr?.on("data", (chunk: Buffer) => agent.stderr.push(...chunk.toString("utf8").split("\n").filter((l) => l !== "")));
		try {
			await client.connect(transport, { timeout: 20_000 });
		} catch (error) {
			await agent.close();
			throw new Error(`a2a mcp for ${group} did not start: ${(error as Error).message}; its stderr: ${agent.stderr.join(" | ")}`);
		}
		return agent;
	}

	get pid(): number | undefined {
		return this.transport.pid ?? undefined;
	}

	async call(name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<CallToolResult> {
		return (await this.client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as CallToolResult;
	}

	/** The structured result of a call that must succeed (throws with the error text otherwise). */
	async ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<T> {
		const result = await this.call(name, args, timeoutMs);
		if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
		return result.structuredContent as T;
	}

	/** Closes the client (the server exits on stdin's end), and kills the process if it is still there. */
	async close(): Promise<void> {
		const pid = this.pid;
		await this.client.close().catch(() => undefined);
		if (alive(pid)) process.kill(pid as number, "SIGKILL");
	}
}

/** `a2a route --watch` on a vault, with the lines it printed. */
export class RouterProcess {
	readonly lines: string[] = [];
	private readonly exited: Promise<void>;

	constructor(readonly child: ChildProcess) {
		let buffer = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			buffer += chunk.toString("utf8");
			const parts = buffer.split("\n");
			buffer = parts.pop() ?? "";
			this.lines.push(...parts);
		});
		child.stderr?.on("data", () => undefined);
		this.exited = new Promise((resolve) => child.on("close", () => resolve()));
	}

	static start(bundle: string, vaultDir: string, extra: string[] = []): RouterProcess {
		const child = spawn(process.execPath, [bundle, "route", "--watch", "--json", "--interval", "200", "--vault", vaultDir, ...extra], { stdio: ["ignore", "pipe", "pipe"] });
		return new RouterProcess(child);
	}

	/** Stops it (SIGTERM: it releases its lease), and kills it if it has not exited within 5 s. */
	async stop(): Promise<void> {
		if (this.child.exitCode !== null || this.child.signalCode !== null) return;
		this.child.kill("SIGTERM");
		const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
		await this.exited;
		clearTimeout(timer);
	}
}

/** Every file below `dir`, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
	const out: string[] = [];
	const walk = async (d: string): Promise<void> => {
		for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
			const full = path.join(d, e.name);
			if (e.isDirectory()) await walk(full);
			else out.push(path.relative(dir, full).split(path.sep).join("/"));
		}
	};
	await walk(dir);
	return out.sort();
}
