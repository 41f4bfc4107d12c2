import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { outboxNote, outboxPath } from "../test-support/bench-notes";
import { writeVault } from "./bench-vault";
import { CliRunner } from "./cli-process";
import { alternately, spread } from "./stats";
import type { Spread } from "./stats";
import { yearHistory } from "./year-vault";

// Issue 29, the CLI with a year of history (archives in month folders): one note routed by
// `a2a route` (its history index copy warm) against the same on an empty vault, alternating runs;
// the memory it adds; `a2a route --watch` idle on the year vault.

export interface YearCliResult {
	archived: number;
	rounds: number;
	empty: { ms: Spread; rssMb: Spread };
	history: { ms: Spread; rssMb: Spread };
	ratio: number;
	extraMb: number;
	watch: { percentOfCore: number; windowMs: number; settleMs: number; rssMb: number };
}

export async function runYearCliBench(options: { cli: string; archived: number; rounds: number; idleWindowMs: number }): Promise<YearCliResult> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), "a2a-bench-year-"));
	const stateHome = process.env.XDG_STATE_HOME;
	try {
		// The CLI's history index copies and its device state go to folders of the bench's own, removed with it.
		process.env.A2A_CACHE_DIR = path.join(base, "cache");
		process.env.XDG_STATE_HOME = path.join(base, "state");
		const cli = new CliRunner(options.cli, base);
		const emptyDir = path.join(base, "empty");
		const historyDir = path.join(base, "history");
		writeVault(emptyDir, {});
		writeVault(historyDir, yearHistory(options.archived));
		let next = 0;
		const routeOne = (dir: string) => {
			const note = outboxNote(600_000 + next++);
			fs.writeFileSync(path.join(dir, ...outboxPath(note).split("/")), note.text);
			const run = cli.run(["route", "--vault", dir]);
			if (!/^1 decision/m.test(run.stderr)) throw new Error(`one note to route gave: ${run.stderr.slice(0, 500)}`);
			return run;
		};
		// Untimed: the lease, the log folder, and the history index copy (a first run reads every head).
		routeOne(emptyDir);
		routeOne(historyDir);
		const [empty, history] = alternately(options.rounds, () => routeOne(emptyDir), () => routeOne(historyDir));
		const watch = await cli.idleCpu(["route", "--watch", "--vault", historyDir], options.idleWindowMs);
		const e = { ms: spread(empty.map((r) => r.ms)), rssMb: spread(empty.map((r) => r.maxRssMb)) };
		const h = { ms: spread(history.map((r) => r.ms)), rssMb: spread(history.map((r) => r.maxRssMb)) };
		return { archived: options.archived, rounds: options.rounds, empty: e, history: h, ratio: h.ms.median / e.ms.median, extraMb: h.rssMb.median - e.rssMb.median, watch: { ...watch, windowMs: options.idleWindowMs } };
	} finally {
		delete process.env.A2A_CACHE_DIR;
		if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
		else process.env.XDG_STATE_HOME = stateHome;
		fs.rmSync(base, { recursive: true, force: true });
	}
}
