import { AGENTS_CHANGED } from "../src/obsidian/agent-store";
import type A2ARelayPlugin from "../main";
import { benchVault } from "../test-support/fixture-vault";
import { historyFiles, registryText } from "../test-support/bench-notes";
import { installDom } from "./dom-env";
import { collectGarbage, spread } from "./stats";
import type { Spread } from "./stats";

// Target 6, the agent status view at scale: 1,000 agents, and a message history of 20,000 archived
// notes in the index that the view's message flow reads. Measured: the view opening (every agent row
// and the message flow rendered), a filter typed into its box, and one agent's update (its row
// updated in place, the counts refreshed). The same is measured without the history, in alternating
// rounds, to show what the history costs the view. The real plugin runs on the fake Obsidian over an
// in-memory disk, in happy-dom: a DOM far slower than a browser's, so the absolute figures are
// happy-dom's; the browser test (`npm run test:browser`) measures the same view in headless Chromium.

export interface ViewBenchOptions {
	/** Smaller sizes for a fast look. */
	quick?: boolean;
	agents?: number;
	archived?: number;
	updates?: number;
	rounds?: number;
	/** Openings timed in each round (3 by default). */
	opens?: number;
	/** The archived notes of `archived` messages: flat archives by default (row 6); the year part's are in month folders. */
	history?: (archived: number) => Record<string, string>;
}

export interface ViewFigures {
	/** Milliseconds to render every agent row and the message flow (the view opening). */
	openMs: number[];
	/** Milliseconds to render the message flow alone (queue counts, dead letters: what reads the index). */
	flowMs: number[];
	/** Milliseconds for one change of the filter box (a query typed, or cleared). */
	filterMs: number[];
	/** Milliseconds to render one agent's change. */
	updateMs: number[];
	/** Rows whose DOM nodes were replaced by the updates of other agents (must be 0). */
	otherRowsTouched: number;
	/** MiB of the JavaScript heap in use after a full collection, before the openings (what a collection has to walk). */
	heapMb: number;
}

export interface ViewBenchResult {
	agents: number;
	archived: number;
	rounds: number;
	history: Figures;
	none: Figures;
	openRatio: number;
	flowRatio: number;
	filterRatio: number;
	/** Each round's ratio (its history run's median over its run's without), smallest to largest. */
	roundRatios: { open: Spread; filter: Spread };
	otherRowsTouched: number;
}

interface Figures {
	openMs: Spread;
	flowMs: Spread;
	filterMs: Spread;
	updateMs: Spread;
	heapMb: Spread;
}

type Batch = { all: boolean; paths: Set<string>; relay: boolean };
interface RenderableView {
	contentEl: HTMLElement;
	render(batch: Batch): void;
}

const FILTERS = ["running", "", "agent-05", "", "Worker 7", "", "failed", ""];
const FILTER_REPEATS = 5;

async function measure(agents: number, history: Record<string, string>, archived: number, updates: number, opens: number): Promise<ViewFigures> {
	if (typeof document === "undefined") installDom();
	const { FakeHost } = await import("../test-support/fake-obsidian/host");
	const { MemoryDisk } = await import("../test-support/fake-obsidian/memory-disk");
	const { default: Plugin } = (await import("../main")) as { default: typeof A2ARelayPlugin };
	const { AgentStatusView, VIEW_TYPE_AGENT_STATUS } = await import("../src/ui/agent-status-view");
	const manifest = { id: "a2a-relay", name: "A2A Relay", version: "0.0.0", minAppVersion: "1.7.2", description: "Bench.", author: "bench" };

	const files = { ...benchVault(agents, Date.now()), "A2A/registry.yaml": registryText(), ...history };
	const host = new FakeHost({ disk: new MemoryDisk("bench", files), logErrors: true });
	try {
		const plugin = await host.loadPlugin(Plugin, manifest);
		await host.loadVault();
		await host.setLayoutReady();
		await plugin.parts.relay.whenIdle();
		if (plugin.parts.relay.router.index.size < archived) throw new Error(`${plugin.parts.relay.router.index.size} messages indexed of ${archived}`);
		host.executeCommand("a2a-relay:open-agent-status");
		await host.settled();
		const leaf = host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0];
		if (!leaf || !(leaf.view instanceof AgentStatusView)) throw new Error("the view did not open");
		// The view's own render step (private: it is what its batcher calls once per frame).
		const view = leaf.view as unknown as RenderableView;
		const rows = () => view.contentEl.querySelectorAll(".a2a-agent-row");
		if (rows().length !== agents) throw new Error(`${rows().length} rows for ${agents} agents`);

		// Opening: every row built from scratch and the message flow read from the index, as in onOpen.
		// A full collection first, so that the garbage of the vault's setup (indexing 100,000 notes
		// leaves much) is not charged to the view.
		const openMs: number[] = [];
		collectGarbage();
		const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
		for (let run = 0; run < opens; run++) {
			collectGarbage();
			const t0 = performance.now();
			view.render({ all: true, paths: new Set(), relay: true });
			openMs.push(performance.now() - t0);
		}

		// The message flow alone: the part of the view that reads the message index.
		const flowMs: number[] = [];
		for (let run = 0; run < 10; run++) {
			const t0 = performance.now();
			view.render({ all: false, paths: new Set(), relay: true });
			flowMs.push(performance.now() - t0);
		}

		// Filtering: a query typed into the filter box (its input event), then cleared.
		const box = view.contentEl.querySelector<HTMLInputElement>("input.a2a-filter");
		const win = box?.ownerDocument.defaultView;
		if (!box || !win) throw new Error("no filter box");
		const filterMs: number[] = [];
		collectGarbage();
		for (const query of Array.from({ length: FILTER_REPEATS }, () => FILTERS).flat()) {
			box.value = query;
			const t0 = performance.now();
			box.dispatchEvent(new win.Event("input"));
			filterMs.push(performance.now() - t0);
		}
		if (rows().length !== agents) throw new Error("the filter changed the rows");

		// One agent's update: its note changes in the store (through the metadata cache), and the view
		// renders that path alone. The note is changed outside the timing; only the render is timed. The
		// view is hidden meanwhile, so its own batcher leaves the change to the timed render.
		host.setLeafVisible(leaf, false);
		await host.settled();
		const store = plugin.parts.agents;
		const paths = store.all().map((a) => a.path);
		const before = Array.from(rows());
		const updateMs: number[] = [];
		const touched = new Set<string>();
		for (let u = 0; u < updates; u++) {
			const path = paths[(u * 37) % paths.length];
			let emitted = false;
			const ref = store.events.on(AGENTS_CHANGED, () => (emitted = true));
			await host.fakeApp.fileManager.processFrontMatter(host.file(path) as never, (fm: Record<string, unknown>) => {
				fm.progress_percent = (Number(fm.progress_percent) + 7) % 101;
				fm.last_action = `Update ${u}`;
			});
			await host.settled();
			store.events.offref(ref);
			if (!emitted) throw new Error(`no change event for ${path}`);
			const t0 = performance.now();
			view.render({ all: false, paths: new Set([path]), relay: false });
			updateMs.push(performance.now() - t0);
			touched.add(path);
		}
		const after = Array.from(rows());
		let otherRowsTouched = 0;
		for (const row of before) {
			const path = row.getAttribute("data-path") ?? "";
			if (!touched.has(path) && !after.includes(row)) otherRowsTouched++;
		}
		return { openMs, flowMs, filterMs, updateMs, otherRowsTouched, heapMb };
	} finally {
		await host.dispose();
	}
}

export async function runViewBench(options: ViewBenchOptions = {}): Promise<ViewBenchResult> {
	const agents = options.agents ?? (options.quick ? 200 : 1000);
	const archived = options.archived ?? (options.quick ? 2000 : 20000);
	const updates = options.updates ?? (options.quick ? 50 : 200);
	const rounds = options.rounds ?? (options.quick ? 1 : 2);
	const opens = options.opens ?? 3;
	// The history's notes are made once: each round's vault gets the same ones.
	const history = (options.history ?? ((count: number) => historyFiles(count, 0)))(archived);
	const runs: { history: ViewFigures[]; none: ViewFigures[] } = { history: [], none: [] };
	for (let round = 0; round < rounds; round++) {
		for (const which of round % 2 === 0 ? (["history", "none"] as const) : (["none", "history"] as const)) {
			runs[which].push(which === "history" ? await measure(agents, history, archived, updates, opens) : await measure(agents, {}, 0, updates, opens));
		}
	}
	const sum = (figures: ViewFigures[]): Figures => ({
		openMs: spread(figures.flatMap((f) => f.openMs)),
		flowMs: spread(figures.flatMap((f) => f.flowMs)),
		filterMs: spread(figures.flatMap((f) => f.filterMs)),
		updateMs: spread(figures.flatMap((f) => f.updateMs)),
		heapMb: spread(figures.map((f) => f.heapMb)),
	});
	const withHistory = sum(runs.history);
	const none = sum(runs.none);
	return {
		agents,
		archived,
		rounds,
		history: withHistory,
		none,
		openRatio: withHistory.openMs.median / none.openMs.median,
		flowRatio: withHistory.flowMs.median / none.flowMs.median,
		filterRatio: withHistory.filterMs.median / none.filterMs.median,
		roundRatios: {
			open: spread(runs.history.map((h, i) => spread(h.openMs).median / spread(runs.none[i].openMs).median)),
			filter: spread(runs.history.map((h, i) => spread(h.filterMs).median / spread(runs.none[i].filterMs).median)),
		},
		otherRowsTouched: [...runs.history, ...runs.none].reduce((n, f) => n + f.otherRowsTouched, 0),
	};
}
