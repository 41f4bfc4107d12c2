import { FakeHost } from "../test-support/fake-obsidian/host";
import { MemoryDisk } from "../test-support/fake-obsidian/memory-disk";
import { PLUGIN_DATA_PATH } from "../test-support/fixture-vault";
import A2ARelayPlugin from "../main";
import manifest from "../manifest.json";
import { MessageIndex, entryFromRaw } from "../src/core/message-index";
import { readRawMessage } from "../src/core/message-parse";
import { decodeRows, encodeRow } from "../src/router/history-cache";
import { VIEW_TYPE_AGENT_STATUS } from "../src/ui/agent-status-view";
import { emptyVault, historyFiles, outboxNote, outboxPath } from "../test-support/bench-notes";
import { collectGarbage, elapsedMs, quantile, spread } from "./stats";
import type { Spread } from "./stats";

// The plugin inside (fake) Obsidian, over an in-memory disk (target 5, and the idle timers of
// target 3): how long the initial index after layout-ready blocks the app at a time, with a long
// history in the vault; the latency from the vault event of a new outbox note to its delivery, with
// that history indexed; the timers armed once all is quiet. Also: the work done in onload, the start
// cost's growth with ordinary notes, and the memory the index holds.

/** The event loop's longest stretches while work runs: a timer re-armed at 0 ms notes every late turn. */
export class LagMonitor {
	private timer: ReturnType<typeof setTimeout> | null = null;
	private last = 0;
	readonly gaps: number[] = [];

	private note(): void {
		const now = performance.now();
		this.gaps.push(now - this.last);
		this.last = now;
	}

	start(): void {
		this.last = performance.now();
		const turn = () => {
			this.note();
			this.timer = setTimeout(turn, 0);
		};
		this.timer = setTimeout(turn, 0);
	}

	stop(): void {
		if (this.timer !== null) clearTimeout(this.timer);
		this.timer = null;
		this.note();
	}

	get longest(): number {
		return Math.max(0, ...this.gaps);
	}

	/** Stretches longer than `ms`. */
	over(ms: number): number {
		return this.gaps.filter((g) => g > ms).length;
	}
}

const BLOCK_LIMIT_MS = 50;

interface Booted {
	host: FakeHost;
	plugin: A2ARelayPlugin;
	onloadMs: number;
	readyMs: number;
	monitor: LagMonitor;
}

async function boot(files: Record<string, string>): Promise<Booted> {
	const host = new FakeHost({ disk: new MemoryDisk("bench", { [PLUGIN_DATA_PATH]: JSON.stringify({ showNotices: false }), ...files }), logErrors: false, watcherDelayMs: 0, metadataDelayMs: 0 });
	const startLoad = process.hrtime.bigint();
	const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	const onloadMs = elapsedMs(startLoad);
	await host.loadVault();
	// What Obsidian does at load (the metadata cache of every file) is not the plugin's start cost.
	await host.settled();
	collectGarbage();
	const monitor = new LagMonitor();
	monitor.start();
	const startReady = process.hrtime.bigint();
	await host.setLayoutReady();
	await plugin.parts.relay.whenIdle();
	const readyMs = elapsedMs(startReady);
	monitor.stop();
	return { host, plugin, onloadMs, readyMs, monitor };
}

async function shutDown({ host, plugin }: Booted): Promise<void> {
	await plugin.parts.relay.whenIdle();
	await host.unloadPlugin(plugin);
	await host.dispose();
}

/**
 * Milliseconds from the `create` event of a note in an outbox to the `rename` event that puts it in
 * the target's inbox: the Obsidian adapter stamps the note in place (vault.process, a `modify`) and
 * then renames it into the inbox, its last step.
 */
export async function latencies(booted: { host: FakeHost }, count: number): Promise<number[]> {
	const app = booted.host.app;
	const samples: number[] = [];
	for (let i = 0; i < count; i++) {
		const note = outboxNote(500_000 + i);
		const outbox = outboxPath(note);
		const inbox = `A2A/groups/${note.to}/inbox/${note.name}`;
		let created: number | null = null;
		const done = new Promise<void>((resolve, reject) => {
			const finish = (error?: Error) => {
				clearTimeout(timer);
				app.vault.offref(onCreate);
				app.vault.offref(onRename);
				if (error) reject(error);
				else resolve();
			};
			const timer = setTimeout(() => finish(new Error(`${outbox} was not delivered to ${inbox} within 10 s`)), 10_000);
			const onCreate = app.vault.on("create", (file) => {
				if (file.path === outbox) created = performance.now();
			});
			const onRename = app.vault.on("rename", (file) => {
				if (file.path !== inbox) return;
				if (created === null) return finish(new Error(`${inbox} arrived before the create event of ${outbox}`));
				samples.push(performance.now() - created);
				finish();
			});
		});
		await booted.host.externalWrite(outbox, note.text);
		await done;
	}
	return samples;
}

function vaultWithOrdinaryNotes(ordinary: number): Record<string, string> {
	const files = { ...emptyVault(), ...historyFiles(2000, 0) };
	for (let i = 0; i < ordinary; i++) files[`Notes/folder-${i % 50}/note-${i}.md`] = `---\ntags: [daily]\n---\n\n# Note ${i}\n\nSome ordinary text with a [[link-${i % 97}]].\n`;
	return files;
}

/** Start cost after layout-ready with 10,000 and with 1,000 ordinary notes (and 2,000 messages), alternating. */
async function startCosts(rounds: number): Promise<{ small: Spread; large: Spread; onloadMs: Spread }> {
	const small: number[] = [];
	const large: number[] = [];
	const onloads: number[] = [];
	for (let round = 0; round < rounds; round++) {
		for (const ordinary of round % 2 === 0 ? [1000, 10000] : [10000, 1000]) {
			const booted = await boot(vaultWithOrdinaryNotes(ordinary));
			(ordinary === 1000 ? small : large).push(booted.readyMs);
			onloads.push(booted.onloadMs);
			await shutDown(booted);
		}
	}
	return { small: spread(small), large: spread(large), onloadMs: spread(onloads) };
}

export function indexMemory(count: number): number {
	const raws = Array.from({ length: count }, (_, i) => {
		const read = readRawMessage(outboxNote(i).text, "x.md");
		if (!read.ok) throw new Error(read.reason);
		return read.raw;
	});
	collectGarbage();
	const before = process.memoryUsage().heapUsed;
	const index = new MessageIndex();
	raws.forEach((raw, i) => index.set(entryFromRaw(`A2A/groups/g01-group/inbox/m-${i}.md`, { area: "box", box: "inbox", group: "g01-group" }, raw)));
	collectGarbage();
	const after = process.memoryUsage().heapUsed;
	if (index.size !== count) throw new Error("index lost entries");
	return after - before;
}

const YEAR_LOCATION = { area: "box", box: "archive", group: "g01-group" } as const;

/** The rows of a history copy of `count` archived notes, as bytes (made apart, so that nothing of the making stays alive in the measuring function). */
function copyBytes(count: number): Buffer {
	const rows = Array.from({ length: count }, (_, i) => {
		const read = readRawMessage(outboxNote(i).text, "x.md");
		if (!read.ok) throw new Error(read.reason);
		const path = `A2A/groups/g01-group/archive/2026-11/m-${i}.md`;
		return encodeRow(path, { size: 600, mtime: 1_764_000_000_000 + i, entry: entryFromRaw(path, YEAR_LOCATION, read.raw) });
	});
	return Buffer.from(rows.join("\n"));
}

/**
 * Heap held by `count` history entries taken from the history copy at start (src/router/history-cache.ts):
 * each row's keys indexed and its entry deferred, the copy's text kept for the rows it holds.
 */
export function deferredIndexMemory(count: number): number {
	const bytes = copyBytes(count);
	collectGarbage();
	const before = process.memoryUsage().heapUsed;
	// The copy's text as the plugin reads it (counted: the rows' texts are parts of it).
	const text = bytes.toString("utf8");
	const index = new MessageIndex();
	for (const row of decodeRows(text)) {
		if (row === null) throw new Error("a row was refused");
		row.note.entry.location = YEAR_LOCATION;
		index.set(row.note.entry);
	}
	collectGarbage();
	const after = process.memoryUsage().heapUsed;
	if (index.size !== count) throw new Error("index lost entries");
	return after - before;
}

export interface PluginBenchResult {
	archived: number;
	/** Starts measured with the history. */
	runs: number;
	indexed: number;
	/** Milliseconds from layout-ready to an idle relay, with the history; and the longest block meanwhile. */
	historyIndexMs: Spread;
	longestBlockMs: Spread;
	/** Stretches over the limit in all runs. */
	blocksOverLimit: number;
	blockLimitMs: number;
	latencyCount: number;
	latencyP50: number;
	latencyP99: number;
	latencyMax: number;
	/** Timers the relay has armed once idle, and intervals registered through the plugin. */
	idleTimers: number;
	/** Intervals with the sidebar closed, and with it open (its clock for relative times). */
	idleIntervals: number;
	sidebarIntervals: number;
	onloadMs: Spread;
	startSmallMs: Spread;
	startLargeMs: Spread;
	startRatio: number;
	bytesPer10k: number;
}

export async function runPluginBench(options: { quick: boolean }): Promise<PluginBenchResult> {
	const archived = options.quick ? 2000 : 20000;
	const rounds = options.quick ? 1 : 3;
	// Warm-up: the first start pays for compiling the code.
	await shutDown(await boot({ ...emptyVault(), ...historyFiles(200, 0) }));

	const files = { ...emptyVault(), ...historyFiles(archived, 0) };
	const indexMs: number[] = [];
	const blocks: number[] = [];
	let blocksOverLimit = 0;
	let booted: Booted | null = null;
	for (let round = 0; round < rounds; round++) {
		if (booted) await shutDown(booted);
		booted = await boot(files);
		indexMs.push(booted.readyMs);
		blocks.push(booted.monitor.longest);
		blocksOverLimit += booted.monitor.over(BLOCK_LIMIT_MS);
	}
	if (!booted) throw new Error("no start");
	const relay = booted.plugin.parts.relay;
	const indexed = relay.router.index.size;
	if (!relay.router.indexSync.hasHistory || indexed < archived) throw new Error(`the relay indexed ${indexed} of ${archived} archived messages`);

	const samples = await latencies(booted, options.quick ? 200 : 1000);
	await relay.whenIdle();
	await booted.host.settled();
	const idleTimers = relay.armedTimers;
	// The open sidebar keeps a clock for its "3 min ago" labels; closed, nothing may tick.
	const sidebarIntervals = booted.host.activeIntervals();
	booted.host.app.workspace.detachLeavesOfType(VIEW_TYPE_AGENT_STATUS);
	await booted.host.settled();
	const idleIntervals = booted.host.activeIntervals();
	await shutDown(booted);

	const starts = await startCosts(options.quick ? 1 : 5);
	return {
		archived,
		runs: rounds,
		indexed,
		historyIndexMs: spread(indexMs),
		longestBlockMs: spread(blocks),
		blocksOverLimit,
		blockLimitMs: BLOCK_LIMIT_MS,
		latencyCount: samples.length,
		latencyP50: quantile(samples, 0.5),
		latencyP99: quantile(samples, 0.99),
		latencyMax: Math.max(...samples),
		idleTimers,
		idleIntervals,
		sidebarIntervals,
		onloadMs: starts.onloadMs,
		startSmallMs: starts.small,
		startLargeMs: starts.large,
		startRatio: starts.large.median / starts.small.median,
		bytesPer10k: indexMemory(10000),
	};
}
