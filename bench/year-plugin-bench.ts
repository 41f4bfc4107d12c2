import { FakeHost } from "../test-support/fake-obsidian/host";
import { MemoryDisk } from "../test-support/fake-obsidian/memory-disk";
import { PLUGIN_DATA_PATH } from "../test-support/fixture-vault";
import A2ARelayPlugin from "../main";
import manifest from "../manifest.json";
import { emptyVault, outboxNote, outboxPath } from "../test-support/bench-notes";
import { yearHistory } from "./year-vault";
import { LagMonitor, deferredIndexMemory, indexMemory, latencies } from "./plugin-bench";
import { collectGarbage, quantile, spread } from "./stats";
import type { Spread } from "./stats";

// Issue 29, the plugin with a year of history (fake Obsidian over an in-memory disk): the first
// delivery after layout-ready (an outbox note waiting when Obsidian starts), the longest block of
// the event loop meanwhile, and the latency from a vault event to the delivered note, each against
// an empty vault in the same run, in alternating starts. The history vault carries the plugin's
// copy of its history index from an earlier start (as every start after the first does).

interface Start {
	firstDeliveryMs: number;
	longestBlockMs: number;
}

let next = 0;

/** One start on `disk` with one note waiting in an outbox: ms from layout-ready to its delivery. */
async function start(disk: MemoryDisk, keep?: (host: FakeHost, plugin: A2ARelayPlugin) => Promise<void>): Promise<Start> {
	const note = outboxNote(800_000 + next++);
	disk.writeSync(outboxPath(note), note.text, { mtime: Date.now() - 60_000 });
	const inbox = `A2A/groups/${note.to}/inbox/${note.name}`;
	const host = new FakeHost({ disk, logErrors: false, watcherDelayMs: 0, metadataDelayMs: 0 });
	const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	await host.loadVault();
	await host.settled();
	collectGarbage();
	// The collection's sweeping goes on after it returns, over a heap that holds the whole in-memory
	// disk (every note's text, which Obsidian keeps on disk): let it end before the start is timed.
	await new Promise((resolve) => setTimeout(resolve, 500));
	let delivered = 0;
	const ref = host.app.vault.on("rename", (file) => {
		if (file.path === inbox && delivered === 0) delivered = performance.now();
	});
	const monitor = new LagMonitor();
	monitor.start();
	const t0 = performance.now();
	await host.setLayoutReady();
	await plugin.parts.relay.whenIdle();
	monitor.stop();
	host.app.vault.offref(ref);
	if (delivered === 0) throw new Error(`${outboxPath(note)} was not delivered at start`);
	if (keep) await keep(host, plugin);
	await plugin.parts.relay.whenIdle();
	await host.unloadPlugin(plugin);
	await host.dispose();
	return { firstDeliveryMs: delivered - t0, longestBlockMs: monitor.longest };
}

export interface YearPluginResult {
	archived: number;
	rounds: number;
	first: { empty: Spread; history: Spread; ratio: number };
	block: { empty: Spread; history: Spread };
	latency: { count: number; emptyP99: number; historyP99: number; ratio: number };
	/** Heap the message index holds per 10,000 messages (entries of the bench's archived requests). */
	indexPer10kMb: number;
	/** The same for history entries taken from the plugin's copy at start (keys indexed, entries deferred, the copy's text held). */
	deferredPer10kMb: number;
}

export async function runYearPluginBench(options: { archived: number; rounds: number; latencyCount: number }): Promise<YearPluginResult> {
	const past = Date.now() - 86_400_000;
	const empty = new MemoryDisk("empty", { [PLUGIN_DATA_PATH]: JSON.stringify({ showNotices: false }), ...emptyVault() });
	const history = new MemoryDisk("year", { [PLUGIN_DATA_PATH]: JSON.stringify({ showNotices: false }), ...emptyVault() });
	for (const [path, text] of Object.entries(yearHistory(options.archived))) history.writeSync(path, text, { mtime: past });
	// Untimed first starts: the code compiled, and the history vault's plugin copy written (every later start has one).
	await start(empty);
	await start(history);
	const firsts: Record<"empty" | "history", number[]> = { empty: [], history: [] };
	const blocks: Record<"empty" | "history", number[]> = { empty: [], history: [] };
	for (let round = 0; round < options.rounds; round++) {
		for (const which of round % 2 === 0 ? (["empty", "history"] as const) : (["history", "empty"] as const)) {
			const s = await start(which === "empty" ? empty : history);
			firsts[which].push(s.firstDeliveryMs);
			blocks[which].push(s.longestBlockMs);
		}
	}
	// Event to delivered note, with the whole history indexed, against the same on the empty vault.
	const samples: Record<"empty" | "history", number[]> = { empty: [], history: [] };
	for (const which of ["history", "empty"] as const) {
		await start(which === "empty" ? empty : history, async (host, plugin) => {
			await plugin.parts.relay.whenIdle();
			samples[which] = await latencies({ host }, options.latencyCount);
		});
	}
	const first = { empty: spread(firsts.empty), history: spread(firsts.history) };
	const emptyP99 = quantile(samples.empty, 0.99);
	const historyP99 = quantile(samples.history, 0.99);
	return {
		archived: options.archived,
		rounds: options.rounds,
		first: { ...first, ratio: first.history.median / first.empty.median },
		block: { empty: spread(blocks.empty), history: spread(blocks.history) },
		latency: { count: options.latencyCount, emptyP99, historyP99, ratio: historyP99 / emptyP99 },
		indexPer10kMb: indexMemory(10_000) / 2 ** 20,
		deferredPer10kMb: deferredIndexMemory(10_000) / 2 ** 20,
	};
}
