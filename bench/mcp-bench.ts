import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import { McpAgent, RouterProcess, tempDir } from "../test-support/mcp-agents";
import { percentile, runLoad } from "../test-support/mcp-load";

// The MCP load benchmark: 4 agent processes (`a2a mcp`, driven by the official MCP client SDK)
// exchange request/response pairs through one router process (`a2a route --watch`). The figure is
// how long after a response's delivery (its delivered_at) the requester's wait_for_response
// returned it, for the waits that were already waiting then; the target is 250 ms. Every round
// also counts pairs lost and pairs answered or taken twice (both must be 0).

const GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"];

export interface McpRound {
	pairs: number;
	seconds: number;
	waits: number;
	p50: number;
	p99: number;
	max: number;
	lost: number;
	twice: number;
}

export interface McpBenchResult {
	rounds: McpRound[];
	medianP50: number;
	medianP99: number;
}

async function round(bundle: string, pairs: number): Promise<McpRound> {
	const dir = await tempDir("a2a-mcp-bench-");
	const agents: McpAgent[] = [];
	let router: RouterProcess | null = null;
	try {
		const init = spawnSync(process.execPath, [bundle, "init", "--vault", dir], { encoding: "utf8" });
		if (init.status !== 0) throw new Error(`a2a init failed: ${init.stderr}`);
		router = RouterProcess.start(bundle, dir);
		for (const group of GROUPS) agents.push(await McpAgent.start(bundle, dir, group));
		const result = await runLoad({ agents, pairsPerAgent: Math.ceil(pairs / GROUPS.length) });
		const total = Math.ceil(pairs / GROUPS.length) * GROUPS.length;
		const twice = [...result.replyCounts.values(), ...result.takenCounts.values()].filter((n) => n > 1).length;
		if (twice > 0) console.error(`replied twice: ${[...result.replyCounts].filter(([, n]) => n > 1).map(([id]) => id).join(", ")}; taken twice: ${[...result.takenCounts].filter(([, n]) => n > 1).map(([id]) => id).join(", ")}`);
		return {
			pairs: total,
			seconds: result.durationMs / 1000,
			waits: result.waitLatenciesMs.length,
			p50: percentile(result.waitLatenciesMs, 50),
			p99: percentile(result.waitLatenciesMs, 99),
			max: Math.max(...result.waitLatenciesMs),
			lost: total - result.answers.size + result.failures.length,
			twice,
		};
	} finally {
		await Promise.all(agents.map((a) => a.close()));
		await router?.stop();
		await fs.rm(dir, { recursive: true, force: true });
	}
}

const median = (values: number[]) => percentile(values, 50);

export async function runMcpBench(bundle: string, pairs: number, rounds: number): Promise<McpBenchResult> {
	const done: McpRound[] = [];
	for (let i = 0; i < rounds; i++) done.push(await round(bundle, pairs));
	return { rounds: done, medianP50: median(done.map((r) => r.p50)), medianP99: median(done.map((r) => r.p99)) };
}
