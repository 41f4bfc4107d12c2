import { describeMachine, loadAverage } from "./machine";
import { installDom } from "./dom-env";
import { a2aRows, runA2aBench } from "./a2a-bench";
import { runChromiumBench } from "./chromium-bench";
import { runCliBench } from "./cli-bench";
import { runMcpBench } from "./mcp-bench";
import { runOtelBench } from "./otel-bench";
import { runRemoteBench } from "./remote-bench";
import { runRouteBench } from "./route-bench";
import { runServe200Bench, serve200Rows } from "./serve200-bench";
import { runYearCliBench } from "./year-cli-bench";
import { fmt, fmtDelta, fmtSpread } from "./stats";
import type { Spread } from "./stats";

// `npm run bench`: the figures of issue 13's targets, each with its target and met / NOT MET, and
// the README's performance table. Every figure is the median of alternating runs with the spread
// (min–max) beside it. `npm run bench -- --quick` uses smaller sizes for a fast look (the published
// figures are the full sizes); `--only=route,cli,plugin,view,chromium,mcp,a2a,remote,otel` runs some parts only. scripts/bench.mjs
// bundles this file, the CLI and the SDK reference server, and passes them as `--cli <path>` and `--sdk-server <path>`.

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const only = argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const cliAt = argv.indexOf("--cli");
const cli = cliAt >= 0 ? argv[cliAt + 1] : undefined;
const sdkServerAt = argv.indexOf("--sdk-server");
const sdkServer = sdkServerAt >= 0 ? argv[sdkServerAt + 1] : undefined;
// The year part (issue 29) is opt-in: `--only=year`, with `--year-size=N` archived messages (100,000 by
// default); `--year-plugin-only` leaves out its CLI half, `--year-no-view` its sidebar half, which runs
// alone as `--only=year-view`. `--only=year-sync` carries that vault through two Syncthing instances
// (not part of `--only=year`: it takes minutes).
// `a2a serve` against the SDK's server under 200 clients (issue 29) is opt-in too: `--only=serve200`,
// `--serve200-messages=N` (2,000 unless told), `--serve200-router` to run `a2a route --watch` beside it,
// `--serve200-sequential-ids` to send ids alike in their first letters (`bench-<run>-<n>`) instead of UUIDs.
const yearPart = (part: string) => part === "year" || part.startsWith("year-");
const wanted = (part: string) => (!only ? (!yearPart(part) || argv.includes("--year")) && part !== "serve200" : only.includes(part) || (yearPart(part) && only.includes("year")));
const numberArg = (name: string, otherwise: number) => Number(argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? otherwise);
const yearSize = Number(argv.find((a) => a.startsWith("--year-size="))?.slice("--year-size=".length) ?? 100_000);

const n = (value: number) => value.toLocaleString("en-US");
const verdict = (ok: boolean) => (ok ? "met" : "NOT MET");

/** The table's rows, printed at the end in the order of the targets (a row without a number last). */
const rows: { order: number; line: string }[] = [];
function row(measure: string, figure: string, target = "", ok: boolean | null = null): void {
	const number = /^(\d+)\./.exec(measure);
	rows.push({ order: number ? Number(number[1]) : 99, line: `| ${measure} | ${figure} | ${target} | ${ok === null ? "" : verdict(ok)} |` });
}

/** What runs now, on stderr: a full run takes minutes. */
function progress(what: string): void {
	process.stderr.write(`... ${what}\n`);
}

async function main(): Promise<void> {
	const started = Date.now();
	console.log(`A2A Relay benchmarks, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC${quick ? ", quick sizes (not the published figures)" : ""}`);
	console.log(`Machine: ${describeMachine()}`);
	console.log(`Load average (1, 5, 15 min) at start: ${loadAverage()}`);

	if (wanted("route")) {
		progress("routing: floor, router and async baseline in alternating rounds (target 1)");
		const sizes = quick ? [{ notes: 1000, rounds: 3 }] : [{ notes: 3000, rounds: 5 }, { notes: 10000, rounds: 5 }];
		for (const r of await runRouteBench(sizes)) {
			const at = (s: Spread) => `${fmtSpread(s, " s")}, ${n(Math.round(r.notes / s.median))}/s`;
			row(`1. routing ${n(r.notes)} notes (mixed priority, 10 groups): seconds and notes/s; ${r.rounds} alternating rounds`, `floor ${at(r.floor)}; router ${at(r.router)}; async fs, 8 in flight ${at(r.async8)}`);
			const cpu = (who: "floor" | "router" | "async8") => `${who === "async8" ? "async baseline" : who} user ${fmt(r.cpu[who].user, " s")} + system ${fmt(r.cpu[who].system, " s")}`;
			row(`1. CPU time of the benchmark process in those runs, ${n(r.notes)} notes`, `${cpu("floor")}; ${cpu("router")}; ${cpu("async8")}`);
			row(`1. routing time, router / floor, ${n(r.notes)} notes`, `${fmt(r.ratio)} (rounds ${fmt(r.roundRatios.min)}–${fmt(r.roundRatios.max)}); router / async baseline ${fmt(r.asyncRatio)}`, "< 2", r.ratio < 2);
		}
	}

	if (wanted("otel")) {
		if (!cli) throw new Error("the telemetry part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		progress("a2a route settling conversations: telemetry off, collector down, collector up (issue 30)");
		const o = await runOtelBench({ cli, notes: quick ? 1000 : 3000, rounds: quick ? 3 : 5 });
		row(
			`30. \`a2a route\` settling ${n(o.notes)} answers (two spans each): telemetry off vs OTLP collector down vs up; ${o.rounds} rounds, the three in turn`,
			`off ${fmtSpread(o.off, " ms")}; down ${fmtSpread(o.down, " ms")}; up ${fmtSpread(o.up, " ms")} (${n(o.spansReceived)} posts received); down / off ${fmt(o.downRatio)}, up / off ${fmt(o.upRatio)}`,
			"down / off <= 1.05",
			o.downRatio <= 1.05,
		);
	}

	if (wanted("cli")) {
		if (!cli) throw new Error("the CLI part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		progress("a2a route as a child process: history, --watch idle, oversize notes (targets 2 to 4)");
		const c = await runCliBench({ cli, archived: quick ? 2000 : 20000, dead: quick ? 200 : 2000, rounds: quick ? 3 : 5, idleWindowMs: quick ? 5000 : 10000 });
		const vault = `${n(c.archived)} archived + ${n(c.dead)} dead`;
		row(
			`2. \`a2a route\` with nothing to do, ${vault} vs an empty vault: time; ${c.rounds} alternating runs each`,
			`history ${fmtSpread(c.history.ms, " ms")}; empty ${fmtSpread(c.empty.ms, " ms")}; ratio ${fmt(c.historyRatio)}`,
			"< 1.5x",
			c.historyRatio < 1.5,
		);
		row(
			"2. the same: peak memory (max RSS of the process)",
			`history ${fmtSpread(c.history.maxRssMb, " MB")}; empty ${fmtSpread(c.empty.maxRssMb, " MB")}; ${fmtDelta(c.historyExtraMb, " MB")}`,
			"< +50 MB",
			c.historyExtraMb < 50,
		);
		row(
			`2. \`a2a route\` with one note to route, ${vault} (the CLI's history index copy warm) vs an empty vault`,
			`history ${fmtSpread(c.one.history.ms, " ms")}, max RSS ${fmtSpread(c.one.history.maxRssMb, " MB")}; empty ${fmtSpread(c.one.empty.ms, " ms")}, ${fmtSpread(c.one.empty.maxRssMb, " MB")}; ratio ${fmt(c.one.ratio)}, ${fmtDelta(c.one.extraMb, " MB")}; without the copy (A2A_CACHE_DIR=off) ${fmtSpread(c.one.withoutCopy.ms, " ms")}, ${fmtSpread(c.one.withoutCopy.maxRssMb, " MB")}`,
		);
		row(
			`3. \`a2a route --watch\` idle on the history vault (${c.watch.windowMs / 1000} s, after it settled in ${fmt(c.watch.settleMs / 1000, " s")}): CPU time`,
			`${fmt(c.watch.percentOfCore)} % of one core (peak RSS ${fmt(c.watch.rssMb, " MB")})`,
			"< 1 %",
			c.watch.percentOfCore < 1,
		);
		const o = c.oversize;
		row(
			`4. ${o.notes} notes of ${o.mb} MB in an outbox: the first \`a2a route\` rejects them`,
			`${fmtSpread(o.first.ms, " ms")}, max RSS ${fmtSpread(o.first.maxRssMb, " MB")} (${fmtDelta(o.firstExtraMb, " MB")} over an empty run)`,
			"< +50 MB (the budget of target 2)",
			o.firstExtraMb < 50,
		);
		row(
			"4. the second run (the notes are gone) vs an empty run",
			`${fmtSpread(o.second.ms, " ms")} vs ${fmtSpread(o.empty.ms, " ms")}: ratio ${fmt(o.secondRatio)}; max RSS ${fmtSpread(o.second.maxRssMb, " MB")} vs ${fmtSpread(o.empty.maxRssMb, " MB")}`,
			"< 1.5x, < +50 MB",
			o.secondRatio < 1.5 && o.secondExtraMb < 50,
		);
	}

	if (wanted("plugin") || wanted("view")) installDom();
	if (wanted("plugin")) {
		// Imported after the DOM exists: the fake Obsidian and the plugin touch it when they load.
		const { runPluginBench } = await import("./plugin-bench");
		progress("the plugin in the fake Obsidian (targets 3 and 5)");
		const p = await runPluginBench({ quick });
		row(
			`3. plugin idle (fake Obsidian): timers armed once quiet, ${n(p.archived)} archived`,
			`${p.idleTimers} timer${p.idleTimers === 1 ? "" : "s"}, ${p.idleIntervals} interval${p.idleIntervals === 1 ? "" : "s"} (the sidebar open: ${p.sidebarIntervals}, its clock for "3 min ago")`,
			"1 timer (the next lease renewal or due time), no interval with the sidebar closed",
			p.idleTimers <= 1 && p.idleIntervals === 0,
		);
		row(
			`5. plugin: initial index after layout-ready with ${n(p.archived)} archived (${n(p.indexed)} indexed): longest block of the event loop`,
			`${fmtSpread(p.longestBlockMs, " ms")}, in ${fmtSpread(p.historyIndexMs, " ms")} of indexing; ${p.blocksOverLimit} stretch${p.blocksOverLimit === 1 ? "" : "es"} over ${p.blockLimitMs} ms in ${p.runs} start${p.runs === 1 ? "" : "s"}`,
			`no stretch over ${p.blockLimitMs} ms`,
			p.blocksOverLimit === 0,
		);
		row(
			`5. plugin: vault event to delivered note (rename into the inbox), ${n(p.archived)} archived indexed, ${n(p.latencyCount)} notes`,
			`p50 ${fmt(p.latencyP50, " ms")}, p99 ${fmt(p.latencyP99, " ms")}, max ${fmt(p.latencyMax, " ms")}`,
			"p99 < 16 ms",
			p.latencyP99 < 16,
		);
		row("plugin start: work done in onload", fmtSpread(p.onloadMs, " ms"), "< 5 ms", p.onloadMs.median < 5);
		row(
			"plugin start after layout-ready (2,000 messages): 10,000 vs 1,000 ordinary notes",
			`${fmtSpread(p.startLargeMs, " ms")} vs ${fmtSpread(p.startSmallMs, " ms")}: ratio ${fmt(p.startRatio)}`,
			"< 1.2",
			p.startRatio < 1.2,
		);
		row("memory held per 10,000 indexed messages", fmt(p.bytesPer10k / 2 ** 20, " MiB"));
	}

	if (wanted("year")) {
		if (!cli) throw new Error("the year part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		if (!wanted("plugin")) installDom();
		const { runYearPluginBench } = await import("./year-plugin-bench");
		const at = `${n(yearSize)} archived in month folders`;
		progress(`a year of history (${at}): the plugin's first delivery, blocks and latency against an empty vault (issue 29)`);
		const p = await runYearPluginBench({ archived: yearSize, rounds: quick ? 1 : 3, latencyCount: quick ? 50 : 200 });
		row(
			`7. plugin: first delivery after layout-ready (a note waiting at start), ${at} (the plugin's history copy from an earlier start) vs an empty vault; ${p.rounds} alternating starts`,
			`history ${fmtSpread(p.first.history, " ms")}; empty ${fmtSpread(p.first.empty, " ms")}; ratio ${fmt(p.first.ratio)}`,
			"< 1 s and < 3x",
			p.first.history.median < 1000 && p.first.ratio < 3,
		);
		row(`7. plugin: longest block of the event loop in those starts, ${at}`, `history ${fmtSpread(p.block.history, " ms")}; empty ${fmtSpread(p.block.empty, " ms")}`, "< 50 ms", p.block.history.max < 50);
		row(
			`7. plugin: vault event to delivered note, ${at} indexed, ${p.latency.count} notes, vs an empty vault`,
			`p99 ${fmt(p.latency.historyP99, " ms")} vs ${fmt(p.latency.emptyP99, " ms")}; ratio ${fmt(p.latency.ratio)}`,
			"within 1.2x",
			p.latency.ratio <= 1.2,
		);
		row("7. plugin: memory the message index holds per 10,000 messages: entries read from notes; history entries taken from the copy at start (keys indexed, the rest deferred)", `${fmt(p.indexPer10kMb, " MiB")}; ${fmt(p.deferredPer10kMb, " MiB")}`, "report it");
	}

	if (wanted("year-view") && !argv.includes("--year-no-view")) {
		if (typeof document === "undefined") installDom();
		const { runViewBench } = await import("./view-bench");
		const { yearHistory } = await import("./year-vault");
		progress(`a year of history (${n(yearSize)} archived in month folders): the agent status view against no history (issue 29)`);
		const v = await runViewBench({ agents: quick ? 200 : 1000, archived: yearSize, updates: quick ? 20 : 50, rounds: quick ? 2 : 4, opens: 5, history: yearHistory });
		const setup = `${n(v.agents)} agents, ${n(v.archived)} archived in month folders (happy-dom); ${v.rounds} alternating rounds`;
		row(
			`7. the sidebar opened: every row and the message flow, ${setup}`,
			`history ${fmtSpread(v.history.openMs, " ms")}; without ${fmtSpread(v.none.openMs, " ms")}; ratio ${fmt(v.openRatio)} (rounds ${fmt(v.roundRatios.open.min)}–${fmt(v.roundRatios.open.max)}). The message flow alone: ${fmtSpread(v.history.flowMs, " ms")} vs ${fmtSpread(v.none.flowMs, " ms")}`,
			"within 1.2x",
			v.openRatio <= 1.2,
		);
		row(
			`7. the sidebar filtered: one change of the filter box, ${setup}`,
			`history ${fmtSpread(v.history.filterMs, " ms")}; without ${fmtSpread(v.none.filterMs, " ms")}; ratio ${fmt(v.filterRatio)} (rounds ${fmt(v.roundRatios.filter.min)}–${fmt(v.roundRatios.filter.max)})`,
			"within 1.2x",
			v.filterRatio <= 1.2,
		);
		row(`7. the sidebar: one agent's update, ${setup}`, `history ${fmtSpread(v.history.updateMs, " ms")}; without ${fmtSpread(v.none.updateMs, " ms")}; other rows touched: ${v.otherRowsTouched}`);
		row(`7. the sidebar bench's JavaScript heap after a full collection, before the openings (what every collection during them walks), ${setup}`, `history ${fmtSpread(v.history.heapMb, " MiB")}; without ${fmtSpread(v.none.heapMb, " MiB")}`);
		progress(`the same in headless Chromium, the browser test's cost pages with ${n(yearSize)} archived (flat archives; each run the page without history first)`);
		const c = runChromiumBench(quick ? 1 : 3, yearSize);
		if ("error" in c) row("7. the sidebar in Chromium", `not measured: ${c.error}`);
		else {
			const inChromium = `1,000 agents, ${n(c.history.indexed)} archived (Chromium, ${c.runs} run(s), each without the history first)`;
			row(`7. the sidebar's full render (every row) in Chromium, ${inChromium}`, `history ${fmtSpread(c.history.fullMs, " ms")}; without ${fmtSpread(c.bare.fullMs, " ms")}; ratio ${fmt(c.history.fullMs.median / c.bare.fullMs.median)}`, "within 1.2x", c.history.fullMs.median / c.bare.fullMs.median <= 1.2);
			row(`7. the sidebar filtered in Chromium, ${inChromium}`, `history ${fmtSpread(c.history.filterMs, " ms")}; without ${fmtSpread(c.bare.filterMs, " ms")}; ratio ${fmt(c.history.filterMs.median / c.bare.filterMs.median)}`, "within 1.2x", c.history.filterMs.median / c.bare.filterMs.median <= 1.2);
		}
	}

	if (wanted("year") && !argv.includes("--year-plugin-only")) {
		if (!cli) throw new Error("the year part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		const at = `${n(yearSize)} archived in month folders`;
		progress(`a year of history (${at}): a2a route with one note, and --watch idle (issue 29)`);
		const c = await runYearCliBench({ cli, archived: yearSize, rounds: quick ? 3 : 5, idleWindowMs: quick ? 5000 : 10000 });
		row(
			`7. \`a2a route\` with one note to route, ${at} (the CLI's copy warm) vs an empty vault; ${c.rounds} alternating runs`,
			`history ${fmtSpread(c.history.ms, " ms")}; empty ${fmtSpread(c.empty.ms, " ms")}; ratio ${fmt(c.ratio)}`,
			"within 1.5x",
			c.ratio <= 1.5,
		);
		row(`7. the same: memory added (max RSS)`, `history ${fmtSpread(c.history.rssMb, " MB")}; empty ${fmtSpread(c.empty.rssMb, " MB")}; ${fmtDelta(c.extraMb, " MB")}`, "< 60 MB", c.extraMb < 60);
		row(`7. \`a2a route --watch\` idle, ${at} (${c.watch.windowMs / 1000} s after it settled in ${fmt(c.watch.settleMs / 1000, " s")})`, `${fmt(c.watch.percentOfCore)} % of one core (peak RSS ${fmt(c.watch.rssMb, " MB")})`, "< 1 %", c.watch.percentOfCore < 1);
	}

	// Syncthing carrying a year (issue 29): only when asked by name (`--only=year-sync`), it takes minutes.
	if (only?.includes("year-sync")) {
		const { runYearSyncBench } = await import("./year-sync-bench");
		const at = `${n(yearSize)} archived in month folders`;
		progress(`a year of history (${at}) through two Syncthing instances: a new device, a new note, a rescan (issue 29)`);
		const s = await runYearSyncBench({ archived: yearSize, notes: quick ? 4 : 10, rescans: quick ? 1 : 3, idleWindowMs: quick ? 5000 : 10000 });
		const pair = "two Syncthing 1.19 instances on loopback, file watcher delay 1 s";
		row(`7. Syncthing: a new device's first sync of the vault, ${n(s.files)} files (${at}), ${pair}: from the start of both to both idle`, `${fmt(s.firstSync.ms / 1000, " s")} (${fmt(s.firstSync.filesPerSecond)} files/s); an empty vault ${fmt(s.emptyFirstSyncMs / 1000, " s")}; peak RSS sender ${fmt(s.firstSync.peakRssMb.sender, " MB")}, receiver ${fmt(s.firstSync.peakRssMb.receiver, " MB")}`);
		row(`7. Syncthing: a new note written into an outbox on one device until the other has it, ${at} vs an empty vault; ${s.note.count} notes each, in turn`, `history ${fmtSpread(s.note.history, " ms")}; empty ${fmtSpread(s.note.empty, " ms")}; ratio ${fmt(s.note.ratio)}`);
		row(`7. Syncthing: a full rescan with nothing changed (its hourly safety net), ${at} vs an empty vault`, `history ${fmtSpread(s.rescan.history, " ms")}, CPU ${fmt(s.rescan.cpuMsHistory, " ms")}; empty ${fmtSpread(s.rescan.empty, " ms")}, CPU ${fmt(s.rescan.cpuMsEmpty, " ms")}`);
		row(`7. Syncthing idle, both instances (${s.idle.windowMs / 1000} s), ${at} vs an empty vault; their memory (peak RSS, the larger of the two)`, `${fmt(s.idle.percentOfCoreHistory)} % vs ${fmt(s.idle.percentOfCoreEmpty)} % of one core; ${fmt(s.peakRssMbAfter.history, " MB")} vs ${fmt(s.peakRssMbAfter.empty, " MB")}`);
	}

	if (wanted("view")) {
		const { runViewBench } = await import("./view-bench");
		progress("the agent status view in happy-dom (target 6)");
		const v = await runViewBench({ quick });
		const setup = `${n(v.agents)} agents, ${n(v.archived)} archived (happy-dom)`;
		row(
			`6. view opening: every row and the message flow, ${setup}`,
			`${fmtSpread(v.history.openMs, " ms")}; without the history ${fmtSpread(v.none.openMs, " ms")}; ratio ${fmt(v.openRatio)}. The message flow alone: ${fmtSpread(v.history.flowMs, " ms")} vs ${fmtSpread(v.none.flowMs, " ms")}`,
			"history adds < 20 %",
			v.openRatio < 1.2,
		);
		row(
			`6. view filtering: one change of the filter box, ${setup}`,
			`${fmtSpread(v.history.filterMs, " ms")}; without the history ${fmtSpread(v.none.filterMs, " ms")}; ratio ${fmt(v.filterRatio)}`,
			"history adds < 20 %",
			v.filterRatio < 1.2,
		);
		row(
			`6. view: one agent's update, ${setup}`,
			`${fmtSpread(v.history.updateMs, " ms")}; other rows touched: ${v.otherRowsTouched}`,
			"< 1 ms, no other row touched",
			v.history.updateMs.median < 1 && v.otherRowsTouched === 0,
		);
	}

	if (wanted("view") || wanted("chromium")) {
		progress("the agent status view in headless Chromium (target 6), the browser test's cost pages");
		const c = runChromiumBench(quick ? 1 : 3);
		if ("error" in c) row("6. the view in Chromium", `not measured: ${c.error}`);
		else {
			const setup = `1,000 agents, ${n(c.history.indexed)} archived (Chromium, ${c.runs} run(s))`;
			row(
				`6. view full render in Chromium, ${setup}`,
				`${fmtSpread(c.history.fullMs, " ms")}; without the history ${fmtSpread(c.bare.fullMs, " ms")}`,
				"around 100 ms (<= 150 ms)",
				c.history.fullMs.median <= 150,
			);
			row(`6. view filtering in Chromium, ${setup}`, `${fmtSpread(c.history.filterMs, " ms")}; without the history ${fmtSpread(c.bare.filterMs, " ms")}`);
			row(
				`6. view: one agent's update in Chromium, ${setup}`,
				`${fmtSpread(c.history.updateMs, " ms")}; without the history ${fmtSpread(c.bare.updateMs, " ms")}; other rows replaced: ${c.otherRowsReplaced}`,
				"< 1 ms, no other row replaced",
				c.history.updateMs.median < 1 && c.otherRowsReplaced === 0,
			);
		}
	}

	if (wanted("a2a")) {
		if (!cli) throw new Error("the A2A part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		progress("a2a serve: concurrent SendMessage calls from the official A2A client, answered by a scripted agent (issue 15)");
		for (const r of a2aRows(await runA2aBench(cli, quick ? 50 : 200, quick ? 1 : 3))) row(...r);
	}

	if (wanted("serve200")) {
		if (!cli || !sdkServer) throw new Error("the serve200 part needs --cli and --sdk-server (npm run bench passes them)");
		const router = argv.includes("--serve200-router");
		progress(`a2a serve against the SDK's own server, 200 concurrent SDK clients${router ? ", a2a route --watch beside it" : ""} (issue 29)`);
		const load = loadAverage();
		const sequentialIds = argv.includes("--serve200-sequential-ids");
		const r = await runServe200Bench({ cli, sdkServer, clients: 200, messages: numberArg("serve200-messages", quick ? 400 : 2000), rounds: numberArg("serve200-rounds", quick ? 1 : 3), router, sequentialIds });
		for (const line of serve200Rows(r, load)) row(...line);
	}

	if (wanted("remote")) {
		if (!cli) throw new Error("the remote part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		progress("remote groups: a2a route --watch forwarding to an SDK echo agent, against a local scripted echo agent (issue 16)");
		const r = await runRemoteBench(cli, quick ? 20 : 100);
		const load = loadAverage().split(",")[0];
		row(`remote group: request note to response note, forwarded to an @a2a-js/sdk echo agent on 127.0.0.1 (${r.requests} requests one at a time, load ${load})`, `p50 ${fmt(r.remote.p50, " ms")}, p99 ${fmt(r.remote.p99, " ms")}`);
		row(`the same answered by a local scripted echo agent (alternating with the remote ones)`, `p50 ${fmt(r.local.p50, " ms")}, p99 ${fmt(r.local.p99, " ms")}`);
		row("remote group: overhead over the remote agent's own time (forwarded latency minus its task time)", `p50 ${fmt(r.overhead.p50, " ms")}, p99 ${fmt(r.overhead.p99, " ms")} (the agent's own time p50 ${fmt(r.remoteOwnP50, " ms")})`);
		row("remote group: SendMessage calls per request", fmt(r.sendsPerRequest), "1", r.sendsPerRequest === 1);
	}

	if (wanted("mcp")) {
		if (!cli) throw new Error("the MCP part needs --cli <path of the built dist/cli.cjs> (npm run bench passes it)");
		progress("MCP: four agent processes and one router, wait_for_response after delivery (issue 11)");
		const pairs = quick ? 100 : 500;
		const mcp = await runMcpBench(cli, pairs, quick ? 1 : 3);
		const each = mcp.rounds.map((r) => `p50 ${r.p50} / p99 ${r.p99} / max ${r.max} ms over ${r.waits} waits`).join("; ");
		row(`MCP: wait_for_response returns after the response's delivery (4 agent processes, 1 router, ${n(pairs)} pairs; median of ${mcp.rounds.length} round(s): ${each})`, `p50 ${mcp.medianP50} ms, p99 ${mcp.medianP99} ms`, "<= 250 ms (p99)", mcp.medianP99 <= 250);
		const lost = mcp.rounds.reduce((sum, r) => sum + r.lost, 0);
		const twice = mcp.rounds.reduce((sum, r) => sum + r.twice, 0);
		row("MCP: pairs lost / answered or taken twice, all rounds", `${lost} / ${twice}`, "0 / 0", lost === 0 && twice === 0);
		row("MCP: pairs per second (send, deliver, list, reply, deliver, wait, take)", mcp.rounds.map((r) => (r.pairs / r.seconds).toFixed(1)).join(" / "));
	}

	printRows(started);
}

function printRows(started: number): void {
	console.log("");
	console.log("| measure | figure: median (min–max) | target | |");
	console.log("| --- | --- | --- | --- |");
	for (const r of rows.sort((a, b) => a.order - b.order)) console.log(r.line);
	console.log(`\nLoad average (1, 5, 15 min) at end: ${loadAverage()}; the run took ${fmt((Date.now() - started) / 1000, " s")}.`);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
