import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Role, TaskState } from "@a2a-js/sdk";
import { Task } from "@a2a-js/sdk";
import type { Message } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import type { Client } from "@a2a-js/sdk/client";
import { startScriptedAgent } from "../test-support/scripted-agent";
import { firstJsonLine } from "./child-lines";

// `a2a serve` under load, as users run it: the CLI bundle serving on 127.0.0.1, `a2a route --watch`
// beside it, a scripted agent answering, and the official @a2a-js/sdk client sending N messages at
// once with returnImmediately. The server answers a SendMessage only once the request note is on
// disk, so the call's round trip is the request-to-note latency. Every task must end COMPLETED with
// its own answer, or the round fails.

export interface A2aRound {
	/** Request-to-note latency of one call at a time. */
	singleP50: number;
	p50: number;
	p99: number;
	/** Messages accepted (note written) per second. */
	acceptedPerSecond: number;
	/** Messages whose task was COMPLETED per second, from the first send to the last answer. */
	completedPerSecond: number;
}

export interface A2aBenchResult {
	messages: number;
	rounds: A2aRound[];
}

const GROUP = "10-backend-group";
const SINGLE_CALLS = 20;

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}


function runToEnd(cli: string, args: string[]): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cli, ...args], { stdio: "ignore" });
		child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`a2a ${args[0]} exited with ${code}`))));
	});
}

const message = (id: string): Message => ({ messageId: id, contextId: "", taskId: "", role: Role.ROLE_USER, parts: [{ content: { $case: "text", value: `question ${id}` }, metadata: undefined, filename: "", mediaType: "text/plain" }], metadata: undefined, extensions: [], referenceTaskIds: [] });

async function round(cli: string, count: number, index: number): Promise<A2aRound> {
	let dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-serve-bench-"));
	const children: ChildProcess[] = [];
	// Output not read is not piped (a full pipe would block the child); serve's first line gives its URL.
	const start = (args: string[], piped: boolean) => {
		const child = spawn(process.execPath, [cli, ...args, "--vault", dir], { stdio: ["ignore", piped ? "pipe" : "ignore", "ignore"] });
		children.push(child);
		return child;
	};
	let agent: ReturnType<typeof startScriptedAgent> | null = null;
	try {
		await runToEnd(cli, ["init", "--vault", dir]);
		start(["route", "--watch", "--interval", "2000"], false);
		const served = start(["serve", "--port", "0", "--json"], true);
		const url = (JSON.parse(await firstJsonLine(served, "a2a serve")) as { url: string }).url;
		agent = startScriptedAgent(dir, GROUP, (id) => `answer to ${id}`);
		const client = await new ClientFactory().createFromUrl(`${url}groups/${GROUP}/`);
		// One at a time first: the latency of a single call, without queueing behind others.
		const single: number[] = [];
		for (let i = 0; i < SINGLE_CALLS; i++) {
			const t0 = performance.now();
			await client.sendMessage({ tenant: "", message: message(`single-${index}-${i}`), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }, metadata: undefined });
			single.push(performance.now() - t0);
		}
		single.sort((a, b) => a - b);
		const ids = Array.from({ length: count }, (_, i) => `bench-${index}-${i}`);
		const inbox = path.join(dir, "A2A", "groups", "a2a-gateway", "inbox");
		const begin = performance.now();
		const latencies = await Promise.all(
			ids.map(async (id) => {
				const t0 = performance.now();
				await client.sendMessage({ tenant: "", message: message(id), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }, metadata: undefined });
				return performance.now() - t0;
			}),
		);
		const accepted = performance.now();
		// Answers only: the router's own timeout and error responses are named after what they report.
		const answers = async () => (await fs.readdir(inbox).catch(() => [])).filter((n) => n.endsWith(".md") && !/^(timeout|error)-/.test(n)).length;
		while ((await answers()) < count + SINGLE_CALLS) await new Promise((r) => setTimeout(r, 10));
		const completed = performance.now();
		// The server learns of the answers from the file system a moment later: wait for its view (at most 10 s).
		let tasks: Task[] = [];
		const wanted = new Set(ids);
		for (const stop = Date.now() + 10_000; tasks.length < count && Date.now() < stop; await new Promise((r) => setTimeout(r, 50))) tasks = (await completedTasks(client)).filter((t) => wanted.has(t.id));
		const wrong = tasks.filter((t) => t.artifacts[0]?.parts[0]?.content?.value !== `answer to ${t.id}`);
		if (tasks.length !== count || wrong.length > 0) {
			const done = new Set(tasks.map((t) => t.id));
			const stuck = await Promise.all(ids.filter((id) => !done.has(id)).slice(0, 5).map(async (id) => JSON.stringify(Task.toJSON(await client.getTask({ tenant: "", id, historyLength: 0 })))));
			if (process.env.A2A_BENCH_KEEP) dir = "";
			throw new Error(`round ${index}: ${tasks.length} of ${count} tasks COMPLETED, ${wrong.length} with a wrong answer; not completed: ${stuck.join("\n")}`);
		}
		latencies.sort((a, b) => a - b);
		return { singleP50: percentile(single, 50), p50: percentile(latencies, 50), p99: percentile(latencies, 99), acceptedPerSecond: count / ((accepted - begin) / 1000), completedPerSecond: count / ((completed - begin) / 1000) };
	} finally {
		await agent?.stop();
		for (const child of children) child.kill("SIGTERM");
		await Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once("exit", r)))));
		if (dir) await fs.rm(dir, { recursive: true, force: true });
	}
}

async function completedTasks(client: Client): Promise<Task[]> {
	const tasks: Task[] = [];
	let pageToken = "";
	do {
		const page = await client.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_COMPLETED, pageSize: 100, pageToken, historyLength: 0, statusTimestampAfter: undefined, includeArtifacts: true });
		tasks.push(...page.tasks);
		pageToken = page.nextPageToken;
	} while (pageToken !== "");
	return tasks;
}

/** `cli` is the CLI bundle (scripts/bench.mjs builds it). */
export async function runA2aBench(cli: string, count: number, rounds: number): Promise<A2aBenchResult> {
	const results: A2aRound[] = [];
	for (let i = 0; i < rounds; i++) results.push(await round(cli, count, i));
	return { messages: count, rounds: results };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The benchmark's rows: what, figure (median, and the spread of the rounds), target, met. */
export function a2aRows(result: A2aBenchResult): [string, string, string, boolean][] {
	const { rounds, messages } = result;
	const figure = (pick: (r: A2aRound) => number, digits: number, unit: string) => {
		const values = rounds.map(pick);
		const spread = rounds.length > 1 ? ` (rounds ${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)})` : "";
		return { value: median(values), text: `${median(values).toFixed(digits)} ${unit}${spread}` };
	};
	const single = figure((r) => r.singleP50, 1, "ms");
	const p50 = figure((r) => r.p50, 0, "ms");
	const p99 = figure((r) => r.p99, 0, "ms");
	const accepted = figure((r) => r.acceptedPerSecond, 0, "msg/s");
	const completed = figure((r) => r.completedPerSecond, 0, "tasks/s");
	const load = os.loadavg()[0].toFixed(1);
	const what = `${messages} concurrent SendMessage (returnImmediately), median of ${rounds.length} round(s), load average ${load}`;
	return [
		[`a2a serve: request-to-note latency of one SendMessage at a time (p50 of ${SINGLE_CALLS}), load average ${load}`, single.text, "<= 20 ms", single.value <= 20],
		[`a2a serve: request-to-note latency, ${what}`, `p50 ${p50.text}; p99 ${p99.text}`, "p50 <= 1000 ms, p99 <= 2000 ms", p50.value <= 1000 && p99.value <= 2000],
		[`a2a serve: messages accepted (request note written) per second, ${messages} at once`, accepted.text, ">= 100 msg/s", accepted.value >= 100],
		[`a2a serve: message to COMPLETED task, router and a scripted agent in the loop, ${messages} at once`, completed.text, ">= 50 tasks/s", completed.value >= 50],
	];
}
