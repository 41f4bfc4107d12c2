import { buildNote, readFrontmatter } from "./frontmatter";
import { isPlainObject } from "./text";

// The router's lease (contract v2; `A2A/router.md`): which device routes the vault. It is a note, so
// every sync service carries it to every device. A device takes the lease over only when it has seen
// the note unchanged for longer than the sync margin, measured on its own clock from the moment it
// first saw that content: no device ever compares its clock with another device's timestamps. The
// times written in the note are for people.

export type RouteOnDevice = "automatic" | "always" | "never";
export const ROUTE_ON_DEVICE_MODES: readonly RouteOnDevice[] = ["automatic", "always", "never"];

/** Two minutes: well above the sync delays measured with Syncthing. */
export const DEFAULT_SYNC_MARGIN_MS = 120_000;

export interface DeviceIdentity {
	/** Stable id of the device (a phone, a laptop's Obsidian, a server running `a2a route`). */
	device: string;
	/** What people read: "Obsidian on iPhone", "a2a route --watch on build-server". */
	name: string;
	/** Phones yield the lease to a desktop or a server (setting "Route on this device": automatic). */
	yields: boolean;
}

export interface LeaseRecord {
	device: string;
	name: string;
	/** ISO time the holder took the lease (its own clock; for people). */
	since: string;
	/** ISO time of the last renewal (its own clock; for people). */
	renewed: string;
	/** Counts renewals: every renewal changes the note, which is what other devices watch. */
	renewal: number;
	yields: boolean;
	released: boolean;
	/** A device that asks a yielding holder to hand the lease over. */
	handoverTo?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The lease in a note's text; null when the note holds none (missing, unreadable). */
export function parseLease(text: string | null): LeaseRecord | null {
	if (text === null) return null;
	let fm: Record<string, unknown> | null;
	try {
		fm = readFrontmatter(text);
	} catch {
		return null;
	}
	if (!isPlainObject(fm)) return null;
	const device = str(fm.router_device);
	if (!device) return null;
	return {
		device,
		name: str(fm.router_name) ?? device,
		since: str(fm.since) ?? "",
		renewed: str(fm.renewed) ?? "",
		renewal: typeof fm.renewal === "number" ? fm.renewal : 0,
		yields: fm.yields === true,
		released: fm.released === true,
		handoverTo: str(fm.handover_to),
	};
}

/** The lease note: the record as frontmatter, and what it means in words. */
export function leaseNoteText(record: LeaseRecord): string {
	const fields: Record<string, unknown> = {
		router_device: record.device,
		router_name: record.name,
		since: record.since,
		renewed: record.renewed,
		renewal: record.renewal,
		yields: record.yields,
		released: record.released,
	};
	if (record.handoverTo) fields.handover_to = record.handoverTo;
	const state = record.released
		? `${record.name} stopped routing at ${record.renewed}; the next router to start takes over.`
		: `${record.name} routes this vault since ${record.since} (last renewal ${record.renewed}).`;
	return buildNote(
		fields,
		`\n# Router lease\n\n${state}\n\nA2A Relay writes this note: one device at a time routes the messages of this vault, and this note says which. Another device takes over only after it has seen no renewal for the sync margin. Do not edit it; delete it only when no router runs anywhere.\n`,
	);
}

/** What a router should do about the lease it just read. */
export type LeaseJudgement =
	| { action: "renew" }
	| { action: "take"; reason: string }
	| { action: "standby"; reason: string }
	| { action: "ask-handover"; reason: string }
	| { action: "hand-over"; reason: string };

export interface LeaseSituation {
	current: LeaseRecord | null;
	me: DeviceIdentity;
	/** True when this router wrote the current record (this very process or instance). */
	mine: boolean;
	/** Milliseconds this device has seen the current record unchanged, on its own clock; null when just seen. */
	unchangedForMs: number | null;
	marginMs: number;
	mode: RouteOnDevice;
}

/** The lease rules, as one function of what a router can see. */
export function judgeLease(s: LeaseSituation): LeaseJudgement {
	const { current, me } = s;
	if (s.mode === "never") return { action: "standby", reason: "routing is switched off on this device (Route on this device: never)" };
	if (current === null) return { action: "take", reason: "no router holds the lease" };
	if (s.mine) {
		if (current.handoverTo && current.handoverTo !== me.device && current.yields) return { action: "hand-over", reason: `${current.handoverTo} asked to route this vault` };
		return { action: "renew" };
	}
	if (current.released) {
		if (current.handoverTo && current.handoverTo !== me.device) {
			// Handed to another device: wait the margin for it to take over before taking it.
			if ((s.unchangedForMs ?? 0) > s.marginMs) return { action: "take", reason: `${current.handoverTo} did not take the lease it was handed` };
			return { action: "standby", reason: `${current.name} handed routing over to ${current.handoverTo}` };
		}
		return { action: "take", reason: `${current.name} released the lease` };
	}
	if (current.device === me.device) return { action: "take", reason: "this device held the lease before (the router restarted)" };
	if (s.unchangedForMs !== null && s.unchangedForMs > s.marginMs) {
		return { action: "take", reason: `no renewal from ${current.name} seen for ${Math.round(s.unchangedForMs / 1000)} s (sync margin ${Math.round(s.marginMs / 1000)} s)` };
	}
	if (current.yields && !me.yields && current.handoverTo !== me.device) return { action: "ask-handover", reason: `${current.name} routes until a desktop or server takes over` };
	return { action: "standby", reason: `${current.name} routes this vault (last renewal ${current.renewed || "unknown"})` };
}

/** What another device watches for: any change of the record. */
export function leaseKey(record: LeaseRecord | null): string {
	return record === null ? "" : `${record.device}|${record.renewal}|${record.released}|${record.handoverTo ?? ""}|${record.since}`;
}
