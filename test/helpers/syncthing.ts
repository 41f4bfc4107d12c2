import { execFile, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { configXml, freePorts } from "./syncthing-config";

// Two real Syncthing instances (Debian's `syncthing`, 1.19) keeping two folders in step over
// loopback, for tests of what a sync engine does to a vault. test/cli/syncthing-harness.test.ts
// shows what it does and what Syncthing does with files (both ways, dot-files, mtime, deletes,
// pause, conflict copies).
//
// Every pair a test starts must be stopped by that test, also when it fails:
//
//     const pair = await startSyncPair({ folderA, folderB });
//     try { ... } finally { await pair.stop(); }
//
// or `let pair: SyncPair | undefined` with `afterAll(() => pair?.stop())`. `stop()` may be called
// any number of times. As a last resort, every Syncthing process still running when the test
// worker exits is killed (SIGKILL to its process group) by an exit handler of this module.
//
// Network: each instance binds its GUI/REST and its sync listener to 127.0.0.1 only; a knows b by
// its explicit tcp://127.0.0.1:PORT address and dials it, b knows a as `dynamic` (nothing, with
// discovery off) and only accepts (see startSyncPair for why); global and local discovery, relays,
// NAT traversal, STUN, usage and crash reporting and upgrades are off (startSyncPair checks the
// running config and refuses to go on otherwise). Syncthing gets an environment built from
// scratch: no proxy variable reaches it.

const run = promisify(execFile);

/** The Syncthing binary; `.ci/run` installs Debian's package when it is missing. */
export const SYNCTHING = process.env.SYNCTHING_BIN ?? "syncthing";

/** The folder ID both instances share. */
export const FOLDER_ID = "vault";

/**
 * How Syncthing 1.19 names a conflict copy: `<name>.sync-conflict-<YYYYMMDD>-<HHMMSS>-<short ID><.ext>`.
 * The copy holds the losing version (the older modification time loses) and keeps its modification
 * time; the date is when the conflict was resolved (local time of the device that renamed its file);
 * the short ID is the first 7 characters of the ID of the device that made the *winning* change.
 * The copy is then synced like any file, so both sides end up with it.
 * Groups: 1 the name before the extension, 2 date, 3 time, 4 short device ID, 5 the extension (with its dot), if any.
 */
export const SYNC_CONFLICT_NAME = /^(.*)\.sync-conflict-(\d{8})-(\d{6})-([A-Z2-7]{7})(\.[^./]*)?$/;

/**
 * Whether a vault-relative path is a Syncthing temporary file (`.syncthing.<name>.tmp`): a pull
 * not yet renamed into place, or one left over when the local file changed during the pull (kept
 * for reuse, removed after a day). It holds a copy of another device's version, not a file of the vault.
 */
export const isSyncTemp = (rel: string) => /^\.syncthing\..*\.tmp$/.test(rel.split("/").pop() ?? rel);

/** Whether a vault-relative path (or a bare file name) is a Syncthing conflict copy. */
export const isSyncConflict = (rel: string) => SYNC_CONFLICT_NAME.test(rel.split("/").pop() ?? rel);

export type SideName = "a" | "b";

/** One Syncthing instance of a pair. */
export interface SyncSide {
	name: SideName;
	/** The synced folder (folderA or folderB). */
	dir: string;
	/** Syncthing's home (config, keys, database); removed by stop(). */
	home: string;
	deviceId: string;
	/** First 7 characters of the device ID, as used in conflict copy names. */
	shortId: string;
	/** http://127.0.0.1:PORT of its GUI/REST API. */
	url: string;
	apiKey: string;
	pid: number;
	/** A REST call with the API key; resolves with the parsed JSON (or the text when it is not JSON). */
	rest(method: "GET" | "POST" | "PUT" | "PATCH", route: string, body?: unknown, timeoutMs?: number): Promise<unknown>;
	/** The last lines Syncthing printed (for error messages). */
	log(): string;
}

export interface SyncPairOptions {
	folderA: string;
	folderB: string;
	/** Full rescan interval; the file watcher does the real work. Default 60. */
	rescanIntervalS?: number;
	/** How long the file watcher gathers changes before a scan: whole seconds (1.19 refuses "0.5"). Default 1. */
	fsWatcherDelayS?: number;
	/** Time allowed for both instances to start, connect and report the folder idle. Default 45 s. */
	startTimeoutMs?: number;
}

export interface DelayStats {
	count: number;
	minMs: number;
	medianMs: number;
	maxMs: number;
}

export interface SyncPair {
	a: SyncSide;
	b: SyncSide;
	/** Both sides, [a, b]. */
	sides: [SyncSide, SyncSide];
	/**
	 * Resolves when both sides are in step: each has scanned its folder (a scan is requested first, so
	 * writes the file watcher has not reported yet count), is connected to the other, its folder is
	 * `idle` with nothing needed and no pull errors, sees the other side as 100 % complete, and both
	 * agree on the global counts (files, directories, symlinks, deleted, bytes) — twice in a row.
	 * Rejects with the last observed difference after `timeoutMs`.
	 */
	waitIdle(timeoutMs?: number): Promise<void>;
	/**
	 * Cuts the connection: a pauses b (POST /rest/system/pause?device=B on a) and this waits until
	 * both report it disconnected. Each side keeps scanning its own folder; nothing crosses.
	 */
	pause(timeoutMs?: number): Promise<void>;
	/** Resumes b on a (POST /rest/system/resume?device=B; a dials b at once) and waits until both report it connected. */
	resume(timeoutMs?: number): Promise<void>;
	/** Has both sides scan their folder now; resolves when both scans are done. */
	scan(timeoutMs?: number): Promise<void>;
	/** Whether both sides report the other as connected. */
	connected(): Promise<boolean>;
	/**
	 * Writes `content` to `rel` on side `from` and waits until the other side has the same bytes;
	 * returns the delay in ms (also recorded in `delays`).
	 */
	writeAndMeasure(from: SideName, rel: string, content: string | Buffer, timeoutMs?: number): Promise<number>;
	/**
	 * For a file just written on side `from`: waits until the other side has the same bytes and
	 * returns (and records) the time from the file's modification time on `from` to the moment it was
	 * seen on the other side (polled every 20 ms). Call it right after the write: the clock starts at
	 * the write, not at the call.
	 */
	measureArrival(from: SideName, rel: string, timeoutMs?: number): Promise<number>;
	/** Waits until `rel` no longer exists on side `on`. */
	waitGone(on: SideName, rel: string, timeoutMs?: number): Promise<void>;
	/** Every delay measured so far, in ms, in the order measured. */
	delays: number[];
	delayStats(): DelayStats;
	/** Shuts both instances down (REST shutdown, then SIGTERM, then SIGKILL to the process group) and removes their homes. */
	stop(): Promise<void>;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Thrown from a pollUntil check: stop polling now, waiting longer cannot help. */
export class GiveUp extends Error {}

/**
 * Calls `check` until it returns null (done) or the time runs out, waiting 50 ms, then longer (up to
 * `maxStepMs`) between calls. A string from `check` says what is still missing; the last one is in
 * the error.
 */
export async function pollUntil(what: string, timeoutMs: number, check: () => Promise<string | null>, maxStepMs = 500): Promise<void> {
	// an error from `check` counts as "not yet", except a GiveUp
	const deadline = Date.now() + timeoutMs;
	let step = 50;
	let last = "not checked yet";
	for (;;) {
		try {
			const missing = await check();
			if (missing === null) return;
			last = missing;
		} catch (error) {
			if (error instanceof GiveUp) throw error;
			last = error instanceof Error ? error.message : String(error);
		}
		if (Date.now() >= deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms (${last})`);
		await sleep(Math.min(step, Math.max(0, deadline - Date.now())));
		step = Math.min(maxStepMs, step * 2);
	}
}

// ---------------------------------------------------------------------------------------------
// Processes: every Syncthing child this module started and has not seen exit.

const running = new Set<ChildProcess>();
let exitHandlerInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// the group is gone already
	}
}

function track(child: ChildProcess): void {
	running.add(child);
	child.once("exit", () => running.delete(child));
	if (!exitHandlerInstalled) {
		exitHandlerInstalled = true;
		process.once("exit", () => {
			for (const c of running) killGroup(c, "SIGKILL");
		});
	}
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
	if (exited(child)) return Promise.resolve(true);
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(exited(child)), ms);
		child.once("exit", () => {
			clearTimeout(timer);
			resolve(true);
		});
	});
}

// ---------------------------------------------------------------------------------------------
// REST

function restCall(url: string, apiKey: string, method: string, route: string, body: unknown, timeoutMs: number): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
		const req = http.request(
			`${url}${route}`,
			{
				method,
				headers: { "X-API-Key": apiKey, ...(data ? { "Content-Type": "application/json", "Content-Length": data.length } : {}) },
				timeout: timeoutMs,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (c: Buffer) => chunks.push(c));
				res.on("end", () => {
					const text = Buffer.concat(chunks).toString("utf8");
					if ((res.statusCode ?? 0) >= 300) return reject(new Error(`${method} ${route}: HTTP ${res.statusCode} ${text.trim()}`));
					try {
						resolve(text ? JSON.parse(text) : null);
					} catch {
						resolve(text);
					}
				});
				res.on("error", reject);
			},
		);
		req.on("timeout", () => req.destroy(new Error(`${method} ${route}: no answer within ${timeoutMs} ms`)));
		req.on("error", reject);
		req.end(data);
	});
}

// ---------------------------------------------------------------------------------------------
// One instance

interface Instance extends SyncSide {
	child: ChildProcess;
}

async function generateHome(home: string): Promise<string> {
	await run(SYNCTHING, ["generate", "--home", home, "--no-default-folder", "--skip-port-probing"], { env: syncthingEnv(home) }).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") throw new Error(`${SYNCTHING} not found: install Debian's syncthing package (.ci/run does when it is missing)`);
		throw error;
	});
	const generated = await fs.readFile(path.join(home, "config.xml"), "utf8");
	const id = /<device id="([A-Z2-7]{7}(?:-[A-Z2-7]{7}){7})"/.exec(generated)?.[1];
	if (!id) throw new Error(`syncthing generate wrote no device ID in ${home}/config.xml`);
	return id;
}

function syncthingEnv(home: string): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		STNODEFAULTFOLDER: "1",
		STNOUPGRADE: "1",
		STNORESTART: "1",
		// Run Syncthing itself, not its monitor: `serve` otherwise forks the real instance into a
		// process group of its own, which a signal to the monitor's group does not reach.
		STMONITORED: "1",
		// conflict copy names carry local time: the same zone as the test's
		...(process.env.TZ ? { TZ: process.env.TZ } : {}),
		// for debugging, e.g. STTRACE=connections,dialer (see `syncthing serve --help`)
		...(process.env.STTRACE ? { STTRACE: process.env.STTRACE } : {}),
	};
}

function startInstance(side: Omit<SyncSide, "pid" | "rest" | "log">): Instance {
	const child = spawn(SYNCTHING, ["serve", "--home", side.home, "--no-browser", "--no-restart", "--no-upgrade", "--logflags=3"], {
		env: syncthingEnv(side.home),
		stdio: ["ignore", "pipe", "pipe"],
		detached: true, // its own process group, so stop() can signal everything it may start
	});
	track(child);
	const lines: string[] = [];
	const keep = (chunk: Buffer) => {
		lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
		if (lines.length > 200) lines.splice(0, lines.length - 200);
	};
	child.stdout?.on("data", keep);
	child.stderr?.on("data", keep);
	child.on("error", (error) => lines.push(`spawn error: ${error.message}`));
	return {
		...side,
		child,
		pid: child.pid ?? -1,
		rest: (method, route, body, timeoutMs = 10_000) => restCall(side.url, side.apiKey, method, route, body, timeoutMs),
		log: () => `[${side.name}] ${lines.slice(-60).join(`\n[${side.name}] `)}`,
	};
}

async function stopInstance(s: Instance): Promise<void> {
	if (!exited(s.child)) {
		await s.rest("POST", "/rest/system/shutdown", undefined, 3000).catch(() => undefined);
		if (!(await waitExit(s.child, 10_000))) {
			killGroup(s.child, "SIGTERM");
			if (!(await waitExit(s.child, 5000))) {
				killGroup(s.child, "SIGKILL");
				await waitExit(s.child, 5000);
			}
		}
	}
	// anything it started in its group, should there be anything
	killGroup(s.child, "SIGKILL");
	await fs.rm(s.home, { recursive: true, force: true });
}

interface ConfigView {
	options: Record<string, unknown>;
	gui: { address: string };
	devices: { deviceID: string; addresses: string[] }[];
	folders: { id: string; path: string; fsWatcherEnabled: boolean }[];
}

/** Refuses an instance whose running config would reach anything but the other instance on loopback. */
async function checkIsolated(s: Instance, peer: Instance): Promise<void> {
	const cfg = (await s.rest("GET", "/rest/config")) as ConfigView;
	const o = cfg.options;
	const problems: string[] = [];
	const expect = (what: string, ok: boolean) => ok || problems.push(what);
	expect("global discovery off", o.globalAnnounceEnabled === false);
	expect("local discovery off", o.localAnnounceEnabled === false);
	expect("relays off", o.relaysEnabled === false);
	expect("NAT traversal off", o.natEnabled === false);
	expect("crash reporting off", o.crashReportingEnabled === false);
	expect("usage reporting declined", typeof o.urAccepted === "number" && o.urAccepted < 0);
	expect("auto upgrade off", o.autoUpgradeIntervalH === 0);
	const listen = Array.isArray(o.listenAddresses) ? (o.listenAddresses as string[]) : [];
	expect("listens on loopback only", listen.length > 0 && listen.every((addr) => addr.startsWith("tcp://127.0.0.1:")));
	expect("GUI on loopback", cfg.gui.address.startsWith("127.0.0.1:"));
	const other = cfg.devices.find((d) => d.deviceID === peer.deviceId);
	expect("peer at a loopback address or none", !!other && other.addresses.every((addr) => addr === "dynamic" || addr.startsWith("tcp://127.0.0.1:")));
	const folder = cfg.folders.find((f) => f.id === FOLDER_ID);
	expect("folder shared with the watcher on", !!folder && folder.fsWatcherEnabled && path.resolve(folder.path) === path.resolve(s.dir));
	if (problems.length) throw new Error(`syncthing ${s.name}: config not as written (${problems.join(", ")}): ${JSON.stringify(cfg.options)}`);
}

// ---------------------------------------------------------------------------------------------
// State of a side, as REST reports it

interface DbStatus {
	state: string;
	needFiles: number;
	needDirectories: number;
	needSymlinks: number;
	needDeletes: number;
	pullErrors?: number;
	globalFiles: number;
	globalDirectories: number;
	globalSymlinks: number;
	globalDeleted: number;
	globalBytes: number;
}

interface Completion {
	completion: number;
	needItems: number;
	needDeletes: number;
}

async function isConnected(s: SyncSide, peer: SyncSide): Promise<boolean> {
	const c = (await s.rest("GET", "/rest/system/connections")) as { connections: Record<string, { connected: boolean }> };
	return c.connections[peer.deviceId]?.connected === true;
}

/** Null when `s` is in step with `peer` (see SyncPair.waitIdle), else what is not; `global` gets its global counts. */
async function notInStep(s: SyncSide, peer: SyncSide, global: string[]): Promise<string | null> {
	if (!(await isConnected(s, peer))) return `${s.name} not connected to ${peer.name}`;
	const st = (await s.rest("GET", `/rest/db/status?folder=${FOLDER_ID}`)) as DbStatus;
	global.push(`${st.globalFiles}/${st.globalDirectories}/${st.globalSymlinks}/${st.globalDeleted}/${st.globalBytes}`);
	if (st.state !== "idle") return `${s.name} folder ${st.state}`;
	const need = st.needFiles + st.needDirectories + st.needSymlinks + st.needDeletes;
	if (need > 0) return `${s.name} needs ${need} items`;
	if (st.pullErrors) return `${s.name} has ${st.pullErrors} pull errors`;
	const c = (await s.rest("GET", `/rest/db/completion?folder=${FOLDER_ID}&device=${peer.deviceId}`)) as Completion;
	if (c.completion < 100 || c.needItems > 0 || c.needDeletes > 0) return `${s.name} sees ${peer.name} at ${c.completion}% (${c.needItems} items, ${c.needDeletes} deletes needed)`;
	return null;
}

// ---------------------------------------------------------------------------------------------
// The pair

function median(sorted: number[]): number {
	const m = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

export async function startSyncPair(options: SyncPairOptions): Promise<SyncPair> {
	const rescanIntervalS = options.rescanIntervalS ?? 60;
	const fsWatcherDelayS = options.fsWatcherDelayS ?? 1;
	if (!Number.isInteger(fsWatcherDelayS) || fsWatcherDelayS < 1) throw new Error(`fsWatcherDelayS must be a whole number of seconds, not ${fsWatcherDelayS}`);
	if (!Number.isInteger(rescanIntervalS) || rescanIntervalS < 0) throw new Error(`rescanIntervalS must be a whole number of seconds, not ${rescanIntervalS}`);
	const dirs = { a: path.resolve(options.folderA), b: path.resolve(options.folderB) };
	const homes = { a: await fs.mkdtemp(path.join(os.tmpdir(), "a2a-st-a-")), b: await fs.mkdtemp(path.join(os.tmpdir(), "a2a-st-b-")) };
	const started: Instance[] = [];
	try {
		const [idA, idB] = await Promise.all([generateHome(homes.a), generateHome(homes.b)]);
		const [guiA, guiB, listenA, listenB] = await freePorts(4);
		// Only a dials b. Syncthing 1.19 dials from its own listen port (SO_REUSEPORT), so two
		// instances dialing each other at once make one TCP connection by simultaneous open, on which
		// both sides act as TLS client and hang until the 20 s Hello timeout: b never dials a.
		const plan = [
			{ name: "b" as const, id: idB, gui: guiB, listen: listenB, peer: { deviceId: idA, name: "a" } },
			{ name: "a" as const, id: idA, gui: guiA, listen: listenA, peer: { deviceId: idB, name: "b", listenPort: listenB } },
		];
		const startTimeout = options.startTimeoutMs ?? 45_000;
		// b first, answering (its sync listener starts before its REST API), so a's first dial finds it
		for (const p of plan) {
			const dir = dirs[p.name];
			const apiKey = randomBytes(16).toString("hex");
			await fs.mkdir(path.join(dir, ".stfolder"), { recursive: true }); // the folder marker Syncthing requires
			const xml = configXml({
				deviceId: p.id,
				name: p.name,
				guiPort: p.gui,
				apiKey,
				listenPort: p.listen,
				peer: p.peer,
				folder: { id: FOLDER_ID, path: dir, rescanIntervalS, fsWatcherDelayS },
			});
			await fs.writeFile(path.join(homes[p.name], "config.xml"), xml, { mode: 0o600 });
			const s = startInstance({ name: p.name, dir, home: homes[p.name], deviceId: p.id, shortId: p.id.slice(0, 7), url: `http://127.0.0.1:${p.gui}`, apiKey });
			started.push(s);
			await pollUntil(`syncthing ${s.name} answers on ${s.url}`, startTimeout, async () => {
				if (exited(s.child)) throw new GiveUp(`syncthing ${s.name} exited (${s.child.exitCode ?? s.child.signalCode})`);
				const r = (await s.rest("GET", "/rest/system/ping", undefined, 2000)) as { ping?: string };
				return r.ping === "pong" ? null : "no pong";
			});
		}
		const [b, a] = started;
		await checkIsolated(a, b);
		await checkIsolated(b, a);
		const pair = makePair(a, b);
		await pair.waitIdle(startTimeout);
		return pair;
	} catch (error) {
		const logs = started.map((s) => s.log()).join("\n");
		await Promise.all(started.map(stopInstance));
		await Promise.all(Object.values(homes).map((h) => fs.rm(h, { recursive: true, force: true })));
		if (error instanceof Error) error.message += `\n--- syncthing output ---\n${logs}`;
		throw error;
	}
}

function makePair(a: Instance, b: Instance): SyncPair {
	const side = (n: SideName) => (n === "a" ? a : b);
	const other = (n: SideName) => (n === "a" ? b : a);
	const delays: number[] = [];
	let stopping: Promise<void> | undefined;

	const waitConnected = (want: boolean, timeoutMs: number) =>
		pollUntil(want ? "both sides connected" : "both sides disconnected", timeoutMs, async () => {
			const [ab, ba] = await Promise.all([isConnected(a, b), isConnected(b, a)]);
			return ab === want && ba === want ? null : `a→b connected ${ab}, b→a connected ${ba}`;
		});

	const measureArrival = async (from: SideName, rel: string, timeoutMs = 30_000, since?: number) => {
		const src = path.join(side(from).dir, ...rel.split("/"));
		const dst = path.join(other(from).dir, ...rel.split("/"));
		const [st, want] = await Promise.all([fs.stat(src), fs.readFile(src)]);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const got = await fs.readFile(dst).catch(() => null);
			if (got && got.equals(want)) break;
			if (Date.now() > deadline) throw new Error(`${rel} written on ${from} did not arrive on ${other(from).name} within ${timeoutMs} ms`);
			await sleep(20);
		}
		const ms = Math.max(0, Date.now() - (since ?? st.mtimeMs));
		delays.push(ms);
		return ms;
	};

	const pair: SyncPair = {
		a,
		b,
		sides: [a, b],
		delays,
		async waitIdle(timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs;
			const scanTimeout = () => Math.max(1000, deadline - Date.now());
			// writes the watcher has not reported yet are known once the scans are done
			await pair.scan(scanTimeout());
			let inStepBefore = false;
			await pollUntil("both folders idle and in step", Math.max(0, deadline - Date.now()), async () => {
				const global: string[] = [];
				const missing = (await notInStep(a, b, global)) ?? (await notInStep(b, a, global));
				const agreed = missing ?? (global[0] === global[1] ? null : `global state differs: a ${global[0]}, b ${global[1]} (files/dirs/symlinks/deleted/bytes)`);
				const done = agreed === null && inStepBefore;
				inStepBefore = agreed === null;
				return done ? null : (agreed ?? "in step once, checking again");
			});
		},
		async pause(timeoutMs = 20_000) {
			await a.rest("POST", `/rest/system/pause?device=${b.deviceId}`);
			await waitConnected(false, timeoutMs);
		},
		async resume(timeoutMs = 45_000) {
			await a.rest("POST", `/rest/system/resume?device=${b.deviceId}`);
			await waitConnected(true, timeoutMs);
		},
		async scan(timeoutMs = 30_000) {
			// POST /rest/db/scan answers when the scan is done
			await Promise.all([a, b].map((s) => s.rest("POST", `/rest/db/scan?folder=${FOLDER_ID}`, undefined, timeoutMs)));
		},
		async connected() {
			const [ab, ba] = await Promise.all([isConnected(a, b), isConnected(b, a)]);
			return ab && ba;
		},
		async writeAndMeasure(from, rel, content, timeoutMs) {
			const file = path.join(side(from).dir, ...rel.split("/"));
			await fs.mkdir(path.dirname(file), { recursive: true });
			const before = Date.now();
			await fs.writeFile(file, content);
			return measureArrival(from, rel, timeoutMs, before);
		},
		measureArrival,
		async waitGone(on, rel, timeoutMs = 30_000) {
			const file = path.join(side(on).dir, ...rel.split("/"));
			await pollUntil(`${rel} gone on ${on}`, timeoutMs, async () => ((await fs.stat(file).then(() => true, () => false)) ? "still there" : null), 200);
		},
		delayStats() {
			const sorted = [...delays].sort((x, y) => x - y);
			if (!sorted.length) return { count: 0, minMs: 0, medianMs: 0, maxMs: 0 };
			return { count: sorted.length, minMs: sorted[0], medianMs: median(sorted), maxMs: sorted[sorted.length - 1] };
		},
		stop() {
			stopping ??= Promise.all([stopInstance(a), stopInstance(b)]).then(() => undefined);
			return stopping;
		},
	};
	return pair;
}
