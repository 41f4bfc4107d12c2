import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { emptyVault, outboxNote, outboxPath } from "../test-support/bench-notes";
import { FOLDER_ID, sleep, startSyncPair } from "../test/helpers/syncthing";
import type { SyncPair } from "../test/helpers/syncthing";
import { writeVault } from "./bench-vault";
import { clockTicksPerSecond, cpuTicks, peakRssMb } from "./cli-process";
import { spread } from "./stats";
import type { Spread } from "./stats";
import { yearHistory } from "./year-vault";

// Issue 29, a year of messages through a real sync service: two Syncthing instances (Debian's
// package, the test pair of test/helpers/syncthing.ts: loopback only, file watcher on with its
// shortest delay of 1 s), on a vault with a year's history in month folders and on an empty vault.
//   - a new device: one side holds the vault, the other an empty folder; from the start of both to
//     both idle with every file on the new side;
//   - a new note written into an outbox on one side, until the other side has its bytes: its
//     delay, against the same on the empty vault's pair (the pairs run in turn, note by note);
//   - a full rescan with nothing changed (Syncthing's hourly safety net), its time and the CPU time
//     of the scanning instance; the CPU of both instances idle meanwhile;
//   - the memory of each instance (peak RSS).

export interface YearSyncResult {
	/** The files the new device received in its first sync. */
	files: number;
	firstSync: { ms: number; filesPerSecond: number; peakRssMb: { sender: number; receiver: number } };
	emptyFirstSyncMs: number;
	note: { history: Spread; empty: Spread; ratio: number; count: number };
	rescan: { history: Spread; empty: Spread; cpuMsHistory: number; cpuMsEmpty: number };
	idle: { percentOfCoreHistory: number; percentOfCoreEmpty: number; windowMs: number };
	peakRssMbAfter: { history: number; empty: number };
}

/** Every file below `dir`, in its subfolders too. */
function filesBelow(dir: string): number {
	let n = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (entry.isDirectory()) n += filesBelow(path.join(dir, entry.name));
		else n++;
	}
	return n;
}

interface Pair {
	pair: SyncPair;
	firstSyncMs: number;
}

async function startPair(base: string, name: string, files: Record<string, string>, timeoutMs: number): Promise<Pair> {
	const a = path.join(base, `${name}-a`);
	const b = path.join(base, `${name}-b`);
	writeVault(a, files);
	fs.mkdirSync(b, { recursive: true });
	const t0 = performance.now();
	const pair = await startSyncPair({ folderA: a, folderB: b, startTimeoutMs: timeoutMs, rescanIntervalS: 3600 });
	return { pair, firstSyncMs: performance.now() - t0 };
}

/** CPU time (ms) both instances of a pair spend while `work` runs. */
async function cpuOf(pair: SyncPair, work: () => Promise<unknown>, which: "a" | "both" = "both"): Promise<number> {
	const pids = which === "a" ? [pair.a.pid] : [pair.a.pid, pair.b.pid];
	const before = pids.map(cpuTicks);
	await work();
	const after = pids.map(cpuTicks);
	return (after.reduce((s, v, i) => s + v - before[i], 0) / clockTicksPerSecond()) * 1000;
}

export async function runYearSyncBench(options: { archived: number; notes: number; rescans: number; idleWindowMs: number }): Promise<YearSyncResult> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), "a2a-bench-year-sync-"));
	let history: Pair | undefined;
	let empty: Pair | undefined;
	try {
		const files = { ...emptyVault(), ...yearHistory(options.archived) };
		history = await startPair(base, "year", files, 30 * 60_000);
		const receiverFiles = filesBelow(history.pair.b.dir);
		if (receiverFiles < options.archived) throw new Error(`the new device has ${receiverFiles} files after the first sync, fewer than the ${options.archived} archived`);
		const firstRss = { sender: peakRssMb(history.pair.a.pid), receiver: peakRssMb(history.pair.b.pid) };
		empty = await startPair(base, "empty", emptyVault(), 120_000);
		const delays: Record<"history" | "empty", number[]> = { history: [], empty: [] };
		for (let i = 0; i < options.notes; i++) {
			for (const which of i % 2 === 0 ? (["history", "empty"] as const) : (["empty", "history"] as const)) {
				const { pair } = which === "history" ? history : empty;
				const note = outboxNote(900_000 + i);
				const rel = outboxPath(note);
				fs.writeFileSync(path.join(pair.a.dir, ...rel.split("/")), note.text);
				delays[which].push(await pair.measureArrival("a", rel, 60_000));
			}
		}
		await history.pair.waitIdle(120_000);
		await empty.pair.waitIdle(120_000);
		const rescans: Record<"history" | "empty", number[]> = { history: [], empty: [] };
		const rescanCpu: Record<"history" | "empty", number[]> = { history: [], empty: [] };
		for (let i = 0; i < options.rescans; i++) {
			for (const which of i % 2 === 0 ? (["history", "empty"] as const) : (["empty", "history"] as const)) {
				const { pair } = which === "history" ? history : empty;
				const t0 = performance.now();
				rescanCpu[which].push(await cpuOf(pair, () => pair.a.rest("POST", `/rest/db/scan?folder=${FOLDER_ID}`, undefined, 600_000), "a"));
				rescans[which].push(performance.now() - t0);
			}
		}
		const idleWindow = async (pair: SyncPair) => ((await cpuOf(pair, () => sleep(options.idleWindowMs))) / options.idleWindowMs) * 100;
		const idleHistory = await idleWindow(history.pair);
		const idleEmpty = await idleWindow(empty.pair);
		const noteHistory = spread(delays.history);
		const noteEmpty = spread(delays.empty);
		return {
			files: receiverFiles,
			firstSync: { ms: history.firstSyncMs, filesPerSecond: receiverFiles / (history.firstSyncMs / 1000), peakRssMb: firstRss },
			emptyFirstSyncMs: empty.firstSyncMs,
			note: { history: noteHistory, empty: noteEmpty, ratio: noteHistory.median / noteEmpty.median, count: options.notes },
			rescan: { history: spread(rescans.history), empty: spread(rescans.empty), cpuMsHistory: spread(rescanCpu.history).median, cpuMsEmpty: spread(rescanCpu.empty).median },
			idle: { percentOfCoreHistory: idleHistory, percentOfCoreEmpty: idleEmpty, windowMs: options.idleWindowMs },
			peakRssMbAfter: { history: Math.max(peakRssMb(history.pair.a.pid), peakRssMb(history.pair.b.pid)), empty: Math.max(peakRssMb(empty.pair.a.pid), peakRssMb(empty.pair.b.pid)) },
		};
	} finally {
		await history?.pair.stop();
		await empty?.pair.stop();
		fs.rmSync(base, { recursive: true, force: true });
	}
}
