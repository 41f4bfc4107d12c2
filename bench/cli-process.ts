import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

// Runs the built CLI (dist/cli.cjs, bundled by scripts/bench.mjs) as a child process, the way a
// person or a scheduler runs `a2a route`, and reads what it cost: wall time measured here, and the
// child's own peak memory and CPU time from process.resourceUsage(), which a preloaded script
// (`node -r`) writes to a file as the child exits. The CLI itself is not changed for it.

export interface ChildCost {
	ms: number;
	maxRssMb: number;
	cpuMs: number;
	stdout: string;
	stderr: string;
}

const PRELOAD = `"use strict";
const fs = require("node:fs");
process.on("exit", () => {
	const file = process.env.A2A_BENCH_RESOURCES;
	if (!file) return;
	const u = process.resourceUsage();
	fs.writeFileSync(file, JSON.stringify({ maxRssKb: u.maxRSS, cpuUs: u.userCPUTime + u.systemCPUTime }));
});
`;

export class CliRunner {
	private readonly preload: string;
	private readonly resources: string;

	constructor(
		readonly cli: string,
		private readonly workDir: string,
	) {
		if (!fs.existsSync(cli)) throw new Error(`no CLI bundle at ${cli} (scripts/bench.mjs builds it)`);
		this.preload = path.join(workDir, "report-resources.cjs");
		this.resources = path.join(workDir, "resources.json");
		fs.writeFileSync(this.preload, PRELOAD);
	}

	/** `a2a <args>` to its end; throws when it exits with another status than `expectStatus`. */
	run(args: readonly string[], expectStatus = 0): ChildCost {
		fs.rmSync(this.resources, { force: true });
		const start = process.hrtime.bigint();
		const result = spawnSync(process.execPath, ["-r", this.preload, this.cli, ...args], {
			env: { ...process.env, A2A_BENCH_RESOURCES: this.resources },
			encoding: "utf8",
			maxBuffer: 256 * 2 ** 20,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		if (result.error) throw result.error;
		if (result.status !== expectStatus) throw new Error(`a2a ${args.join(" ")} exited with ${result.status ?? result.signal}: ${result.stderr.slice(0, 2000)}`);
		const used = JSON.parse(fs.readFileSync(this.resources, "utf8")) as { maxRssKb: number; cpuUs: number };
		return { ms, maxRssMb: used.maxRssKb / 1024, cpuMs: used.cpuUs / 1000, stdout: result.stdout, stderr: result.stderr };
	}

	/**
	 * Starts `a2a <args>` (a watching router), waits until it has settled (its CPU time stops
	 * growing), then reads the CPU time it uses over `windowMs`, and stops it (SIGTERM, then SIGKILL
	 * if it does not end). Linux only: the figures come from /proc/<pid>/stat.
	 */
	async idleCpu(args: readonly string[], windowMs: number): Promise<{ percentOfCore: number; settleMs: number; rssMb: number }> {
		const child = spawn(process.execPath, [this.cli, ...args], { stdio: ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => (stderr += chunk));
		const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
		let alive = true;
		void exited.then(() => (alive = false));
		try {
			const pid = child.pid;
			if (pid === undefined) throw new Error("a2a route --watch did not start");
			const tick = clockTicksPerSecond();
			const started = Date.now();
			// Settled: a second in which it used at most one clock tick (10 ms) of CPU, after it said it watches.
			let previous = cpuTicks(pid);
			for (;;) {
				await sleep(1000);
				if (!alive) throw new Error(`a2a route --watch ended early: ${stderr.slice(0, 2000)}`);
				const now = cpuTicks(pid);
				const quiet = now - previous <= 1 && stderr.includes("Watching");
				previous = now;
				if (quiet) break;
				if (Date.now() - started > 60_000) throw new Error("a2a route --watch did not settle within a minute");
			}
			const settleMs = Date.now() - started;
			const t0 = process.hrtime.bigint();
			const c0 = cpuTicks(pid);
			await sleep(windowMs);
			const c1 = cpuTicks(pid);
			const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
			if (!alive) throw new Error(`a2a route --watch ended while idle: ${stderr.slice(0, 2000)}`);
			const rssMb = peakRssMb(pid);
			return { percentOfCore: ((c1 - c0) / tick / wallS) * 100, settleMs, rssMb };
		} finally {
			if (alive) {
				child.kill("SIGTERM");
				const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
				await exited;
				clearTimeout(timer);
			}
		}
	}
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
export function cpuTicks(pid: number): number {
	const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	return Number(fields[11]) + Number(fields[12]);
}

export function peakRssMb(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
	const kb = /^VmHWM:\s+(\d+) kB/m.exec(status);
	return kb ? Number(kb[1]) / 1024 : NaN;
}

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, asked once per process). */
export function clockTicksPerSecond(): number {
	if (ticksPerSecond === undefined) {
		const result = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
		const value = Number(result.stdout?.trim());
		ticksPerSecond = Number.isFinite(value) && value > 0 ? value : 100;
	}
	return ticksPerSecond;
}
