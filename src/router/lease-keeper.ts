import { DEFAULT_SYNC_MARGIN_MS, judgeLease, leaseKey, leaseNoteText, parseLease } from "../core/lease";
import type { DeviceIdentity, LeaseRecord, RouteOnDevice } from "../core/lease";
import { iso } from "../core/time";
import type { ReadFile, VaultPort } from "./vault-port";

// Holds the router's lease (src/core/lease.ts) for one router: takes it when the rules allow, renews
// it every quarter of the sync margin while routing, notices when another device took it, and
// releases it when the router stops. Only a router that holds the lease routes.

/** When this device first saw each lease record, on its own clock (kept across runs of `a2a route`). */
/** How old a claim (see LeaseKeeper.claim) must be before it is taken for one a stopped router left. */
const STALE_CLAIM_MS = 30_000;

export interface LeaseObservations {
	load(): { key: string; since: number } | null;
	save(observation: { key: string; since: number }): void;
}

/** Keeps other routers of this same device out (the CLI: a lock file; Obsidian: one app per vault). */
export interface LocalLock {
	/** True when this process holds it now; otherwise a reason ("a2a route --watch, pid 123, routes here"). */
	acquire(): true | string;
	release(): void;
}

export interface LeaseOptions {
	path: string;
	identity: DeviceIdentity;
	mode?: () => RouteOnDevice;
	marginMs?: number;
	/**
	 * This device's own clock, for measuring how long it has seen a lease unchanged (never compared
	 * with another device's clock). Observations are kept across runs, so it is the wall clock by default.
	 */
	monotonic?: () => number;
	wallClock?: () => number;
	observations?: LeaseObservations;
	localLock?: LocalLock;
}

export interface LeaseState {
	held: boolean;
	/** Why this router does not route now, or who does. */
	reason: string;
	/** The record as last read. */
	record: LeaseRecord | null;
}

export class LeaseKeeper {
	private held = false;
	private written: LeaseRecord | null = null;
	private renewedAt = Number.NEGATIVE_INFINITY;
	private observed: { key: string; since: number } | null;
	private lastReason = "";
	private lastRecord: LeaseRecord | null = null;
	/** Set when this router lost the lease to another device, until it is reported. */
	lostTo: string | null = null;
	readonly marginMs: number;
	private readonly monotonic: () => number;
	private readonly wallClock: () => number;
	/** Another router's claim as this device first saw it, on its own clock. */
	private claimSeen: { key: string; since: number } | null = null;

	constructor(
		private readonly port: VaultPort,
		private readonly options: LeaseOptions,
	) {
		this.marginMs = options.marginMs ?? DEFAULT_SYNC_MARGIN_MS;
		this.monotonic = options.monotonic ?? (() => Date.now());
		this.wallClock = options.wallClock ?? (() => Date.now());
		this.observed = options.observations?.load() ?? null;
	}

	get renewEveryMs(): number {
		return Math.max(250, this.marginMs / 4);
	}

	state(): LeaseState {
		return { held: this.held, reason: this.lastReason, record: this.lastRecord };
	}

	/** True when a renewal is due (the router calls `ensure` between two notes when it is). */
	renewalDue(): boolean {
		return this.held && this.monotonic() - this.renewedAt >= this.renewEveryMs;
	}

	/** Takes, keeps or renews the lease as the rules say; true when this router may route now. */
	async ensure(): Promise<boolean> {
		const local = this.options.localLock?.acquire() ?? true;
		if (local !== true) return this.standby(local, null);
		const read = await this.port.read(this.options.path);
		const current = parseLease(read?.text ?? null);
		this.lastRecord = current;
		const mine = this.held && this.written !== null && current !== null && leaseKey(current) === leaseKey(this.written);
		if (this.held && !mine) {
			this.held = false;
			this.lostTo = current?.name ?? "nobody (the lease note was removed)";
		}
		const judgement = judgeLease({
			current,
			me: this.options.identity,
			mine,
			unchangedForMs: this.observe(current),
			marginMs: this.marginMs,
			mode: this.options.mode?.() ?? "automatic",
		});
		switch (judgement.action) {
			case "renew":
				if (this.monotonic() - this.renewedAt >= this.renewEveryMs) await this.write(read, { ...(current as LeaseRecord), renewal: (current as LeaseRecord).renewal + 1, renewed: iso(this.wallClock()) });
				return this.held;
			case "take": {
				const claim = await this.claim(current);
				if (claim === null) return this.standby("another router is taking the lease at this moment", current);
				const record = this.freshRecord(current);
				try {
					await this.write(read, record);
				} finally {
					await this.port.remove(claim).catch(() => undefined);
				}
				if (this.held) await this.removeOldClaims(record.renewal).catch(() => undefined);
				if (this.held) this.lastReason = judgement.reason;
				return this.held;
			}
			case "hand-over":
				await this.write(read, { ...(current as LeaseRecord), released: true, renewed: iso(this.wallClock()) });
				this.held = false;
				this.options.localLock?.release();
				return this.standby(judgement.reason, current);
			case "ask-handover":
				await this.writeHandoverRequest(read, current as LeaseRecord);
				return this.standby(judgement.reason, current);
			case "standby":
				this.options.localLock?.release();
				return this.standby(judgement.reason, current);
		}
	}

	private standby(reason: string, record: LeaseRecord | null): boolean {
		this.held = false;
		this.lastReason = reason;
		this.lastRecord = record;
		return false;
	}

	/** How long this device has seen `record` unchanged (null when it changed just now). */
	private observe(record: LeaseRecord | null): number | null {
		const key = leaseKey(record);
		const now = this.monotonic();
		if (this.observed?.key === key) {
			// A saved observation from an earlier run may come from a clock that restarted.
			if (this.observed.since <= now) return now - this.observed.since;
		}
		this.observed = { key, since: now };
		this.options.observations?.save(this.observed);
		return null;
	}

	/**
	 * Routers that read the same free lease at the same moment would each replace the note (a
	 * replace is a check, then a rename: both checks can pass). The one that creates the claim file
	 * named after the renewal it is about to write takes the lease; the other stands by. The claim is
	 * removed once the note is written, so a later taker's check sees the new note. A claim left by a
	 * router that stopped between the two is cleared: at once when it is this device's own (one router
	 * per device runs at a time: the local lock), else once it is STALE_CLAIM_MS old.
	 */
	private async claim(previous: LeaseRecord | null): Promise<string | null> {
		const path = `${this.options.path.replace(/\.md$/i, "")}-claim-${(previous?.renewal ?? 0) + 1}.tmp`;
		const text = `${this.options.identity.device}\n`;
		if (await this.port.create(path, text)) return path;
		const left = await this.port.read(path);
		if (!left) return null;
		if (left.text !== text) {
			// Stale once its time is far from now either way (a time ahead is another clock's or a
			// `touch`), or once this router has seen it unchanged for that long on its own clock.
			const key = `${path}\n${left.text}\n${left.info.id}`;
			if (this.claimSeen?.key !== key) this.claimSeen = { key, since: this.monotonic() };
			const fresh = Math.abs(this.wallClock() - left.info.mtime) < STALE_CLAIM_MS && this.monotonic() - this.claimSeen.since < STALE_CLAIM_MS;
			if (fresh) return null;
		}
		this.claimSeen = null;
		await this.port.remove(path, left);
		return (await this.port.create(path, text)) ? path : null;
	}

	/** Claims of earlier renewals that a stopped router left: removed once this router holds the lease. */
	private async removeOldClaims(renewal: number): Promise<void> {
		const prefix = `${this.options.path.replace(/\.md$/i, "")}-claim-`;
		const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
		for (const path of await this.port.list(folder)) {
			if (!path.startsWith(prefix) || !path.endsWith(".tmp")) continue;
			const number = path.slice(prefix.length, -".tmp".length);
			if (/^\d+$/.test(number) && Number(number) < renewal) await this.port.remove(path);
		}
	}

	private freshRecord(previous: LeaseRecord | null): LeaseRecord {
		const now = iso(this.wallClock());
		const id = this.options.identity;
		return { device: id.device, name: id.name, since: now, renewed: now, renewal: (previous?.renewal ?? 0) + 1, yields: id.yields, released: false };
	}

	private async write(read: ReadFile | null, record: LeaseRecord): Promise<void> {
		const text = leaseNoteText(record);
		const done = read === null ? await this.port.create(this.options.path, text) : (await this.port.replace(this.options.path, text, read)) === "done";
		if (!done) {
			// Another router wrote the note between the read and the write: it wins this round.
			this.held = false;
			this.lastReason = "another router wrote the lease at the same moment";
			return;
		}
		this.written = record;
		this.held = !record.released;
		this.renewedAt = this.monotonic();
		this.lastRecord = record;
		this.observe(record);
	}

	private async writeHandoverRequest(read: ReadFile | null, current: LeaseRecord): Promise<void> {
		if (read === null || current.handoverTo === this.options.identity.device) return;
		await this.port.replace(this.options.path, leaseNoteText({ ...current, handoverTo: this.options.identity.device }), read);
	}

	/** Gives the lease up (the router stops): another router may take over at once. */
	async release(): Promise<void> {
		if (!this.held || this.written === null) {
			this.options.localLock?.release();
			return;
		}
		const read = await this.port.read(this.options.path);
		const current = parseLease(read?.text ?? null);
		if (read && current && leaseKey(current) === leaseKey(this.written)) {
			await this.port.replace(this.options.path, leaseNoteText({ ...current, released: true, renewed: iso(this.wallClock()) }), read);
		}
		this.held = false;
		this.options.localLock?.release();
	}
}
