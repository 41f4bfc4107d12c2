import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeVault } from "../node/node-vault";
import { Router } from "../src/router/router";
import { GROUPS, outboxNote, outboxPath } from "../test-support/bench-notes";
import type { OutboxNote } from "../test-support/bench-notes";
import { countFiles, writeVault } from "./bench-vault";
import { floorRun } from "./route-floor";
import { collectGarbage, rotate, spread } from "./stats";
import type { Spread } from "./stats";

// Target 1: routing throughput against the floor (bench/route-floor.ts: one process, synchronous
// calls, read + write a temp file + rename + unlink per note), on the same notes and the same disk.
// The router runs in-process as `a2a route` does (NodeVault, loadRegistry, one pass). The earlier
// baseline (the same file work through async fs, 8 notes in flight) is a second column. Each round
// writes fresh vaults for all three, then runs them in an order that rotates from round to round.

export interface RouteSizeResult {
	notes: number;
	rounds: number;
	/** Seconds per run. */
	floor: Spread;
	router: Spread;
	async8: Spread;
	/** median(router) / median(floor), and the ratio of each round (its spread). */
	ratio: number;
	roundRatios: Spread;
	asyncRatio: number;
	/** CPU seconds of this process during the runs (medians): JavaScript (user) and the kernel's file work (system). */
	cpu: Record<Contender, { user: number; system: number }>;
}

const ASYNC_IN_FLIGHT = 8;

type Contender = "floor" | "router" | "async8";

/** The earlier baseline: the same file work through async fs, 8 notes in flight. */
async function asyncRun(dir: string, notes: readonly OutboxNote[]): Promise<number> {
	const start = process.hrtime.bigint();
	let next = 0;
	const one = async (n: OutboxNote) => {
		const src = path.join(dir, ...outboxPath(n).split("/"));
		const text = await fs.promises.readFile(src, "utf8");
		const destDir = path.join(dir, "A2A", "groups", n.to, "inbox");
		const temp = path.join(destDir, `.${n.name}.tmp`);
		await fs.promises.writeFile(temp, text.replace("\n---\n", "\nstate: delivered\ndelivered_at: 2026-01-01T00:00:00.000Z\n---\n"));
		await fs.promises.rename(temp, path.join(destDir, n.name));
		await fs.promises.rm(src);
	};
	const worker = async () => {
		for (let i = next++; i < notes.length; i = next++) await one(notes[i]);
	};
	await Promise.all(Array.from({ length: ASYNC_IN_FLIGHT }, worker));
	return Number(process.hrtime.bigint() - start) / 1e9;
}

async function routerRun(dir: string, count: number): Promise<number> {
	const start = process.hrtime.bigint();
	const router = new Router(new NodeVault(dir));
	await router.loadRegistry();
	const report = await router.pass();
	const seconds = Number(process.hrtime.bigint() - start) / 1e9;
	await router.stop();
	const delivered = report.decisions.filter((d) => d.outcome === "delivered").length;
	if (delivered !== count || report.failures.length > 0) {
		throw new Error(`the router delivered ${delivered} of ${count} notes (${report.failures.length} failures: ${report.failures[0]?.error ?? ""})`);
	}
	return seconds;
}

/** Every note reached an inbox and left its outbox (the floor and the baseline are checked too). */
function checkDelivered(dir: string, count: number, who: string): void {
	let inboxes = 0;
	let outboxes = 0;
	for (const g of GROUPS) {
		inboxes += countFiles(path.join(dir, "A2A", "groups", g, "inbox"));
		outboxes += countFiles(path.join(dir, "A2A", "groups", g, "outbox"));
	}
	if (inboxes !== count || outboxes !== 0) throw new Error(`${who}: ${inboxes} of ${count} notes in inboxes, ${outboxes} left in outboxes`);
}

/**
 * Writes every dirty page to the disk before a timed run: otherwise the write-back of the vaults
 * just written (or of the run before) lands in the middle of whichever run comes next.
 */
function flushDisk(): void {
	spawnSync("sync");
}

async function measureSize(base: string, count: number, rounds: number): Promise<RouteSizeResult> {
	const notes = Array.from({ length: count }, (_, i) => outboxNote(i));
	const files = Object.fromEntries(notes.map((n) => [outboxPath(n), n.text]));
	const times: Record<Contender, number[]> = { floor: [], router: [], async8: [] };
	const cpu: Record<Contender, { user: number[]; system: number[] }> = { floor: { user: [], system: [] }, router: { user: [], system: [] }, async8: { user: [], system: [] } };
	for (let round = 0; round < rounds; round++) {
		const dirs = {} as Record<Contender, string>;
		for (const who of ["floor", "router", "async8"] as const) {
			dirs[who] = path.join(base, `${count}-${round}-${who}`);
			writeVault(dirs[who], files);
		}
		for (const who of rotate(["floor", "router", "async8"] as const, round)) {
			flushDisk();
			collectGarbage();
			const before = process.cpuUsage();
			const seconds = who === "floor" ? floorRun(dirs.floor, notes) : who === "router" ? await routerRun(dirs.router, count) : await asyncRun(dirs.async8, notes);
			const used = process.cpuUsage(before);
			times[who].push(seconds);
			cpu[who].user.push(used.user / 1e6);
			cpu[who].system.push(used.system / 1e6);
			if (who !== "router") checkDelivered(dirs[who], count, who);
		}
		for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
	}
	const floor = spread(times.floor);
	const router = spread(times.router);
	const async8 = spread(times.async8);
	return {
		notes: count,
		rounds,
		floor,
		router,
		async8,
		ratio: router.median / floor.median,
		roundRatios: spread(times.router.map((r, i) => r / times.floor[i])),
		asyncRatio: router.median / async8.median,
		cpu: {
			floor: { user: spread(cpu.floor.user).median, system: spread(cpu.floor.system).median },
			router: { user: spread(cpu.router.user).median, system: spread(cpu.router.system).median },
			async8: { user: spread(cpu.async8.user).median, system: spread(cpu.async8.system).median },
		},
	};
}

/** A first small run of each, untimed: the code is compiled and the file system's caches warm. */
async function warmUp(base: string): Promise<void> {
	await measureSize(base, 300, 1);
}

/** Each size with its number of rounds (at least 3). */
export async function runRouteBench(sizes: readonly { notes: number; rounds: number }[]): Promise<RouteSizeResult[]> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), "a2a-bench-route-"));
	try {
		await warmUp(base);
		const results: RouteSizeResult[] = [];
		for (const size of sizes) results.push(await measureSize(base, size.notes, size.rounds));
		return results;
	} finally {
		fs.rmSync(base, { recursive: true, force: true });
	}
}
