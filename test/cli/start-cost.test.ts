import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useCliBundle } from "../helpers/cli-process";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// What a command sets up before it does its work: only `a2a serve` and `a2a mcp` load the servers'
// libraries (express, the A2A and MCP SDKs' servers, gRPC), which took a third of every other
// command's start (measured on 2026-12-06: `a2a status` on an empty vault 0.44 s with them, 0.30 s
// without). Counted, not timed: the CLI's import graph as esbuild bundles it (what the entry imports
// without `import()` is set up at every start), and the Node built-in modules a running command
// loads, through a preloaded hook (the A2A server's libraries load Node's network modules).

const NETWORK = ["http", "https", "http2", "net", "tls", "dns"];

const cli = useCliBundle();
let v: TempVault;
let hook: string;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
	hook = path.join(v.dir, "..", `${path.basename(v.dir)}-hook.cjs`);
	await fs.writeFile(
		hook,
		`const Module = require("node:module"); const fs = require("node:fs"); const seen = new Set(); const load = Module._load;
Module._load = function (request, ...rest) { if (!request.startsWith(".") && !request.startsWith("/")) seen.add(request.replace(/^node:/, "")); return load.call(this, request, ...rest); };
process.on("exit", () => fs.writeFileSync(process.env.A2A_TEST_LOADED, [...seen].sort().join("\\n")));
`,
	);
});
afterEach(async () => {
	await fs.rm(hook, { force: true });
	await v.cleanup();
});

/** Runs the bundle to its end; the built-in modules it loaded, and its exit code. */
async function loaded(args: string[], until?: (stdout: string) => boolean): Promise<{ modules: string[]; code: number | null; stdout: string }> {
	const list = `${hook}.loaded`;
	const child = cli.spawn(args, { env: { NODE_OPTIONS: `--require ${hook}`, A2A_TEST_LOADED: list } });
	let stdout = "";
	child.stdout?.on("data", (chunk: Buffer) => {
		stdout += chunk.toString();
		if (until?.(stdout)) child.kill("SIGTERM");
	});
	child.stderr?.resume();
	const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
	const modules = (await fs.readFile(list, "utf8")).split("\n");
	await fs.rm(list, { force: true });
	return { modules, code, stdout };
}

/** The bundle's inputs reached from cli/bin.ts, through static imports only or through every import. */
function reached(): { atStart: Set<string>; all: Set<string> } {
	const inputs = cli.metafile().inputs;
	const walk = (follow: (kind: string) => boolean) => {
		const seen = new Set<string>();
		const todo = ["cli/bin.ts"];
		for (let input = todo.pop(); input !== undefined; input = todo.pop()) {
			if (seen.has(input)) continue;
			seen.add(input);
			for (const edge of inputs[input]?.imports ?? []) if (!edge.external && follow(edge.kind)) todo.push(edge.path);
		}
		return seen;
	};
	return { atStart: walk((kind) => kind !== "dynamic-import"), all: walk(() => true) };
}

const SERVER_PARTS = ["servers/a2a/http-server.ts", "servers/a2a/gateway.ts", "servers/a2a/grpc-server.ts", "servers/mcp/server.ts", "node_modules/express/", "node_modules/@modelcontextprotocol/server/", "node_modules/@grpc/grpc-js/"];

describe("a command's start", () => {
	it("the entry reaches no server library but through the import() of serve and mcp", async () => {
		const { atStart, all } = reached();
		const parts = (inputs: Set<string>) => SERVER_PARTS.filter((part) => [...inputs].some((input) => input.startsWith(part)));
		expect(parts(atStart)).toEqual([]);
		// The walk sees them where they are: behind the two commands' import().
		expect(parts(all)).toEqual(SERVER_PARTS);
	});

	it("every command but serve and mcp loads no network module; serve does", async () => {
		await v.write(`${BOX("10-backend-group", "outbox")}/ask.md`, requestNote({ message_id: "start-1" }));
		const commands = [
			["--version"],
			["status", "--vault", v.dir],
			["route", "--vault", v.dir],
			["send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "Q?", "--vault", v.dir],
			["inbox", "--group", "20-frontend-group", "--vault", v.dir],
			["read", "start-1", "--vault", v.dir],
			["trace", "a1b2c3d4-e5f6-7890-abcd-ef1234567890", "--vault", v.dir],
			["wait", "--message", "start-1", "--timeout", "0", "--vault", v.dir],
			["mcp", "--help"],
			["serve", "--help"],
		];
		for (const args of commands) {
			const run = await loaded(args);
			expect([args[0], run.code === 0 || run.code === 3]).toEqual([args[0], true]);
			expect([args[0], run.modules.filter((m) => NETWORK.includes(m))]).toEqual([args[0], []]);
			expect(run.modules).toContain("fs");
		}
		// The counting sees a server when one is set up: a2a serve, stopped once it says where it listens.
		const serve = await loaded(["serve", "--port", "0", "--json", "--vault", v.dir], (out) => out.includes('"url"'));
		expect(serve.stdout).toContain('"url"');
		expect(serve.modules).toEqual(expect.arrayContaining(["http", "net"]));
	}, 60_000);
});
