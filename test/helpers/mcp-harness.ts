import { promises as fs } from "node:fs";
import * as path from "node:path";
import esbuild from "esbuild";
import { afterAll, afterEach, beforeAll } from "vitest";
import { McpAgent, RouterProcess, tempDir } from "../../test-support/mcp-agents";
import { a2a, makeTempVault } from "./temp-vault";
import type { TempVault } from "./temp-vault";

// The MCP tests' fixture: the CLI bundle built once per file, fresh vaults, agents (`a2a mcp`
// driven by the official MCP client SDK) and routers (`a2a route --watch`) as real processes. After
// each test every process it started is stopped (closed, then killed) and its vaults removed, also
// when the test failed.

/** Builds cli/bin.ts into `dir/a2a.cjs` with esbuild, as the release build does, and returns its path. */
async function buildCliBundle(dir: string): Promise<string> {
	const outfile = path.join(dir, "a2a.cjs");
	await esbuild.build({ entryPoints: ["cli/bin.ts"], bundle: true, platform: "node", format: "cjs", target: "node20", outfile, logLevel: "silent" });
	return outfile;
}

export interface McpHarness {
	readonly bundle: string;
	/** A new vault with `a2a init`'s registry and folders (or the registry text given). */
	vault(registry?: string): Promise<TempVault>;
	agent(vault: Pick<TempVault, "dir">, group: string, agentName?: string, env?: Record<string, string>): Promise<McpAgent>;
	router(vault: Pick<TempVault, "dir">): RouterProcess;
}

export function useMcpHarness(): McpHarness {
	let bundleDir = "";
	let bundle = "";
	const agents = new Set<McpAgent>();
	const routers = new Set<RouterProcess>();
	const vaults = new Set<TempVault>();

	beforeAll(async () => {
		bundleDir = await tempDir("a2a-mcp-bundle-");
		bundle = await buildCliBundle(bundleDir);
	}, 120_000);

	afterAll(() => fs.rm(bundleDir, { recursive: true, force: true }));

	afterEach(async () => {
		await Promise.all([...agents].map((a) => a.close()));
		agents.clear();
		await Promise.all([...routers].map((r) => r.stop()));
		routers.clear();
		await Promise.all([...vaults].map((v) => v.cleanup()));
		vaults.clear();
	}, 30_000);

	return {
		get bundle() {
			return bundle;
		},
		async vault(registry) {
			const vault = await makeTempVault("a2a-mcp-");
			vaults.add(vault);
			if (registry !== undefined) await vault.write("A2A/registry.yaml", registry);
			const init = await a2a(vault.dir, "init");
			if (init.code !== 0) throw new Error(`a2a init failed: ${init.stderr.join(" ")}`);
			return vault;
		},
		async agent(vault, group, agentName, env) {
			const agent = await McpAgent.start(bundle, vault.dir, group, agentName, env);
			agents.add(agent);
			return agent;
		},
		router(vault) {
			const router = RouterProcess.start(bundle, vault.dir);
			routers.add(router);
			return router;
		},
	};
}

/** Calls `probe` until it returns something other than undefined (at most `attempts` times, `delayMs` apart). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, attempts = 400, delayMs = 25): Promise<T> {
	for (let i = 0; i < attempts; i++) {
		const value = await probe();
		if (value !== undefined) return value;
		await new Promise((r) => setTimeout(r, delayMs));
	}
	throw new Error(`gave up waiting for ${what}`);
}
