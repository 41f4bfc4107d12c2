import { Component, Events } from "obsidian";
import type { App } from "obsidian";
import type { RoutingDecision } from "../core/decision";
import { describeRegistryError } from "../core/registry";
import { queueSummary } from "../core/queues";
import type { QueueSummary } from "../core/queues";
import { MISSING_REGISTRY } from "../router/registry-loader";
import type { PassReport, Router } from "../router/router";
import type { RelaySettings } from "../settings";
import { Notifier } from "./notifier";
import type { ObsidianVault } from "./obsidian-vault";
import { recordPass } from "./pass-record";
import type { PassMemory } from "./pass-record";
import { RelayRetries } from "./relay-retries";
import { relayRouter } from "./relay-router";
import { DEBOUNCE_MS, VaultEventBatch } from "./vault-event-batch";

// The post office inside Obsidian: a child component of the plugin that keeps the message index
// current from vault events and routes outbox notes as they arrive. Events are filtered to the A2A
// folders first thing, coalesced and debounced (vault-event-batch.ts), so a burst of a thousand files
// is one pass. No timer runs while nothing is due: one timeout is armed for the next real due time (a
// timeout, a note waiting for its writer, the lease's renewal, the retry after a failure).

export const RELAY_CHANGED = "a2a-relay:messages-changed";

export class Relay extends Component implements PassMemory {
	readonly events = new Events();
	router: Router;
	readonly recent: RoutingDecision[] = [];
	private readonly port: ObsidianVault;
	private readonly notifier: Notifier;
	private readonly batch = new VaultEventBatch(() => this.router.layout, () => void this.enqueue(() => this.flush()));
	private waiting = new Set<string>();
	private wakeTimer: number | null = null;
	private chain: Promise<void> = Promise.resolve();
	private started = false;
	private readonly retries = new RelayRetries();
	/** Why this device does not route now (another device holds the lease), or "". */
	standby = "";
	/** The latest warnings of the router's passes (two devices routed at once, merged logs), newest first. */
	readonly warnings: { text: string; time: number }[] = [];

	constructor(
		private readonly app: App,
		private readonly settings: () => RelaySettings,
		/** The app's one vault port: the names a write reserves are seen by every other write of this app. */
		port: ObsidianVault,
		/** The folder where the plugin keeps its copy of the history index (in its own folder), or null for none. */
		private readonly historyFolder: string | null = null,
	) {
		super();
		this.port = port;
		this.notifier = new Notifier(() => this.settings().showNotices);
		this.router = relayRouter(this.app, this.settings, this.port, this.historyFolder);
	}

	onload(): void {
		this.app.workspace.onLayoutReady(() => {
			// Registered only now: Obsidian fires `create` for every file while the vault loads.
			this.registerEvent(this.app.vault.on("create", (file) => this.batch.onVaultEvent(file, false)));
			this.registerEvent(this.app.vault.on("modify", (file) => this.batch.onVaultEvent(file, false)));
			this.registerEvent(this.app.vault.on("delete", (file) => this.batch.onVaultEvent(file, true)));
			this.registerEvent(this.app.vault.on("rename", (file, oldPath) => this.batch.onVaultEvent(file, true, oldPath)));
			this.started = true;
			void this.enqueue(() => this.reload());
		});
	}

	onunload(): void {
		this.batch.stop();
		if (this.wakeTimer !== null) window.clearTimeout(this.wakeTimer);
		this.wakeTimer = null;
		this.notifier.clear();
		this.started = false;
		// Another router (a CLI, another device) may take over at once.
		this.router.stop().catch((error: unknown) => console.error("A2A Relay: could not release the router lease", error));
	}

	/** Resolves when no event is waiting to be handled and no pass is running (used by tests and commands). */
	async whenIdle(): Promise<void> {
		for (;;) {
			const chain = this.chain;
			await chain;
			if (chain === this.chain && !this.batch.armed && this.batch.empty) return;
			if (this.batch.armed) await new Promise((r) => window.setTimeout(r, DEBOUNCE_MS));
		}
	}

	/** True while a timer is armed (tests count them: an idle relay arms one for its next due time at most). */
	get armedTimers(): number {
		return (this.batch.armed ? 1 : 0) + (this.wakeTimer === null ? 0 : 1);
	}

	/** Settings changed: a new root folder or grace period means a fresh router and index. */
	async applySettings(): Promise<void> {
		await this.enqueue(async () => {
			await this.router.stop();
			this.router = relayRouter(this.app, this.settings, this.port, this.historyFolder);
			await this.reload();
		});
	}

	/**
	 * Runs a full sweep now (the Route now command); returns what it did. Asked for by the person,
	 * it gives no grace period: a note open in an editor goes now, as it is.
	 */
	async routeNow(): Promise<PassReport> {
		let report: PassReport = { decisions: [], waiting: [], busy: false, failures: [], warnings: [] };
		await this.enqueue(async () => {
			await this.router.loadRegistry();
			await this.router.indexSync.rescan();
			report = await this.runPass(undefined, 0);
		});
		return report;
	}

	queues(): QueueSummary {
		return queueSummary(this.router.index, this.router.layout, Date.now());
	}

	private enqueue(work: () => Promise<void>): Promise<void> {
		const next = this.chain.then(work).catch((error: unknown) => {
			console.error("A2A Relay:", error);
			this.notifier.notify("failure", `A2A Relay could not finish routing: ${(error as Error).message}`, (n, latest) => `A2A Relay: ${n} routing failures. Latest: ${latest}`);
			// Routing on its own, it tries again as a whole (the registry, every folder, a full pass) after
			// a pause that doubles while it keeps failing. The lease stays this device's meanwhile: one
			// given up for a pause and taken back could be taken by another device in between, unseen.
			if (!this.started || !this.settings().autoRoute) return;
			this.retries.failed(Date.now());
			this.armWakeTimer();
		});
		this.chain = next;
		return next;
	}

	/** After a failure: the registry read again, every folder listed again, the notes changed meanwhile read, then a full pass. */
	private async retry(): Promise<void> {
		await this.retries.readAgain(this.router);
		await this.runPass(undefined);
		this.changed();
	}

	private async reload(): Promise<void> {
		await this.router.loadRegistry();
		this.reportRegistryErrors();
		await this.router.indexSync.ensureLive();
		this.changed();
		if (this.settings().autoRoute) await this.runPass(undefined);
		// The history (archives, dead letters) is read in the background, in chunks that yield.
		await this.router.indexSync.ensureHistory();
		this.changed();
	}

	private reportRegistryErrors(): void {
		const { errors, warnings } = this.router.registry;
		if (errors.length === 0 && warnings.length === 0) return;
		// A vault without the A2A folder is one the user has not set up yet: the sidebar's welcome
		// card leads them there, a notice on every start would only scold.
		const notSetUp = warnings.length === 0 && errors.every((e) => e.message === MISSING_REGISTRY) && this.app.vault.getAbstractFileByPath(this.router.layout.root) === null;
		if (notSetUp) return;
		const text = `A2A registry: ${[...errors.map(describeRegistryError), ...warnings].join("; ")}`;
		this.notifier.notify("registry", text, (_n, latest) => latest);
	}

	private async flush(): Promise<void> {
		const paths = this.batch.take();
		// During the pause after a failure, changes wait for the retry, which reads them: a pass now
		// would most likely fail again at once, and its own writes would start the next (no pause at all).
		if (this.retries.at !== null) {
			this.retries.hold(paths);
			return;
		}
		try {
			await this.flushPaths(paths);
		} catch (error) {
			// Read by the retry that follows a failure (an in-place change would not show in a listing).
			this.retries.hold(paths);
			throw error;
		}
	}

	private async flushPaths(paths: string[]): Promise<void> {
		if (this.batch.takeRegistryChange()) {
			if (await this.router.loadRegistry()) this.reportRegistryErrors();
			await this.router.indexSync.ensureLive();
			// The notes of a folder moved or deleted, when the registry did not change (else the index is read anew).
			for (const path of paths) await this.router.indexSync.refresh(path);
			if (this.settings().autoRoute) await this.runPass(undefined);
			this.changed();
			return;
		}
		const outbox: string[] = [];
		for (const path of paths) {
			const location = this.router.layout.locate(path);
			if (location.area === "box" && location.box === "outbox") outbox.push(path);
			await this.router.indexSync.refresh(path);
		}
		const leaseChanged = paths.includes(this.router.layout.leasePath);
		if ((outbox.length > 0 || leaseChanged || this.waiting.size > 0) && this.settings().autoRoute) {
			await this.runPass(leaseChanged ? undefined : [...new Set([...outbox, ...this.waiting])]);
		}
		this.changed();
	}

	/** Runs the work that is due without any vault event (timeouts, notes that waited, the lease). */
	private wake(): void {
		this.wakeTimer = null;
		if (!this.started || !this.settings().autoRoute) return;
		if (this.retries.at !== null) {
			// Nothing else is done during the pause after a failure: not a timeout, nor the lease's renewal.
			if (Date.now() < this.retries.at) this.armWakeTimer();
			else {
				this.retries.start();
				void this.enqueue(() => this.retry());
			}
			return;
		}
		void this.enqueue(async () => {
			await this.runPass(this.standby === "" && this.waiting.size > 0 ? [...this.waiting] : undefined);
			this.changed();
		});
	}

	/** Arms one timer for the next time there is work without an event: never a polling loop. */
	private armWakeTimer(): void {
		if (this.wakeTimer !== null) window.clearTimeout(this.wakeTimer);
		this.wakeTimer = null;
		if (!this.started || !this.settings().autoRoute) return;
		const now = Date.now();
		if (this.retries.at !== null) {
			this.wakeTimer = window.setTimeout(() => this.wake(), Math.max(0, this.retries.at - now));
			return;
		}
		const times = [now + this.router.lease.renewEveryMs];
		const due = this.router.nextWakeTime();
		if (due !== null) times.push(due);
		if (this.waiting.size > 0) times.push(now + Math.max(250, this.router.graceMs / 2));
		const delay = Math.max(0, Math.min(...times) - now);
		this.wakeTimer = window.setTimeout(() => this.wake(), delay);
	}

	private async runPass(paths: string[] | undefined, graceMs?: number): Promise<PassReport> {
		const report = await this.router.pass(paths, { graceMs });
		// A full pass (Route now) did what a retry after a failure would do, but for the changes held meanwhile.
		if (paths === undefined) {
			this.batch.add(this.retries.done());
			if (!this.batch.empty) this.batch.schedule();
		}
		this.standby = report.busy ? (report.standby ?? "another router routes this vault") : "";
		if (this.router.lease.lostTo !== null) {
			this.notifier.notify("lease", `A2A Relay stopped routing on this device: ${this.router.lease.lostTo} routes this vault now.`, (_n, latest) => latest);
			this.router.lease.lostTo = null;
		}
		if (report.busy) {
			for (const p of paths ?? []) this.waiting.add(p);
		} else {
			const retry = new Set(report.waiting);
			if (paths) for (const p of this.waiting) if (!paths.includes(p)) retry.add(p);
			this.waiting = retry;
		}
		recordPass(report, this, this.notifier);
		this.armWakeTimer();
		return report;
	}

	private changed(): void {
		this.events.trigger(RELAY_CHANGED);
	}
}
