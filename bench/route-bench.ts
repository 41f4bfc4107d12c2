import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeVault } from "../cli/node-vault";
import { Router } from "../src/router/router";
import { PRIORITIES } from "../src/core/protocol";

// Routing throughput of the Node adapter against the raw filesystem: the same number of
// read + write + rename operations done by hand, on the same disk, in the same run.

export interface RouteBenchResult {
	messages: number;
	routerSeconds: number;
	baselineSeconds: number;
	routerPerSecond: number;
	baselinePerSecond: number;
	ratio: number;
	delivered: number;
}

/** As `a2a route` runs (cli/session.ts). */
const ROUTER_CONCURRENCY = 8;

const GROUPS = Array.from({ length: 10 }, (_, i) => `g${String(i).padStart(2, "0")}-group`);

function registry(): string {
	return `communication:\n  max_hops: 5\n  timeout_seconds: 3600\n  retry_attempts: 3\ngroups:\n${GROUPS.map((g) => `  ${g}:\n    description: bench group\n`).join("")}`;
}

function note(i: number): string {
	const from = GROUPS[i % GROUPS.length];
	const to = GROUPS[(i + 1 + (i % 7)) % GROUPS.length];
	const trace = `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
	return `---\nmessage_id: m-${i}\ntrace_id: ${trace}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to === from ? GROUPS[(i + 2) % 10] : to}\nrequest_type: query\npriority: ${PRIORITIES[i % 3]}\ncreated: 2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z\n---\n\n## Question\n\nMessage ${i}: what is the status of item ${i}?\n\n## Context\n\nBenchmark payload with some text to carry, ${"lorem ipsum ".repeat(8)}\n`;
}

async function seed(dir: string, count: number): Promise<void> {
	await fs.mkdir(path.join(dir, "A2A"), { recursive: true });
	await fs.writeFile(path.join(dir, "A2A", "registry.yaml"), registry());
	for (const g of GROUPS) for (const box of ["inbox", "outbox", "archive"]) await fs.mkdir(path.join(dir, "A2A", "groups", g, box), { recursive: true });
	for (let i = 0; i < count; i++) {
		const from = GROUPS[i % GROUPS.length];
		await fs.writeFile(path.join(dir, "A2A", "groups", from, "outbox", `msg-${i}.md`), note(i));
	}
}

/** The same file operations done by hand, with the same number of notes in flight as the router. */
async function baseline(dir: string, count: number, concurrency = ROUTER_CONCURRENCY): Promise<number> {
	const start = process.hrtime.bigint();
	let next = 0;
	const worker = async () => {
		for (let i = next++; i < count; i = next++) await baselineOne(dir, i);
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return Number(process.hrtime.bigint() - start) / 1e9;
}

async function baselineOne(dir: string, i: number): Promise<void> {
	{
		const from = GROUPS[i % GROUPS.length];
		const src = path.join(dir, "A2A", "groups", from, "outbox", `msg-${i}.md`);
		const text = await fs.readFile(src, "utf8");
		const dest = path.join(dir, "A2A", "groups", GROUPS[(i + 1) % 10], "inbox", `msg-${i}.md`);
		const temp = path.join(path.dirname(dest), `.msg-${i}.tmp`);
		await fs.writeFile(temp, text.replace("---\n", "---\nstate: delivered\n"));
		await fs.rename(temp, dest);
		await fs.rm(src);
	}
}

async function routerRun(dir: string, count: number): Promise<{ seconds: number; delivered: number }> {
	const router = new Router(new NodeVault(dir));
	const start = process.hrtime.bigint();
	await router.loadRegistry();
	const report = await router.pass();
	const seconds = Number(process.hrtime.bigint() - start) / 1e9;
	return { seconds, delivered: report.decisions.filter((d) => d.outcome === "delivered").length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Router and baseline run in alternating rounds on fresh copies of the same vault, and the medians
 * are compared, so that a burst of load from elsewhere on a shared machine does not decide the ratio.
 */
export async function runRouteBench(count = 5000, rounds = 3): Promise<RouteBenchResult> {
	const base = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-bench-"));
	try {
		const routerTimes: number[] = [];
		const baselineTimes: number[] = [];
		let delivered = count;
		for (let round = 0; round < rounds; round++) {
			const routerDir = path.join(base, `router-${round}`);
			const baseDir = path.join(base, `baseline-${round}`);
			await seed(routerDir, count);
			await seed(baseDir, count);
			const order = round % 2 === 0 ? ["router", "baseline"] : ["baseline", "router"];
			for (const which of order) {
				if (which === "router") {
					const run = await routerRun(routerDir, count);
					routerTimes.push(run.seconds);
					delivered = Math.min(delivered, run.delivered);
				} else {
					baselineTimes.push(await baseline(baseDir, count));
				}
			}
			await fs.rm(routerDir, { recursive: true, force: true });
			await fs.rm(baseDir, { recursive: true, force: true });
		}
		const routerSeconds = median(routerTimes);
		const baselineSeconds = median(baselineTimes);
		return {
			messages: count,
			routerSeconds,
			baselineSeconds,
			routerPerSecond: count / routerSeconds,
			baselinePerSecond: count / baselineSeconds,
			ratio: routerSeconds / baselineSeconds,
			delivered,
		};
	} finally {
		await fs.rm(base, { recursive: true, force: true });
	}
}
