import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import type { DeviceIdentity } from "../src/core/lease";
import type { LeaseObservations, LocalLock } from "../src/router/lease-keeper";
import { linkIntoPlace, tempPathFor, writeNew, writeWhole } from "./file-ops";
import { processLock } from "./process-lock";
import { DeviceState, DeviceStateError, readPrivate } from "./state-folder";

// The CLI as a device in the router's lease (docs/protocol.md, "One router at a time"): its id, made
// at random once per user and vault and kept in the user's private state folder
// (node/state-folder.ts), or A2A_DEVICE when set; the host name is only in the name people read, so
// that two machines with one host name (containers, cloned VMs) are two devices. Beside the id, in
// the same folder: the lock that keeps two `a2a route` of this user apart, and what the router
// observed of the lease between runs. All three are kept per machine (machineFingerprint): a state
// folder copied to another machine (a cloned VM, a container image built after a first route, a
// restored backup) or shared by two (a home on NFS) is not found there, so each machine makes its own
// id, takes its own lock and keeps its own observations, and two machines are never one device.

const ID_PATTERN = /^cli-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The A2A_DEVICE override, trimmed; undefined when unset or blank. */
function deviceOverride(env: NodeJS.ProcessEnv): string | undefined {
	return env.A2A_DEVICE?.trim() || undefined;
}

/**
 * What tells this machine from another with a copy of its files: the system's machine id
 * (/etc/machine-id, else /var/lib/dbus/machine-id; A2A_MACHINE_ID_FILE names another file, for
 * tests) and the host name. Only its hash is written, as part of the state files' names.
 */
export function machineFingerprint(env: NodeJS.ProcessEnv = process.env): string {
	const sources = env.A2A_MACHINE_ID_FILE ? [env.A2A_MACHINE_ID_FILE] : ["/etc/machine-id", "/var/lib/dbus/machine-id"];
	let machineId = "";
	for (const source of sources) {
		try {
			machineId = fs.readFileSync(source, "utf8").trim();
		} catch {
			machineId = "";
		}
		if (machineId !== "") break;
	}
	return `machine ${machineId}\nhost ${os.hostname()}`;
}

/** This user's id of this vault's device on this machine, made (at random) on first use. */
export function deviceId(state: DeviceState, env: NodeJS.ProcessEnv = process.env): string {
	state.ensureFolder();
	const file = statePaths(state, env).device;
	const read = () => {
		const text = readPrivate(file);
		if (text === "unusable" || (text !== null && !ID_PATTERN.test(text.trim()))) {
			throw new DeviceStateError(`${file} should hold this device's id but is not a private file of this user's holding one (a link, another user's file, or edited): remove it, and this device gets a new id`);
		}
		return text?.trim() ?? null;
	};
	const found = read();
	if (found !== null) return found;
	const made = `cli-${randomUUID()}\n`;
	const temp = tempPathFor(file);
	writeNew(temp, made, 0o600);
	// Linked into place whole, never over an id another process made at the same moment: read what won.
	linkIntoPlace(temp, file, made);
	const id = read();
	if (id === null) throw new DeviceStateError(`${file}: this device's id could not be kept`);
	return id;
}

/**
 * The identity of an `a2a` process (`role`, e.g. "a2a route --watch") in the lease: A2A_DEVICE when
 * set, else this user's id of the vault; named after A2A_DEVICE or the host name.
 */
export function cliIdentity(role: string, state: DeviceState, env: NodeJS.ProcessEnv = process.env): DeviceIdentity {
	const override = deviceOverride(env);
	const device = override ?? deviceId(state, env);
	return { device, name: `${role} on ${override ?? os.hostname()}`, yields: false };
}

/** The state of a vault of this user's: the folder of `env`, checked when first used. */
export function deviceState(vaultDir: string, root: string, env: NodeJS.ProcessEnv = process.env): DeviceState {
	return DeviceState.of(vaultDir, root, env);
}

/**
 * Where a vault's device id, routing lock and lease observations live on this machine (A2A_DEVICE
 * makes another device). Keyed by the machine: another machine's files, in a copied or shared state
 * folder, are neither read nor taken over here.
 */
export function statePaths(state: DeviceState, env: NodeJS.ProcessEnv = process.env): { device: string; lock: string; observed: string } {
	const machine = machineFingerprint(env);
	const override = `${deviceOverride(env) ?? ""}\n${machine}`;
	return { device: state.file("device", "", machine), lock: state.file("route", ".lock", override), observed: state.file("lease", ".json", override) };
}

export function fileObservations(state: DeviceState, env: NodeJS.ProcessEnv = process.env): LeaseObservations {
	const file = statePaths(state, env).observed;
	return {
		load: () => {
			try {
				const text = readPrivate(file);
				if (text === null || text === "unusable") return null;
				const data = JSON.parse(text) as { key?: unknown; since?: unknown };
				return typeof data.key === "string" && typeof data.since === "number" ? { key: data.key, since: data.since } : null;
			} catch {
				return null;
			}
		},
		save: (observation) => {
			try {
				state.ensureFolder();
				writeWhole(file, JSON.stringify(observation), 0o600);
			} catch {
				// Only an optimisation across runs: without it the next run observes afresh.
			}
		},
	};
}

/** The lock that keeps two `a2a route` of this user from routing the vault at once. */
export function routingLock(state: DeviceState, describe: string, env: NodeJS.ProcessEnv = process.env): LocalLock {
	state.ensureFolder();
	return processLock(statePaths(state, env).lock, describe);
}
