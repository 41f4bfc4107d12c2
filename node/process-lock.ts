import * as fs from "node:fs";
import type { LocalLock } from "../src/router/lease-keeper";
import { isCode } from "./fs-facts";
import { linkIntoPlace, readFileBytes, tempPathFor, writeNew } from "./file-ops";

// The lock that keeps two `a2a route` processes of one user on one device from routing one vault at
// once (src/router/lease-keeper.ts, LocalLock): a file in the user's private state folder
// (node/state-folder.ts) naming the process that routes. It counts only while that very process
// runs as this user: a lock whose pid is gone, answers EPERM (another user's process), belongs to
// another user, or was reused by a process started at another moment than the one recorded is stale
// and taken over. The lock is made under a fresh name and linked into place, never written through a
// link; it is read without following one.

interface LockRecord {
	pid?: unknown;
	/** The holder's start time (Linux: /proc/<pid>/stat field 22, in clock ticks since boot). */
	start?: unknown;
	what?: unknown;
}

/** What the lock asks of the system about a pid (the real one by default; tests give their own). */
export interface ProcessProbe {
	/** process.kill(pid, 0): throws ESRCH when there is no such process, EPERM when it is another user's. */
	signal(pid: number): void;
	/** The uid that owns the process, or undefined where the system does not say (no /proc). */
	owner(pid: number): number | undefined;
	/** The process's start time, or undefined where the system does not say. */
	startTime(pid: number): string | undefined;
	uid(): number | undefined;
}

/** The start time of a process from /proc/<pid>/stat (field 22, after the parenthesised name). */
function procStart(pid: number): string | undefined {
	try {
		const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
		return /^\d+$/.test(fields[19] ?? "") ? fields[19] : undefined;
	} catch {
		return undefined;
	}
}

export const SYSTEM_PROBE: ProcessProbe = {
	signal: (pid) => void process.kill(pid, 0),
	owner: (pid) => {
		try {
			return fs.statSync(`/proc/${pid}`).uid;
		} catch {
			return undefined;
		}
	},
	startTime: procStart,
	uid: () => (typeof process.getuid === "function" ? process.getuid() : undefined),
};

/** True only when the lock's holder is a live process of this user's, the very one that wrote it. */
export function holderRuns(record: LockRecord, probe: ProcessProbe = SYSTEM_PROBE): boolean {
	const pid = record.pid;
	if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return false;
	try {
		probe.signal(pid);
	} catch {
		// ESRCH: gone. EPERM: another user's process, which no lock of this user's can name.
		return false;
	}
	const uid = probe.uid();
	const owner = probe.owner(pid);
	if (uid !== undefined && owner !== undefined && owner !== uid) return false;
	// Where the system tells start times (Linux), the pid must still be the process that wrote the lock.
	if (probe.startTime(process.pid) !== undefined) return record.start === probe.startTime(pid);
	return true;
}

function readRecord(file: string): LockRecord | null {
	try {
		const read = readFileBytes(file);
		return read === null ? {} : (JSON.parse(read.bytes.toString("utf8")) as LockRecord);
	} catch (error) {
		// Missing: null. Unreadable (a link, garbage): an empty record, which no holder runs.
		return isCode(error, "ENOENT") ? null : {};
	}
}

/** A lock file at `file` holding the pid of the process that routes; taken over when it is stale. */
export function processLock(file: string, describe: string, probe: ProcessProbe = SYSTEM_PROBE): LocalLock {
	let held = false;
	const mine = (record: LockRecord | null) => record !== null && record.pid === process.pid && record.start === (probe.startTime(process.pid) ?? null);
	const acquire = (): true | string => {
		if (held) return true;
		const content = JSON.stringify({ pid: process.pid, start: probe.startTime(process.pid) ?? null, what: describe });
		for (let attempt = 0; attempt < 3; attempt++) {
			const temp = tempPathFor(file);
			writeNew(temp, content, 0o600);
			if (linkIntoPlace(temp, file, content)) {
				held = true;
				return true;
			}
			const owner = readRecord(file);
			if (owner === null) continue; // Released meanwhile: try again.
			if (mine(owner)) {
				held = true;
				return true;
			}
			if (holderRuns(owner, probe)) return `${typeof owner.what === "string" ? owner.what : "another a2a process"} (pid ${String(owner.pid)}) routes this vault on this machine`;
			// The holder is gone: move its lock aside (only one taker can) and try again.
			const aside = `${tempPathFor(file)}.stale`;
			try {
				fs.renameSync(file, aside);
			} catch {
				continue; // Someone else moved it first.
			}
			const moved = readRecord(aside) ?? {};
			if (JSON.stringify(moved) !== JSON.stringify(owner)) {
				// A live process's fresh lock was moved: put it back.
				try {
					fs.linkSync(aside, file);
				} catch {
					// A third process took the lock meanwhile.
				}
				fs.rmSync(aside, { force: true });
				return "another a2a process took the routing lock";
			}
			fs.rmSync(aside, { force: true });
		}
		return "another a2a process is taking the routing lock";
	};
	return {
		acquire,
		release: () => {
			if (!held) return;
			held = false;
			if (mine(readRecord(file))) fs.rmSync(file, { force: true });
		},
	};
}
