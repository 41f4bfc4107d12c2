import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Role } from "@a2a-js/sdk";
import type { Message } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import type { Client } from "@a2a-js/sdk/client";
import { firstJsonLine } from "./child-lines";
import { clockTicksPerSecond, cpuTicks } from "./cli-process";
import { fmt, fmtSpread, quantile, spread } from "./stats";
import type { Spread } from "./stats";

// `a2a serve` against the SDK's own server under the same load (issue 29): 200 concurrent clients,
// each the official @a2a-js/sdk client (ClientFactory from the agent's URL), sending SendMessage with
// returnImmediately until N messages were accepted. The reference is the SDK's DefaultRequestHandler
// with its InMemoryTaskStore and an executor that publishes a COMPLETED task at once, served through
// the SDK's express handlers (bench/sdk-reference-server.ts); `a2a serve` is the CLI bundle on a
// fresh temp vault, and answers only once the request note is on disk. Both run as child processes
// on 127.0.0.1, started fresh for each run, the two in turns whose order swaps from round to round.
// With `router`, `a2a route --watch` runs beside `a2a serve` (as users run it): it moves every note
// while the load goes on, and its CPU is taken from the same cores. Each client first sends one
// message that is not counted (connections opened, code warm), then the clock starts. Every
// messageId is a random UUID, as SDK users make them (a note's name carries the id's first eight
// letters and digits: ids that share them, such as `bench-0-1`...`bench-0-199`, make names collide;
// `sequentialIds` sends such ids, as the a2a part does).

export interface Serve200Run {
	acceptedPerSecond: number;
	p50: number;
	p99: number;
	/** The server process's CPU (user and system, all its threads) per accepted message, in ms: what it costs apart from the clients' share of the cores. */
	cpuMsPerMessage: number;
}

export interface Serve200Result {
	clients: number;
	messages: number;
	rounds: number;
	router: boolean;
	sequentialIds: boolean;
	sdk: Serve200Run[];
	serve: Serve200Run[];
	/** serve / sdk accepted msg/s, per round. */
	ratios: number[];
}

export interface Serve200Options {
	cli: string;
	/** The bundled bench/sdk-reference-server.ts. */
	sdkServer: string;
	clients: number;
	messages: number;
	rounds: number;
	router: boolean;
	/** Message ids as `sequential` (`bench-<run>-<n>`, as the a2a part sends them: alike in their first eight letters) instead of UUIDs. */
	sequentialIds?: boolean;
}

const GROUP = "10-backend-group";


function runToEnd(cli: string, args: string[]): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cli, ...args], { stdio: "ignore" });
		child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`a2a ${args[0]} exited with ${code}`))));
	});
}

const message = (messageId: string): Message => ({ messageId, contextId: "", taskId: "", role: Role.ROLE_USER, parts: [{ content: { $case: "text", value: "question" }, metadata: undefined, filename: "", mediaType: "text/plain" }], metadata: undefined, extensions: [], referenceTaskIds: [] });

const send = (client: Client, messageId: string) => client.sendMessage({ tenant: "", message: message(messageId), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }, metadata: undefined });

/** The load: `clients` SDK clients of `agentUrl`, one warm-up message each, then `messages` messages in all, each client sending its next as soon as its last was accepted. */
let runs = 0;

async function load(agentUrl: string, serverPid: number, clients: number, messages: number, sequentialIds: boolean): Promise<Serve200Run> {
	const run = runs++;
	const id = (n: number | string) => (sequentialIds ? `bench-${run}-${n}` : randomUUID());
	const factory = new ClientFactory();
	const all = await Promise.all(Array.from({ length: clients }, () => factory.createFromUrl(agentUrl)));
	await Promise.all(all.map((client, c) => send(client, id(`warm-${c}`))));
	let next = 0;
	const latencies: number[] = [];
	const ticksBefore = cpuTicks(serverPid);
	const begin = performance.now();
	await Promise.all(
		all.map(async (client) => {
			for (let i = next++; i < messages; i = next++) {
				const t0 = performance.now();
				await send(client, id(i));
				latencies.push(performance.now() - t0);
			}
		}),
	);
	const seconds = (performance.now() - begin) / 1000;
	const cpuMs = ((cpuTicks(serverPid) - ticksBefore) * 1000) / clockTicksPerSecond();
	return { acceptedPerSecond: messages / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), cpuMsPerMessage: cpuMs / messages };
}

/** Node options for one of the two servers, from the environment (to profile it: `A2A_SERVE_NODE_ARGS="--cpu-prof"`, `A2A_SDK_NODE_ARGS=…`). */
const nodeArgs = (variable: string): string[] => process.env[variable]?.split(" ").filter(Boolean) ?? [];

function pidOf(child: ChildProcess): number {
	if (child.pid === undefined) throw new Error("a server process did not start");
	return child.pid;
}

async function stopAll(children: ChildProcess[]): Promise<void> {
	for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
	await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once("exit", r)))));
}

async function sdkRun(options: Serve200Options): Promise<Serve200Run> {
	const child = spawn(process.execPath, [...nodeArgs("A2A_SDK_NODE_ARGS"), options.sdkServer], { stdio: ["ignore", "pipe", "inherit"] });
	try {
		const url = (JSON.parse(await firstJsonLine(child, "the SDK reference server")) as { url: string }).url;
		return await load(url, pidOf(child), options.clients, options.messages, options.sequentialIds === true);
	} finally {
		await stopAll([child]);
	}
}

async function serveRun(options: Serve200Options, vaults: string[]): Promise<Serve200Run> {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-serve200-"));
	vaults.push(dir);
	const children: ChildProcess[] = [];
	try {
		await runToEnd(options.cli, ["init", "--vault", dir]);
		if (options.router) children.push(spawn(process.execPath, [options.cli, "route", "--watch", "--interval", "2000", "--vault", dir], { stdio: "ignore" }));
		// stderr carries a log line per call: not read, so not piped (a full pipe would block the server).
		const served = spawn(process.execPath, [...nodeArgs("A2A_SERVE_NODE_ARGS"), options.cli, "serve", "--port", "0", "--json", "--vault", dir], { stdio: ["ignore", "pipe", "ignore"] });
		children.push(served);
		const url = (JSON.parse(await firstJsonLine(served, "a2a serve")) as { url: string }).url;
		return await load(`${url}groups/${GROUP}/`, pidOf(served), options.clients, options.messages, options.sequentialIds === true);
	} finally {
		await stopAll(children);
	}
}

export async function runServe200Bench(options: Serve200Options): Promise<Serve200Result> {
	const sdk: Serve200Run[] = [];
	const serve: Serve200Run[] = [];
	// The vaults are removed at the end, not between runs: on a file system without a journal, ext4's
	// inode allocator steps over every inode freed in the last minutes (recently_deleted), so removing
	// 2,000 notes right before a run makes each note of the next run dearer to create.
	const vaults: string[] = [];
	try {
		for (let round = 0; round < options.rounds; round++) {
			const order = round % 2 === 0 ? ["sdk", "serve"] : ["serve", "sdk"];
			for (const who of order) {
				if (who === "sdk") sdk.push(await sdkRun(options));
				else serve.push(await serveRun(options, vaults));
				process.stderr.write(`    round ${round + 1}: ${who} ${(who === "sdk" ? sdk : serve).at(-1)?.acceptedPerSecond.toFixed(0)} msg/s\n`);
			}
		}
	} finally {
		for (const dir of vaults) await fs.rm(dir, { recursive: true, force: true });
	}
	const ratios = serve.map((s, i) => s.acceptedPerSecond / sdk[i].acceptedPerSecond);
	return { clients: options.clients, messages: options.messages, rounds: options.rounds, router: options.router, sequentialIds: options.sequentialIds === true, sdk, serve, ratios };
}

const pick = (runs: Serve200Run[], key: keyof Serve200Run): Spread => spread(runs.map((r) => r[key]));

/** The benchmark's rows: what, figure (median, and the spread of the runs), goal, met. */
export function serve200Rows(r: Serve200Result, load: string): [string, string, string, boolean | null][] {
	const beside = `${r.sequentialIds ? ", message ids bench-<run>-<n>" : ""}${r.router ? ", `a2a route --watch` beside it" : ""}`;
	const what = `${r.clients} concurrent SDK clients, ${r.messages.toLocaleString("en-US")} SendMessage (returnImmediately)${beside}; ${r.rounds} alternating rounds, load average ${load}`;
	const ratio = spread(r.ratios);
	const sdkRate = pick(r.sdk, "acceptedPerSecond");
	const serveRate = pick(r.serve, "acceptedPerSecond");
	return [
		[`a2a serve vs the SDK's own server (DefaultRequestHandler, InMemoryTaskStore, a COMPLETED task at once, its express handlers): messages accepted per second, ${what}`, `a2a serve ${fmtSpread(serveRate, " msg/s")}; SDK ${fmtSpread(sdkRate, " msg/s")}`, "", null],
		[`the same: latency of one SendMessage`, `a2a serve p50 ${fmtSpread(pick(r.serve, "p50"), " ms")}, p99 ${fmtSpread(pick(r.serve, "p99"), " ms")}; SDK p50 ${fmtSpread(pick(r.sdk, "p50"), " ms")}, p99 ${fmtSpread(pick(r.sdk, "p99"), " ms")}`, "", null],
		[`the same: the server process's CPU per accepted message (user and system, all threads)`, `a2a serve ${fmtSpread(pick(r.serve, "cpuMsPerMessage"), " ms")}; SDK ${fmtSpread(pick(r.sdk, "cpuMsPerMessage"), " ms")}`, "", null],
		[`the same: accepted msg/s, a2a serve / SDK${beside}`, `${fmt(ratio.median)} (rounds ${fmt(ratio.min)}–${fmt(ratio.max)})`, ">= 0.8", ratio.median >= 0.8],
	];
}
