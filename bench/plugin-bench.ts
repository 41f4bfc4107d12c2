import { FakeHost } from "../test-support/fake-obsidian/host";
import { MemoryDisk } from "../test-support/fake-obsidian/memory-disk";
import A2ARelayPlugin from "../main";
import manifest from "../manifest.json";
import { MessageIndex, entryFromRaw } from "../src/core/message-index";
import { readRawMessage } from "../src/core/message-parse";

// The plugin inside (fake) Obsidian: start-up cost, the initial index, routing latency from the
// vault event to the delivered note, and the memory the index holds.

const REGISTRY = `communication:\n  timeout_seconds: 3600\ngroups:\n${Array.from({ length: 10 }, (_, i) => `  g${i}-group: {}\n`).join("")}`;

function request(i: number, from = `g${i % 10}-group`, to = `g${(i + 1) % 10}-group`): string {
	return `---\nmessage_id: m-${i}\ntrace_id: ${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\n---\n\n## Question\n\nQuestion number ${i}?\n`;
}

function vaultFiles(ordinary: number, messages: number, agents: number): Record<string, string> {
	const files: Record<string, string> = { "A2A/registry.yaml": REGISTRY };
	for (let i = 0; i < ordinary; i++) files[`Notes/folder-${i % 50}/note-${i}.md`] = `---\ntags: [daily]\n---\n\n# Note ${i}\n\nSome ordinary text with a [[link-${i % 97}]].\n`;
	for (let i = 0; i < messages; i++) {
		const delivered = request(i).replace("---\n\n", "state: delivered\ndelivered_at: 2026-01-01T00:00:00.000Z\nexpires_at: 2099-01-01T00:00:00.000Z\nattempt: 1\n---\n\n");
		files[`A2A/groups/g${(i + 1) % 10}-group/inbox/m-${i}.md`] = delivered;
	}
	for (let i = 0; i < agents; i++) files[`A2A/agents/agent-${i}.md`] = `---\nagent_id: agent-${i}\nstatus: running\nprogress_percent: ${i % 100}\nlast_action: step ${i}\n---\n\n## [10:00:00] Started\n`;
	return files;
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function boot(files: Record<string, string>) {
	const host = new FakeHost({ disk: new MemoryDisk("bench", files), logErrors: false, watcherDelayMs: 0, metadataDelayMs: 0 });
	const startLoad = process.hrtime.bigint();
	const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	const onloadMs = ms(startLoad);
	await host.loadVault();
	// What Obsidian does at load (the metadata cache of every file) is not the plugin's start cost.
	await host.settled();
	const startReady = process.hrtime.bigint();
	await host.setLayoutReady();
	await plugin.parts.relay.whenIdle();
	const readyMs = ms(startReady);
	return { host, plugin, onloadMs, readyMs };
}

export interface PluginBenchResult {
	onloadMs: number;
	startSmallMs: number;
	startLargeMs: number;
	startRatio: number;
	indexedMessages: number;
	agents: number;
	latencyP50: number;
	latencyP99: number;
	latencyCount: number;
	bytesPer10k: number;
}

async function startCost(ordinary: number, runs: number): Promise<{ ms: number; onloadMs: number; indexed: number; agents: number }> {
	const times: number[] = [];
	const onloads: number[] = [];
	let indexed = 0;
	let agents = 0;
	for (let r = 0; r < runs; r++) {
		const { host, plugin, onloadMs, readyMs } = await boot(vaultFiles(ordinary, 2000, 500));
		times.push(readyMs);
		onloads.push(onloadMs);
		indexed = plugin.parts.relay.router.index.size;
		agents = plugin.parts.agents.all().length;
		await host.unloadPlugin(plugin);
		await host.dispose();
	}
	times.sort((a, b) => a - b);
	onloads.sort((a, b) => a - b);
	return { ms: times[Math.floor(times.length / 2)], onloadMs: onloads[Math.floor(onloads.length / 2)], indexed, agents };
}

async function latency(count: number): Promise<number[]> {
	const { host, plugin } = await boot(vaultFiles(0, 0, 0));
	const app = host.app;
	const samples: number[] = [];
	for (let i = 0; i < count; i++) {
		const outbox = `A2A/groups/g0-group/outbox/l-${i}.md`;
		const inbox = `A2A/groups/g1-group/inbox/l-${i}.md`;
		let created = BigInt(0);
		const done = new Promise<void>((resolve) => {
			const onCreate = app.vault.on("create", (file) => {
				if (file.path === outbox) created = process.hrtime.bigint();
			});
			const onRename = app.vault.on("rename", (file) => {
				if (file.path !== inbox) return;
				app.vault.offref(onCreate);
				app.vault.offref(onRename);
				// Delivered means stamped: wait for the frontmatter write that follows the move.
				const onModify = app.vault.on("modify", (f) => {
					if (f.path !== inbox) return;
					app.vault.offref(onModify);
					samples.push(Number(process.hrtime.bigint() - created) / 1e6);
					resolve();
				});
			});
		});
		await host.externalWrite(outbox, request(100000 + i, "g0-group", "g1-group"));
		await done;
	}
	await plugin.parts.relay.whenIdle();
	await host.unloadPlugin(plugin);
	await host.dispose();
	return samples.sort((a, b) => a - b);
}

function indexMemory(count: number): number {
	const gc = (globalThis as { gc?: () => void }).gc;
	const raws = Array.from({ length: count }, (_, i) => {
		const read = readRawMessage(request(i), "x.md");
		if (!read.ok) throw new Error(read.reason);
		return read.raw;
	});
	gc?.();
	const before = process.memoryUsage().heapUsed;
	const index = new MessageIndex();
	raws.forEach((raw, i) => index.set(entryFromRaw(`A2A/groups/g1-group/inbox/m-${i}.md`, { area: "box", box: "inbox", group: "g1-group" }, raw)));
	gc?.();
	const after = process.memoryUsage().heapUsed;
	if (index.size !== count) throw new Error("index lost entries");
	return after - before;
}

export async function runPluginBench(options: { quick: boolean }): Promise<PluginBenchResult> {
	const runs = options.quick ? 1 : 3;
	await startCost(1000, 1); // warm-up: the first start pays for compiling the code
	const small = await startCost(1000, runs);
	const large = await startCost(10000, runs);
	const samples = await latency(options.quick ? 200 : 1000);
	const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
	return {
		onloadMs: large.onloadMs,
		startSmallMs: small.ms,
		startLargeMs: large.ms,
		startRatio: large.ms / small.ms,
		indexedMessages: large.indexed,
		agents: large.agents,
		latencyP50: pick(0.5),
		latencyP99: pick(0.99),
		latencyCount: samples.length,
		bytesPer10k: indexMemory(10000),
	};
}
