import * as fs from "node:fs";
import { printReport } from "./route-report";
import { terminalText } from "../src/core/terminal-text";
import type { PassReport } from "../src/router/router";
import { describeRegistryError } from "../src/core/registry";
import { checkRegistry } from "./session";
import type { Session } from "./session";

// `a2a route --watch`: routes as the file system reports changes (inotify and its kin through
// fs.watch), and otherwise sleeps. One timer is armed at a time, for the next moment there is work
// without a change: a timeout, a note waiting for its writer, the lease's renewal, or the slow check
// for changes the file system did not report. Idle, it reads nothing but the folder listings of
// that check.

export interface WatchOptions {
	/** How often to look for changes no event reported, in milliseconds. */
	intervalMs: number;
	signal?: AbortSignal;
	/** Told of every pass once it is over (telemetry). */
	onReport?: (report: PassReport) => void;
}

const DEBOUNCE_MS = 5;

/** The pause after a round that failed; it doubles while rounds keep failing, up to the longest. */
const FIRST_PAUSE_MS = 1000;
const MAX_PAUSE_MS = 60_000;

/**
 * When the notes that wait for their writer are next worth a look: the earliest time one of them has
 * been quiet for the grace period. `fresh`: every waiting note was just looked at, so earlier times are stale.
 */
function nextRecheck(report: PassReport, waiting: Set<string>, previous: number, fresh: boolean): number {
	if (waiting.size === 0) return Infinity;
	const base = fresh ? Infinity : previous;
	// One millisecond late rather than early: a timer may fire a little before its time by the wall clock.
	return Math.min(base, report.recheckAt !== undefined ? report.recheckAt + 1 : Infinity);
}

/** Why the registry just read is not used, and what the router does meanwhile. */
function unusableRegistryWarning(session: Session): string {
	const { router } = session;
	const why = (router.unusableRegistry?.errors ?? []).map(describeRegistryError).join("; ");
	return `the registry cannot be used now (${why}): routing goes on with the last registry that could be used until it is fixed`;
}

/** Says on stderr which outbox notes wait for their writer and why (rule 2): each time the router looked at one. */
function printWaiting(session: Session, report: PassReport): void {
	for (const [path, reason] of Object.entries(report.waitReasons ?? {})) session.err(terminalText(`waiting for its writer: ${path} (${reason})`));
}

export async function watchRouting(session: Session, options: WatchOptions): Promise<void> {
	const { router, vault } = session;
	if (!session.json) session.err(`Watching ${vault.dir} (${router.layout.root}); press Ctrl+C to stop.`);
	const changed = new Set<string>();
	let everything = true;
	let watchers: fs.FSWatcher[] = [];
	let timer: NodeJS.Timeout | null = null;
	let wake: (() => void) | null = null;
	let stopping = false;
	/** True while pausing after a failed round: changes do not end the pause. */
	let resting = false;
	/** True after a failed round until a round succeeds: every folder is looked at again and every outbox routed. */
	let recovering = false;
	let lastReason = "";
	let registryTrouble = false;
	const waiting = new Set<string>();
	let recheckAt = Infinity;
	/** Message folders that did not exist when watched (a group added later): looked for at each slow check. */
	let unwatched: string[] = [];

	const poke = () => {
		if (wake) {
			const w = wake;
			wake = null;
			w();
		}
	};
	const watchFolders = () => {
		for (const w of watchers) w.close();
		watchers = [];
		unwatched = [];
		const folders = new Set([router.layout.root, ...router.layout.messageFolders()]);
		for (const folder of folders) {
			try {
				const watcher = fs.watch(vault.abs(folder), { persistent: true }, (_event, name) => {
					if (name === null) everything = true;
					else changed.add(`${folder}/${name.toString()}`);
					// After a failed round, changes wait for the pause to end (the next round looks at everything).
					if (resting) return;
					if (timer) clearTimeout(timer);
					timer = setTimeout(poke, DEBOUNCE_MS);
				});
				watcher.on("error", () => {
					everything = true;
				});
				watchers.push(watcher);
			} catch {
				// A folder that does not exist yet: the slow check looks for it until it does.
				unwatched.push(folder);
			}
		}
	};
	const stop = () => {
		stopping = true;
		poke();
	};
	process.once("SIGINT", stop);
	process.once("SIGTERM", stop);
	options.signal?.addEventListener("abort", stop);
	// A request to a remote agent settles in the background: the next pass reports it.
	if (router.forwarder) router.forwarder.onSettled = () => {
		if (!resting) poke();
	};
	watchFolders();
	let nextSlowCheck = Date.now() + options.intervalMs;
	let slowChecks = 0;
	/** One round: what changed is read, a pass routes; returns when the next round is due (now, when more changed meanwhile). */
	const round = async (): Promise<number> => {
		const registryChanged = everything || recovering || changed.has(router.layout.registryPath) || changed.has(router.layout.registryNotePath);
		if (registryChanged && (await router.loadRegistry())) {
			if (router.unusableRegistry) {
				// Said once per spell: the registry may be saved several times before it is good again.
				if (!registryTrouble) session.err(terminalText(`warning: ${unusableRegistryWarning(session)}`));
				registryTrouble = true;
			} else {
				if (registryTrouble) session.err("The registry can be used again: routing with it.");
				registryTrouble = false;
				checkRegistry(session);
				watchFolders();
			}
		}
		let appeared = false;
		if (everything || recovering || Date.now() >= nextSlowCheck) {
			// A folder that appeared since (an agent made its outbox) is watched from now on, and routed at once.
			if (unwatched.some((folder) => fs.existsSync(vault.abs(folder)))) {
				watchFolders();
				appeared = true;
			}
			// The history folders (large) are listed on every tenth check only; their events come through fs.watch.
			await router.indexSync.rescan(!everything, everything || recovering || slowChecks % 10 === 0);
			slowChecks++;
			nextSlowCheck = Date.now() + options.intervalMs;
		}
		const outbox: string[] = [];
		for (const p of changed) {
			const location = router.layout.locate(p);
			if (location.area === "box" && location.box === "outbox") outbox.push(p);
			else await router.indexSync.refresh(p);
		}
		const full = everything || recovering || appeared || changed.has(router.layout.leasePath) || router.lease.renewalDue() || !router.lease.state().held;
		changed.clear();
		everything = false;
		// A note that waits for its writer (rule 2) is looked at again when it changes, or once it has been quiet long enough.
		const recheck = Date.now() >= recheckAt ? [...waiting] : [];
		const report = await router.pass(full ? undefined : [...new Set([...outbox, ...recheck])]);
		if (full || recheck.length > 0) waiting.clear();
		for (const p of outbox) waiting.delete(p);
		for (const p of report.waiting) waiting.add(p);
		recheckAt = nextRecheck(report, waiting, recheckAt, full || recheck.length > 0);
		printReport(session, report);
		options.onReport?.(report);
		printWaiting(session, report);
		if (report.busy && report.standby !== lastReason) session.err(terminalText(`Not routing: ${report.standby ?? "another router routes this vault"}.`));
		if (router.lease.lostTo !== null) {
			session.err(terminalText(`Stopped routing: ${router.lease.lostTo} routes this vault now.`));
			router.lease.lostTo = null;
		}
		lastReason = report.busy ? (report.standby ?? "") : "";
		const now = Date.now();
		if (changed.size > 0) return now;
		const due = router.nextWakeTime();
		const times = [nextSlowCheck, now + router.lease.renewEveryMs];
		if (due !== null) times.push(due);
		if (waiting.size > 0 && Number.isFinite(recheckAt)) times.push(recheckAt);
		return Math.min(...times);
	};
	let failedInARow = 0;
	try {
		while (!stopping) {
			let next: number;
			try {
				next = await round();
				// (A router that found another routing the vault has said so: "Not routing: …".)
				if (failedInARow > 0 && lastReason === "") session.err("Routing again.");
				failedInARow = 0;
				recovering = false;
			} catch (error) {
				// A round that failed (a disk error, a folder that cannot be listed) is said and tried again
				// after a pause that doubles while it keeps failing; no change ends the pause early.
				if (timer) clearTimeout(timer);
				timer = null;
				resting = true;
				recovering = true;
				const pause = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** failedInARow);
				failedInARow++;
				// The lease stays this router's meanwhile: one given up for a pause and taken back could be
				// taken by another device in between, unseen until the sync brings its note.
				session.err(terminalText(`Routing failed: ${error instanceof Error ? error.message : String(error)}. Trying again in ${Math.round(pause / 1000)} s.`));
				next = Date.now() + pause;
			}
			if (stopping) break;
			const wait = next - Date.now();
			if (wait > 0) {
				await new Promise<void>((resolve) => {
					wake = resolve;
					timer = setTimeout(poke, wait);
				});
				if (timer) clearTimeout(timer);
				timer = null;
			}
			resting = false;
		}
	} finally {
		for (const w of watchers) w.close();
		if (timer) clearTimeout(timer);
		process.off("SIGINT", stop);
		process.off("SIGTERM", stop);
		await router.stop();
	}
}
