import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import { GROUPS, outboxNote, outboxPath } from "../test-support/bench-notes";
import { writeVault } from "./bench-vault";
import { CliRunner } from "./cli-process";
import type { ChildCost } from "./cli-process";
import { spread } from "./stats";
import type { Spread } from "./stats";

// Issue 30's "never in the way": `a2a route` settling N conversations (N requests delivered, their
// N answers in the outboxes: every decision ends two spans) with telemetry off, with the collector
// down (a loopback port nobody listens on) and with a collector that answers. Each run routes a
// fresh copy of the same vault; the three kinds of run take turns, round after round.

export interface OtelBenchResult {
	notes: number;
	rounds: number;
	off: Spread;
	down: Spread;
	up: Spread;
	downRatio: number;
	upRatio: number;
	spansReceived: number;
}

const ms = (runs: readonly ChildCost[]) => spread(runs.map((r) => r.ms));

/**
 * A collector in a process of its own (the runs are started synchronously, which would stall one in
 * this process): answers every OTLP post as a collector does, and counts them in a file.
 */
async function collector(base: string): Promise<{ endpoint: string; posts: () => number; close: () => Promise<void> }> {
	const counter = path.join(base, "posts.txt");
	const script = `const http=require("http"),fs=require("fs");let n=0;const s=http.createServer((q,r)=>{q.resume();q.on("end",()=>{n++;fs.writeFileSync(${JSON.stringify(counter)},String(n));r.writeHead(200,{"content-type":"application/json"});r.end("{}")})});s.listen(0,"127.0.0.1",()=>process.stdout.write(String(s.address().port)+"\\n"));`;
	const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
	const port = await new Promise<number>((resolve, reject) => {
		child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
		child.once("exit", () => reject(new Error("the bench's collector did not start")));
	});
	return {
		endpoint: `http://127.0.0.1:${port}`,
		posts: () => (fs.existsSync(counter) ? Number(fs.readFileSync(counter, "utf8")) : 0),
		close: async () => {
			child.kill();
		},
	};
}

async function freePort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const { port } = server.address() as AddressInfo;
	await new Promise((r) => server.close(r));
	return port;
}

export async function runOtelBench(options: { cli: string; notes: number; rounds: number }): Promise<OtelBenchResult> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), "a2a-bench-otel-"));
	const cli = new CliRunner(options.cli, base);
	const up = await collector(base);
	try {
		process.env.A2A_CACHE_DIR = "off";
		// The vault every run starts from: the requests delivered, their answers in the outboxes.
		const template = path.join(base, "template");
		const notes = Array.from({ length: options.notes }, (_, i) => outboxNote(i));
		writeVault(template, Object.fromEntries(notes.map((n) => [outboxPath(n), n.text])));
		cli.run(["route", "--vault", template]);
		for (const [i, n] of notes.entries()) {
			const answer = `---\nmessage_id: r-${i}\nin_reply_to: m-${i}\ntrace_id: ${/trace_id: (\S+)/.exec(n.text)?.[1]}\nsource_group: ${n.to}\nstatus: success\n---\n\n## Answer\n\nItem ${i} is fine.\n`;
			fs.writeFileSync(path.join(template, "A2A", "groups", n.to, "outbox", `answer-${i}.md`), answer);
		}
		if (!GROUPS.includes(notes[0].to)) throw new Error("unexpected bench groups");
		const dead = `http://127.0.0.1:${await freePort()}`;
		const kinds: [keyof Pick<OtelBenchResult, "off" | "down" | "up">, Record<string, string | undefined>][] = [
			["off", {}],
			["down", { OTEL_EXPORTER_OTLP_ENDPOINT: dead, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }],
			["up", { OTEL_EXPORTER_OTLP_ENDPOINT: up.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }],
		];
		const runs: Record<string, ChildCost[]> = { off: [], down: [], up: [] };
		for (let round = 0; round < options.rounds; round++) {
			for (let k = 0; k < kinds.length; k++) {
				const [kind, env] = kinds[(k + round) % kinds.length];
				const dir = path.join(base, `run-${round}-${kind}`);
				fs.cpSync(template, dir, { recursive: true });
				for (const [key, value] of Object.entries(env)) process.env[key] = value;
				try {
					const run = cli.run(["route", "--vault", dir]);
					if (!new RegExp(`^${options.notes} decision`, "m").test(run.stderr)) throw new Error(`a2a route (${kind}) gave: ${run.stderr.slice(0, 500)}`);
					runs[kind].push(run);
				} finally {
					for (const key of Object.keys(env)) delete process.env[key];
				}
				fs.rmSync(dir, { recursive: true, force: true });
			}
		}
		const off = ms(runs.off);
		const down = ms(runs.down);
		const upMs = ms(runs.up);
		return { notes: options.notes, rounds: options.rounds, off, down, up: upMs, downRatio: down.median / off.median, upRatio: upMs.median / off.median, spansReceived: up.posts() };
	} finally {
		delete process.env.A2A_CACHE_DIR;
		await up.close();
		fs.rmSync(base, { recursive: true, force: true });
	}
}
