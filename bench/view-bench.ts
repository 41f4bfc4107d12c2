import { AGENTS_CHANGED } from "../src/obsidian/agent-store";
import type A2ARelayPlugin from "../main";
import { benchVault } from "../test-support/fixture-vault";
import { installDom } from "./dom-env";

// The agent status view with 1,000 agents: the cost of rendering them all, and the cost of one
// agent's update (the row updated in place, the counts refreshed), and their ratio. The real plugin
// runs on the fake Obsidian over an in-memory disk, in happy-dom (a DOM far slower than a browser's:
// the ratio is the figure that carries over; the browser test prints Chromium's figures). Run it on
// its own with
//
//   npx esbuild bench/view-bench.ts --bundle --platform=node --format=cjs \
//     --alias:obsidian=./test-support/fake-obsidian/index.ts --external:happy-dom \
//     --outfile=bench-results/view-bench.cjs && node bench-results/view-bench.cjs [--quick]
//
// or through `npm run bench` (bench/run.ts calls runViewBench).

export interface ViewBenchOptions {
	/** Smaller sizes for a fast look. */
	quick?: boolean;
	agents?: number;
	updates?: number;
}

export interface ViewBenchResult {
	agents: number;
	/** Milliseconds to render every agent row (the view opening); best of a few runs. */
	fullMs: number;
	/** Median milliseconds to render one agent's change. */
	updateMs: number;
	/** fullMs / updateMs: how much cheaper an update is than a full render. */
	ratio: number;
	/** Rows whose DOM nodes were replaced or changed by the updates of other agents (must be 0). */
	otherRowsTouched: number;
}

type Batch = { all: boolean; paths: Set<string>; relay: boolean };
interface RenderableView {
	contentEl: HTMLElement;
	render(batch: Batch): void;
}

function median(values: number[]): number {
	const sorted = values.slice().sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

export async function runViewBench(options: ViewBenchOptions = {}): Promise<ViewBenchResult> {
	const agents = options.agents ?? (options.quick ? 200 : 1000);
	const updates = options.updates ?? (options.quick ? 50 : 200);
	if (typeof document === "undefined") installDom();
	const { FakeHost } = await import("../test-support/fake-obsidian/host");
	const { MemoryDisk } = await import("../test-support/fake-obsidian/memory-disk");
	const { default: Plugin } = (await import("../main")) as { default: typeof A2ARelayPlugin };
	const { AgentStatusView, VIEW_TYPE_AGENT_STATUS } = await import("../src/ui/agent-status-view");
	const manifest = { id: "a2a-relay", name: "A2A Relay", version: "0.0.0", minAppVersion: "1.7.2", description: "Bench.", author: "bench" };

	const host = new FakeHost({ disk: new MemoryDisk("bench", benchVault(agents, Date.now())), logErrors: true });
	const plugin = await host.loadPlugin(Plugin, manifest);
	await host.loadVault();
	await host.setLayoutReady();
	await plugin.parts.relay.whenIdle();
	host.executeCommand("a2a-relay:open-agent-status");
	await host.settled();
	const leaf = host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0];
	if (!leaf || !(leaf.view instanceof AgentStatusView)) throw new Error("the view did not open");
	// The view's own render step (private: it is what the batcher calls once per frame).
	const view = leaf.view as unknown as RenderableView;
	const rows = () => view.contentEl.querySelectorAll(".a2a-agent-row");
	if (rows().length !== agents) throw new Error(`${rows().length} rows for ${agents} agents`);

	// Full render: every row built from scratch, as when the view opens. Best of a few runs.
	const full: number[] = [];
	for (let run = 0; run < 5; run++) {
		const t0 = performance.now();
		view.render({ all: true, paths: new Set(), relay: false });
		full.push(performance.now() - t0);
	}

	// One agent's update: its note changes in the store (through the metadata cache), and the
	// view renders that path alone. The note is changed outside the timing; only the render is timed.
	// The view is hidden meanwhile, so its own batcher leaves the change to the timed render.
	host.setLeafVisible(leaf, false);
	await host.settled();
	const store = plugin.parts.agents;
	const paths = store.all().map((a) => a.path);
	const before = Array.from(rows());
	const one: number[] = [];
	const touched = new Set<string>();
	for (let u = 0; u < updates; u++) {
		const path = paths[(u * 37) % paths.length];
		const file = host.file(path);
		let emitted = false;
		const ref = store.events.on(AGENTS_CHANGED, () => (emitted = true));
		await host.fakeApp.fileManager.processFrontMatter(file as never, (fm: Record<string, unknown>) => {
			fm.progress_percent = (Number(fm.progress_percent) + 7) % 101;
			fm.last_action = `Update ${u}`;
		});
		await host.settled();
		store.events.offref(ref);
		if (!emitted) throw new Error(`no change event for ${path}`);
		const t0 = performance.now();
		view.render({ all: false, paths: new Set([path]), relay: false });
		one.push(performance.now() - t0);
		touched.add(path);
	}
	// Rows of agents that were not updated must be the very same nodes.
	const after = Array.from(rows());
	let otherRowsTouched = 0;
	for (const row of before) {
		const path = row.getAttribute("data-path") ?? "";
		if (!touched.has(path) && !after.includes(row)) otherRowsTouched++;
	}

	await host.dispose();
	const fullMs = Math.min(...full);
	const updateMs = median(one);
	return { agents, fullMs, updateMs, ratio: fullMs / updateMs, otherRowsTouched };
}

export function formatViewBench(r: ViewBenchResult): string {
	return [
		`| view: render ${r.agents} agents (happy-dom) | ${r.fullMs.toFixed(1)} ms |`,
		`| view: one agent's update (median) | ${r.updateMs.toFixed(3)} ms |`,
		`| view: full render / one update | ratio ${r.ratio.toFixed(0)} | other rows touched: ${r.otherRowsTouched} |`,
	].join("\n");
}

// Run directly (bundled as its own entry, bench-results/view-bench.cjs): print the figures.
if (/view-bench\.c?js$/.test(process.argv[1] ?? "")) {
	runViewBench({ quick: process.argv.includes("--quick") }).then(
		(result) => {
			console.log(formatViewBench(result));
			process.exit(result.otherRowsTouched === 0 ? 0 : 1);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
