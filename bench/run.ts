import * as os from "node:os";
import { installDom } from "./dom-env";
import { a2aRows, runA2aBench } from "./a2a-bench";
import { runRouteBench } from "./route-bench";

// `npm run bench`: the performance table of the README. `npm run bench -- --quick` uses smaller
// sizes for a fast look; the published figures use the full sizes. `-- --a2a-only` runs only the
// `a2a serve` rows.

const quick = process.argv.includes("--quick");

function machine(): string {
	const cpu = os.cpus()[0]?.model ?? "unknown CPU";
	return `${os.cpus().length} x ${cpu.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

const row = (what: string, figure: string, target: string, ok: boolean | null) => console.log(`| ${what} | ${figure} | ${target} | ${ok === null ? "" : ok ? "met" : "NOT MET"} |`);

async function main(): Promise<void> {
	installDom();
	// Imported after the DOM exists: the fake Obsidian and the plugin touch it when they load.
	const { runPluginBench } = await import("./plugin-bench");
	const { runViewBench } = await import("./view-bench").catch(() => ({ runViewBench: undefined }));
	console.log(`A2A Relay benchmarks, ${new Date().toISOString().slice(0, 10)}, on ${machine()}${quick ? " (quick sizes)" : ""}\n`);
	console.log("| measure | figure | target | |");
	console.log("| --- | --- | --- | --- |");
	const cli = process.env.A2A_CLI_BUNDLE;
	if (process.argv.includes("--a2a-only")) {
		// `npm run bench -- --a2a-only`: only the rows of `a2a serve`.
		if (cli) for (const r of a2aRows(await runA2aBench(cli, quick ? 50 : 200, quick ? 1 : 3))) row(...r);
		return;
	}
	const plugin = await runPluginBench({ quick });
	row("plugin start: work done in onload", `${plugin.onloadMs.toFixed(2)} ms`, "< 5 ms", plugin.onloadMs < 5);
	row(`initial index after layout-ready (10,000 ordinary notes, ${plugin.indexedMessages} messages, ${plugin.agents} agents)`, `${plugin.startLargeMs.toFixed(0)} ms`, "", null);
	row("the same start with 1,000 ordinary notes", `${plugin.startSmallMs.toFixed(0)} ms`, "", null);
	row("start cost ratio, 10,000 vs 1,000 ordinary notes", plugin.startRatio.toFixed(2), "< 1.2", plugin.startRatio < 1.2);
	row(`vault event to delivered note, in Obsidian (fake), ${plugin.latencyCount} messages`, `p50 ${plugin.latencyP50.toFixed(1)} ms, p99 ${plugin.latencyP99.toFixed(1)} ms`, "about 16 ms (a tenth of the seed's 160 ms chain)", plugin.latencyP50 <= 16);
	row("memory held per 10,000 indexed messages", `${(plugin.bytesPer10k / 2 ** 20).toFixed(1)} MiB`, "", null);
	if (cli) for (const r of a2aRows(await runA2aBench(cli, quick ? 50 : 200, quick ? 1 : 3))) row(...r);
	else console.log("\n(the A2A benchmark needs the CLI bundle: run it through `npm run bench`)");
	const route = await runRouteBench(quick ? 500 : 5000, quick ? 1 : 3);
	row(`routing throughput, Node adapter (${route.messages} messages, mixed priority, 10 groups; median of alternating rounds)`, `${route.routerPerSecond.toFixed(0)} msg/s (raw fs baseline ${route.baselinePerSecond.toFixed(0)} ops/s)`, "", null);
	row("routing time ratio, router / raw filesystem", route.ratio.toFixed(2), "<= 3", route.ratio <= 3);
	if (route.delivered !== route.messages) console.log(`\n!! only ${route.delivered} of ${route.messages} messages were delivered`);
	if (runViewBench) {
		const view = await runViewBench({ quick });
		row(`view: render ${view.agents} agents`, `${view.fullMs.toFixed(1)} ms`, "", null);
		row("view: one agent's update", `${view.updateMs.toFixed(2)} ms`, "", null);
		row("view: full render / one update", view.ratio.toFixed(0), "", null);
	}
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
