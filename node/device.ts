import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hash128 } from "../src/core/hash";
import type { DeviceIdentity } from "../src/core/lease";
import type { LeaseObservations, LocalLock } from "../src/router/lease-keeper";

// The CLI's identity in the router's lease (this machine, or A2A_DEVICE), the lock that keeps two
// `a2a route` processes of this machine from routing one vault at once, and where the CLI keeps what
// it observed of the lease between runs. The lock and the observations live outside the vault (in
// the system's temporary folder): they describe this machine, and no sync service must carry them.

export function cliIdentity(role: string): DeviceIdentity {
	const device = process.env.A2A_DEVICE?.trim() || `cli@${os.hostname()}`;
	return { device, name: `${role} on ${device.replace(/^cli@/, "")}`, yields: false };
}

function stateFile(vaultDir: string, root: string, suffix: string): string {
	const key = hash128(`${fs.realpathSync(vaultDir)}\n${root}\n${process.env.A2A_DEVICE ?? ""}`).map((n) => n.toString(16)).join("").slice(0, 20);
	return path.join(os.tmpdir(), `a2a-relay-${key}.${suffix}`);
}

export function fileObservations(vaultDir: string, root: string): LeaseObservations {
	const file = stateFile(vaultDir, root, "observed.json");
	return {
		load: () => {
			try {
				const data = JSON.parse(fs.readFileSync(file, "utf8")) as { key?: unknown; since?: unknown };
				return typeof data.key === "string" && typeof data.since === "number" ? { key: data.key, since: data.since } : null;
			} catch {
				return null;
			}
		},
		save: (observation) => {
			try {
				fs.writeFileSync(file, JSON.stringify(observation));
			} catch {
				// Only an optimisation across runs: without it the next run observes afresh.
			}
		},
	};
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** Where the routing lock of a vault lives on this machine. */
export function processLockPath(vaultDir: string, root: string): string {
	return stateFile(vaultDir, root, "lock");
}

/** A lock file holding the pid of the process that routes; taken over when that process is gone. */
export function processLock(vaultDir: string, root: string, describe: string): LocalLock {
	const file = processLockPath(vaultDir, root);
	let held = false;
	const acquire = (): true | string => {
		if (held) return true;
		const record = JSON.stringify({ pid: process.pid, what: describe });
		for (let attempt = 0; attempt < 3; attempt++) {
			const temp = `${file}.${process.pid}.tmp`;
			fs.writeFileSync(temp, record);
			try {
				fs.linkSync(temp, file);
				held = true;
				return true;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			} finally {
				fs.rmSync(temp, { force: true });
			}
			let owner: { pid?: number; what?: string } = {};
			try {
				owner = JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: number; what?: string };
			} catch {
				// Unreadable: treated as abandoned below.
			}
			if (owner.pid === process.pid) {
				held = true;
				return true;
			}
			if (typeof owner.pid === "number" && isAlive(owner.pid)) return `${owner.what ?? "another a2a process"} (pid ${owner.pid}) routes this vault on this machine`;
			// The holder is gone: move its lock aside (only one taker can) and try again.
			const aside = `${file}.${process.pid}.stale`;
			try {
				fs.renameSync(file, aside);
			} catch {
				continue; // Someone else moved it first.
			}
			let moved: { pid?: number } = {};
			try {
				moved = JSON.parse(fs.readFileSync(aside, "utf8")) as { pid?: number };
			} catch {
				// Unreadable: it was the abandoned one.
			}
			if (moved.pid !== owner.pid) {
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
			try {
				const owner = JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: number };
				if (owner.pid === process.pid) fs.rmSync(file, { force: true });
			} catch {
				// Already gone.
			}
		},
	};
}
