import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { spread } from "./stats";
import type { Spread } from "./stats";
import type { ViewCostFigures } from "../test-support/view-cost";

// Target 6 in a real browser: the browser test's cost pages (`--cost-only`: the production main.js in
// headless Chromium with 1,000 agents, without and with 20,000 archived messages, or `archived`), run several
// times; each figure is the median over the runs. Needs the Chromium the browser test finds.

export interface ChromiumFigures {
	runs: number;
	bare: { fullMs: Spread; filterMs: Spread; updateMs: Spread };
	history: { fullMs: Spread; filterMs: Spread; updateMs: Spread; indexed: number };
	otherRowsReplaced: number;
}

function summary(pages: ViewCostFigures[]) {
	return { fullMs: spread(pages.map((p) => p.fullMs)), filterMs: spread(pages.map((p) => p.filterMs)), updateMs: spread(pages.map((p) => p.updateMs)) };
}

/** The figures, or why they could not be had (no Chromium, a failed page). */
export function runChromiumBench(runs: number, archived?: number): ChromiumFigures | { error: string } {
	const script = path.join(process.cwd(), "test", "browser", "run-browser-test.mjs");
	const bare: ViewCostFigures[] = [];
	const history: ViewCostFigures[] = [];
	for (let run = 0; run < runs; run++) {
		const result = spawnSync(process.execPath, [script, "--cost-only", ...(archived === undefined ? [] : [`--cost-history=${archived}`])], { encoding: "utf8", timeout: 300_000 });
		const line = result.stdout.split("\n").find((l) => l.startsWith("COST "));
		const figures = line ? (JSON.parse(line.slice("COST ".length)) as { bare?: ViewCostFigures; history?: ViewCostFigures }) : {};
		if (result.status !== 0 || !figures.bare || !figures.history) return { error: `${script} --cost-only failed (status ${result.status}): ${(result.stdout + result.stderr).trim().split("\n").slice(-4).join(" / ")}` };
		bare.push(figures.bare);
		history.push(figures.history);
	}
	return {
		runs,
		bare: summary(bare),
		history: { ...summary(history), indexed: Math.min(...history.map((h) => h.indexed)) },
		otherRowsReplaced: [...bare, ...history].reduce((sum, p) => sum + p.otherRowsReplaced, 0),
	};
}
