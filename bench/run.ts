import * as os from "node:os";
import { installDom } from "./dom-env";
import { runMcpBench } from "./mcp-bench";
import { runRouteBench } from "./route-bench";

// `npm run bench`: the performance table of the README. `npm run bench -- --quick` uses smaller
// sizes for a fast look; the published figures use the full sizes. `--only NAME` (plugin, route,
// view, mcp) runs one part.

const quick = process.argv.includes("--quick");
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const wanted = (part: string) => only === undefined || only === part;

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
	if (wanted("plugin")) await pluginRows(runPluginBench);
	if (wanted("route")) await routeRows();
	if (wanted("view") && runViewBench) {
		const view = await runViewBench({ quick });
		row(`view: render ${view.agents} agents`, `${view.fullMs.toFixed(1)} ms`, "", null);
		row("view: one agent's update", `${view.updateMs.toFixed(2)} ms`, "", null);
		row("view: full render / one update", view.ratio.toFixed(0), "", null);
	}
	if (wanted("mcp")) await mcpRows();
}

async function pluginRows(runPluginBench: typeof import("./plugin-bench").runPluginBench): Promise<void> {
	const plugin = await runPluginBench({ quick });
	row("plugin start: work done in onload", `${plugin.onloadMs.toFixed(2)} ms`, "< 5 ms", plugin.onloadMs < 5);
	row(`initial index after layout-ready (10,000 ordinary notes, ${plugin.indexedMessages} messages, ${plugin.agents} agents)`, `${plugin.startLargeMs.toFixed(0)} ms`, "", null);
	row("the same start with 1,000 ordinary notes", `${plugin.startSmallMs.toFixed(0)} ms`, "", null);
	row("start cost ratio, 10,000 vs 1,000 ordinary notes", plugin.startRatio.toFixed(2), "< 1.2", plugin.startRatio < 1.2);
	row(`vault event to delivered note, in Obsidian (fake), ${plugin.latencyCount} messages`, `p50 ${plugin.latencyP50.toFixed(1)} ms, p99 ${plugin.latencyP99.toFixed(1)} ms`, "about 16 ms (a tenth of the seed's 160 ms chain)", plugin.latencyP50 <= 16);
	row("memory held per 10,000 indexed messages", `${(plugin.bytesPer10k / 2 ** 20).toFixed(1)} MiB`, "", null);
}

async function routeRows(): Promise<void> {
	const route = await runRouteBench(quick ? 500 : 5000, quick ? 1 : 3);
	row(`routing throughput, Node adapter (${route.messages} messages, mixed priority, 10 groups; median of alternating rounds)`, `${route.routerPerSecond.toFixed(0)} msg/s (raw fs baseline ${route.baselinePerSecond.toFixed(0)} ops/s)`, "", null);
	row("routing time ratio, router / raw filesystem", route.ratio.toFixed(2), "<= 3", route.ratio <= 3);
	if (route.delivered !== route.messages) console.log(`\n!! only ${route.delivered} of ${route.messages} messages were delivered`);
}

/** The MCP load: needs the CLI bundle that scripts/bench.mjs builds (its path in A2A_CLI_BUNDLE). */
async function mcpRows(): Promise<void> {
	const bundle = process.env.A2A_CLI_BUNDLE;
	if (!bundle) {
		console.log("| MCP load | skipped: run it through `npm run bench` (it builds the CLI bundle) | | |");
		return;
	}
	const pairs = quick ? 100 : 500;
	const rounds = quick ? 1 : 3;
	const mcp = await runMcpBench(bundle, pairs, rounds);
	const each = mcp.rounds.map((r) => `p50 ${r.p50} / p99 ${r.p99} / max ${r.max} ms over ${r.waits} waits`).join("; ");
	row(`MCP: wait_for_response returns after the response's delivery (4 agent processes, 1 router, ${pairs} pairs; median of ${rounds} round(s): ${each})`, `p50 ${mcp.medianP50} ms, p99 ${mcp.medianP99} ms`, "<= 250 ms (p99)", mcp.medianP99 <= 250);
	const lost = mcp.rounds.reduce((n, r) => n + r.lost, 0);
	const twice = mcp.rounds.reduce((n, r) => n + r.twice, 0);
	row("MCP: pairs lost / answered or taken twice, all rounds", `${lost} / ${twice}`, "0 / 0", lost === 0 && twice === 0);
	row("MCP: pairs per second (send, deliver, list, reply, deliver, wait, take)", mcp.rounds.map((r) => (r.pairs / r.seconds).toFixed(1)).join(" / "), "", null);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
