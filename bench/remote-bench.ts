import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildRequest, messageFileName } from "../src/core/compose";
import { serialiseMessage } from "../src/core/message-serialise";
import { startRemoteAgents } from "../test-support/a2a-remote-agents";
import { startScriptedAgent } from "../test-support/scripted-agent";
import { quantile } from "./stats";

// Remote groups (issue 16) as users run them: `a2a route --watch` (the CLI bundle) forwarding to an
// echo agent built with @a2a-js/sdk's server on 127.0.0.1, against the same request answered by a
// local scripted echo agent. One request at a time, remote and local alternating: the time from the
// request note landing in the outbox (an atomic rename) to its response note in the requester's
// inbox. The overhead is the forwarded latency minus the remote agent's own time for the task.

export interface RemoteBenchResult {
	requests: number;
	remote: { p50: number; p99: number };
	local: { p50: number; p99: number };
	/** The remote agent's own time per task (p50). */
	remoteOwnP50: number;
	/** Forwarded latency minus the remote's own time, per request (p50, p99). */
	overhead: { p50: number; p99: number };
	/** SendMessage calls the remote received per request (1 when nothing is sent twice). */
	sendsPerRequest: number;
}

const REQUESTER = "10-backend-group";
const LOCAL = "20-frontend-group";
const REMOTE = "remote-echo";

function runToEnd(cli: string, args: string[]): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cli, ...args], { stdio: "ignore" });
		child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`a2a ${args[0]} exited with ${code}`))));
	});
}

/** Writes a request into the requester's outbox in one step; resolves with its message_id. */
async function writeRequest(dir: string, to: string, i: number): Promise<string> {
	const request = buildRequest({ from: REQUESTER, to, type: "query", question: `question ${i} for ${to}` }, Date.now());
	const outbox = path.join(dir, "A2A", "groups", REQUESTER, "outbox");
	const name = messageFileName(request, Date.now());
	const tmp = path.join(outbox, `.${name}.tmp`);
	await fs.writeFile(tmp, serialiseMessage(request));
	await fs.rename(tmp, path.join(outbox, name));
	return request.envelope.message_id as string;
}

/** Resolves when a note answering `id` is in the requester's inbox (looked for every 2 ms). */
async function answered(dir: string, id: string, limitMs: number): Promise<void> {
	const inbox = path.join(dir, "A2A", "groups", REQUESTER, "inbox");
	const end = Date.now() + limitMs;
	for (;;) {
		for (const name of await fs.readdir(inbox).catch(() => [] as string[])) {
			if (!name.endsWith(".md")) continue;
			const text = await fs.readFile(path.join(inbox, name), "utf8").catch(() => "");
			if (text.includes(`in_reply_to: ${id}`)) return;
		}
		if (Date.now() > end) throw new Error(`no answer to ${id} after ${limitMs} ms`);
		await new Promise((r) => setTimeout(r, 2));
	}
}

export async function runRemoteBench(cli: string, requests: number): Promise<RemoteBenchResult> {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-remote-bench-"));
	const remote = await startRemoteAgents();
	let router: ChildProcess | null = null;
	let agent: ReturnType<typeof startScriptedAgent> | null = null;
	try {
		await runToEnd(cli, ["init", "--vault", dir]);
		const registry = path.join(dir, "A2A", "registry.yaml");
		await fs.writeFile(registry, (await fs.readFile(registry, "utf8")).replace("groups:\n", `groups:\n  ${REMOTE}:\n    url: ${remote.url("echo")}\n`));
		router = spawn(process.execPath, [cli, "route", "--watch", "--interval", "2000", "--vault", dir], { stdio: "ignore" });
		agent = startScriptedAgent(dir, LOCAL, (id) => `echo: ${id}`);
		// A first round trip each way warms the processes up (not counted).
		for (const to of [REMOTE, LOCAL]) await answered(dir, await writeRequest(dir, to, -1), 30_000);
		const remoteMs: number[] = [];
		const localMs: number[] = [];
		const overhead: number[] = [];
		for (let i = 0; i < requests; i++) {
			for (const to of i % 2 === 0 ? [REMOTE, LOCAL] : [LOCAL, REMOTE]) {
				const t0 = performance.now();
				const id = await writeRequest(dir, to, i);
				await answered(dir, id, 30_000);
				const ms = performance.now() - t0;
				if (to === LOCAL) localMs.push(ms);
				else {
					remoteMs.push(ms);
					const own = remote.executions.find((e) => e.messageId === id)?.ms ?? 0;
					overhead.push(ms - own);
				}
			}
		}
		const own = remote.executions.map((e) => e.ms ?? 0);
		const sends = remote.calls.filter((c) => c.method === "SendMessage").length;
		const q = (values: number[]) => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99) });
		return { requests, remote: q(remoteMs), local: q(localMs), remoteOwnP50: quantile(own, 0.5), overhead: q(overhead), sendsPerRequest: sends / (requests + 1) };
	} finally {
		await agent?.stop();
		if (router && router.exitCode === null) {
			const done = new Promise((r) => router?.once("exit", r));
			router.kill("SIGTERM");
			await done;
		}
		await remote.close();
		await fs.rm(dir, { recursive: true, force: true });
	}
}
