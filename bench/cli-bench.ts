import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { historyFiles, outboxNote, outboxPath } from "../test-support/bench-notes";
import { writeVault } from "./bench-vault";
import { CliRunner } from "./cli-process";
import type { ChildCost } from "./cli-process";
import { alternately, spread } from "./stats";
import type { Spread } from "./stats";

// Targets 2 to 4, on the built CLI run as a child process:
// 2. history is free: `a2a route` with nothing to do on a vault with a long history against the
//    same on an empty vault (alternating runs): time ratio and extra peak memory;
// 3. idle is idle: `a2a route --watch` on that history vault, once settled, as % of one core;
// 4. size before parse: three 5 MB notes in an outbox; the first run rejects them, the second
//    (they are gone) against an empty run.

export interface CliBenchOptions {
	cli: string;
	archived: number;
	dead: number;
	rounds: number;
	idleWindowMs: number;
}

export interface RunCost {
	ms: Spread;
	maxRssMb: Spread;
}

export interface CliBenchResult {
	archived: number;
	dead: number;
	rounds: number;
	empty: RunCost;
	history: RunCost;
	historyRatio: number;
	historyExtraMb: number;
	/** One note routed (the history index copy warm): on the history vault and on the empty one. */
	one: { empty: RunCost; history: RunCost; ratio: number; extraMb: number; withoutCopy: RunCost };
	watch: { percentOfCore: number; windowMs: number; settleMs: number; rssMb: number };
	oversize: { notes: number; mb: number; empty: RunCost; first: RunCost; second: RunCost; secondRatio: number; firstExtraMb: number; secondExtraMb: number };
}

const costOf = (runs: readonly ChildCost[]): RunCost => ({ ms: spread(runs.map((r) => r.ms)), maxRssMb: spread(runs.map((r) => r.maxRssMb)) });

const OVERSIZE_NOTES = 3;
const OVERSIZE_BYTES = 5 * 2 ** 20;

/** A valid request whose body makes it `bytes` long. */
function oversizeNote(i: number, bytes: number): { path: string; text: string } {
	const note = outboxNote(900_000 + i);
	const filler = "A line of a very long report that nobody should have put in one message.\n";
	return { path: outboxPath(note), text: note.text + filler.repeat(Math.ceil((bytes - note.text.length) / filler.length)) };
}

export async function runCliBench(options: CliBenchOptions): Promise<CliBenchResult> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), "a2a-bench-cli-"));
	const stateHome = process.env.XDG_STATE_HOME;
	try {
		// The CLI's history index copies and its device state go to folders of the bench's own, removed with it.
		process.env.A2A_CACHE_DIR = path.join(base, "cache");
		process.env.XDG_STATE_HOME = path.join(base, "state");
		const cli = new CliRunner(options.cli, base);
		const route = (dir: string) => cli.run(["route", "--vault", dir]);
		const emptyDir = path.join(base, "empty");
		const historyDir = path.join(base, "history");
		writeVault(emptyDir, {});
		writeVault(historyDir, historyFiles(options.archived, options.dead));
		// First runs, untimed: they write the lease note and the log folder once, as any first run does.
		route(emptyDir);
		route(historyDir);

		// 2. History is free.
		const [empty, history] = alternately(options.rounds, () => route(emptyDir), () => route(historyDir));
		for (const run of history) if (!/^0 decision/m.test(run.stderr)) throw new Error(`the history vault had work to do: ${run.stderr.slice(0, 500)}`);

		// 2, for routing too: one note to route on the history vault against the same on the empty vault,
		// the CLI's history index copy warm (a first, untimed run made it).
		let next = 0;
		const routeOne = (dir: string) => {
			const note = outboxNote(700_000 + next++);
			fs.writeFileSync(path.join(dir, ...outboxPath(note).split("/")), note.text);
			const run = route(dir);
			if (!/^1 decision/m.test(run.stderr)) throw new Error(`one note to route gave: ${run.stderr.slice(0, 500)}`);
			return run;
		};
		routeOne(historyDir);
		const [oneEmpty, oneHistory] = alternately(options.rounds, () => routeOne(emptyDir), () => routeOne(historyDir));
		// The same without the copy: every run reads the head of every history note.
		process.env.A2A_CACHE_DIR = "off";
		const oneCold: ChildCost[] = [];
		for (let round = 0; round < Math.min(3, options.rounds); round++) oneCold.push(routeOne(historyDir));
		process.env.A2A_CACHE_DIR = path.join(base, "cache");

		// 3. Idle is idle.
		const watch = await cli.idleCpu(["route", "--watch", "--vault", historyDir], options.idleWindowMs);

		// 4. Size before parse.
		const overEmpty: ChildCost[] = [];
		const first: ChildCost[] = [];
		const second: ChildCost[] = [];
		for (let round = 0; round < options.rounds; round++) {
			const dir = path.join(base, `oversize-${round}`);
			writeVault(dir, Object.fromEntries(Array.from({ length: OVERSIZE_NOTES }, (_, i) => oversizeNote(i, OVERSIZE_BYTES)).map((n) => [n.path, n.text])));
			const emptyFirst = round % 2 === 0;
			if (emptyFirst) overEmpty.push(route(emptyDir));
			first.push(route(dir));
			// Each oversize note is kept as it came (`<name>.md.oversize`) beside a small stamped `<name>.dead.md`.
			const dead = fs.readdirSync(path.join(dir, "A2A", "dead-letter")).filter((n) => n.endsWith(".oversize")).length;
			if (dead !== OVERSIZE_NOTES) throw new Error(`the first run left ${dead} of ${OVERSIZE_NOTES} oversize notes in the dead-letter folder`);
			second.push(route(dir));
			if (!/^0 decision/m.test(second[second.length - 1].stderr)) throw new Error(`the second run still had work: ${second[second.length - 1].stderr.slice(0, 500)}`);
			if (!emptyFirst) overEmpty.push(route(emptyDir));
			fs.rmSync(dir, { recursive: true, force: true });
		}

		const emptyCost = costOf(empty);
		const historyCost = costOf(history);
		const o = { empty: costOf(overEmpty), first: costOf(first), second: costOf(second) };
		return {
			archived: options.archived,
			dead: options.dead,
			rounds: options.rounds,
			empty: emptyCost,
			history: historyCost,
			historyRatio: historyCost.ms.median / emptyCost.ms.median,
			historyExtraMb: historyCost.maxRssMb.median - emptyCost.maxRssMb.median,
			one: {
				empty: costOf(oneEmpty),
				history: costOf(oneHistory),
				ratio: costOf(oneHistory).ms.median / costOf(oneEmpty).ms.median,
				extraMb: costOf(oneHistory).maxRssMb.median - costOf(oneEmpty).maxRssMb.median,
				withoutCopy: costOf(oneCold),
			},
			watch: { ...watch, windowMs: options.idleWindowMs },
			oversize: {
				notes: OVERSIZE_NOTES,
				mb: OVERSIZE_BYTES / 2 ** 20,
				...o,
				secondRatio: o.second.ms.median / o.empty.ms.median,
				firstExtraMb: o.first.maxRssMb.median - o.empty.maxRssMb.median,
				secondExtraMb: o.second.maxRssMb.median - o.empty.maxRssMb.median,
			},
		};
	} finally {
		delete process.env.A2A_CACHE_DIR;
		if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
		else process.env.XDG_STATE_HOME = stateHome;
		fs.rmSync(base, { recursive: true, force: true });
	}
}
