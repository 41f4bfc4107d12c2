import { Component, Events, MarkdownView, TAbstractFile, TFolder, normalizePath } from "obsidian";
import type { App } from "obsidian";
import type { RoutingDecision } from "../core/decision";
import { describeRegistryError } from "../core/registry";
import { queueSummary } from "../core/queues";
import type { QueueSummary } from "../core/queues";
import { MISSING_REGISTRY } from "../router/registry-loader";
import { Router } from "../router/router";
import type { PassReport } from "../router/router";
import type { RelaySettings } from "../settings";
import { deviceIdentity, localObservations } from "./device";
import { HistoryIndexFolder } from "./history-index-folder";
import { Notifier } from "./notifier";
import { ObsidianVault } from "./obsidian-vault";
import { RequestUrlRemoteAgents } from "./request-url-remote-agents";

// The post office inside Obsidian: a child component of the plugin that keeps the message index
// current from vault events and routes outbox notes as they arrive. Events are filtered to the A2A
// folders first thing, coalesced and debounced, so a burst of a thousand files is one pass. No timer
// runs while nothing is due: one timeout is armed for the next real due time (a timeout, a note
// waiting for its writer, the lease's renewal).

// Events that arrive together (a sync, a git pull) are handled in one pass; a lone note waits only
// a few milliseconds.
const DEBOUNCE_MS = 3;
const MAX_WAIT_MS = 100;
const RECENT_LIMIT = 50;
/** The pause before work that failed is tried again; it doubles while the work keeps failing, up to the longest. */
const FIRST_RETRY_PAUSE_MS = 2000;
const MAX_RETRY_PAUSE_MS = 60_000;

export const RELAY_CHANGED = "a2a-relay:messages-changed";

export class Relay extends Component {
	readonly events = new Events();
	router: Router;
	readonly recent: RoutingDecision[] = [];
	private readonly port: ObsidianVault;
	private readonly notifier: Notifier;
	private readonly pending = new Set<string>();
	private waiting = new Set<string>();
	private registryDirty = false;
	private debounceTimer: number | null = null;
	private wakeTimer: number | null = null;
	private firstPendingAt = 0;
	private chain: Promise<void> = Promise.resolve();
	private started = false;
	/** When work that failed is tried again (see enqueue), or null. */
	private retryAt: number | null = null;
	/** Paths changed while waiting for that retry: it reads them. */
	private readonly changedDuringPause = new Set<string>();
	private failedInARow = 0;
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
		this.router = this.makeRouter();
	}

	private makeRouter(): Router {
		const s = this.settings();
		const yieldNow = () => new Promise<void>((resolve) => window.setTimeout(resolve, 0));
		return new Router(this.port, {
			root: s.rootFolder,
			graceMs: s.graceSeconds * 1000,
			identity: deviceIdentity(this.app, s),
			mode: () => this.settings().routeOnDevice,
			marginMs: s.syncMarginSeconds * 1000,
			observations: localObservations(this.app),
			isEditing: (path) => this.isOpenInEditor(path),
			yieldNow,
			historyCache: this.historyFolder === null ? undefined : new HistoryIndexFolder(this.app, this.historyFolder, s.rootFolder, yieldNow, `${this.historyFolder}.json`),
			remotes: { remotes: new RequestUrlRemoteAgents(this.app), timers: { set: (callback, ms) => window.setTimeout(callback, ms), clear: (handle) => window.clearTimeout(handle as number) } },
		});
	}

	/** True when a note is open in a Markdown editor: a person may still be writing it. */
	private isOpenInEditor(path: string): boolean {
		let open = false;
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (leaf.view instanceof MarkdownView && leaf.view.file?.path === path && leaf.view.getMode() === "source") open = true;
		});
		return open;
	}

	onload(): void {
		this.app.workspace.onLayoutReady(() => {
			// Registered only now: Obsidian fires `create` for every file while the vault loads.
			this.registerEvent(this.app.vault.on("create", (file) => this.onVaultEvent(file, false)));
			this.registerEvent(this.app.vault.on("modify", (file) => this.onVaultEvent(file, false)));
			this.registerEvent(this.app.vault.on("delete", (file) => this.onVaultEvent(file, true)));
			this.registerEvent(this.app.vault.on("rename", (file, oldPath) => this.onVaultEvent(file, true, oldPath)));
			this.started = true;
			void this.enqueue(() => this.reload());
		});
	}

	onunload(): void {
		if (this.debounceTimer !== null) window.clearTimeout(this.debounceTimer);
		if (this.wakeTimer !== null) window.clearTimeout(this.wakeTimer);
		this.debounceTimer = null;
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
			if (chain === this.chain && this.debounceTimer === null && this.pending.size === 0) return;
			if (this.debounceTimer !== null) await new Promise((r) => window.setTimeout(r, DEBOUNCE_MS));
		}
	}

	/** True while a timer is armed (tests count them: an idle relay arms one for its next due time at most). */
	get armedTimers(): number {
		return (this.debounceTimer === null ? 0 : 1) + (this.wakeTimer === null ? 0 : 1);
	}

	/** Settings changed: a new root folder or grace period means a fresh router and index. */
	async applySettings(): Promise<void> {
		await this.enqueue(async () => {
			await this.router.stop();
			this.router = this.makeRouter();
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
			this.retryAt = Date.now() + Math.min(MAX_RETRY_PAUSE_MS, FIRST_RETRY_PAUSE_MS * 2 ** this.failedInARow);
			this.failedInARow++;
			this.armWakeTimer();
		});
		this.chain = next;
		return next;
	}

	/** After a failure: the registry read again, every folder listed again, the notes changed meanwhile read, then a full pass. */
	private async retry(): Promise<void> {
		const changed = [...this.changedDuringPause];
		this.changedDuringPause.clear();
		try {
			await this.router.loadRegistry();
			await this.router.indexSync.ensureLive();
			await this.router.indexSync.rescan(true);
			for (const path of changed) await this.router.indexSync.refresh(path);
		} catch (error) {
			for (const path of changed) this.changedDuringPause.add(path);
			throw error;
		}
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

	private onVaultEvent(file: TAbstractFile, removal: boolean, oldPath?: string): void {
		const path = file.path;
		const layout = this.router.layout;
		const isRegistry = (p: string) => p === layout.registryPath || p === layout.registryNotePath;
		const relevant = (p: string) => isRegistry(p) || layout.isRelevant(p);
		if (!relevant(path) && !(oldPath !== undefined && relevant(oldPath))) return;
		if (isRegistry(path) || (oldPath !== undefined && isRegistry(oldPath))) this.registryDirty = true;
		if (file instanceof TFolder) {
			// A folder moved or deleted: rebuild the index from the tree rather than trust each event.
			if (removal) this.registryDirty = true;
			return;
		}
		this.pending.add(path);
		if (oldPath !== undefined) this.pending.add(normalizePath(oldPath));
		this.schedule();
	}

	private schedule(): void {
		const now = Date.now();
		if (this.debounceTimer === null) this.firstPendingAt = now;
		else window.clearTimeout(this.debounceTimer);
		const wait = now - this.firstPendingAt >= MAX_WAIT_MS ? 0 : DEBOUNCE_MS;
		this.debounceTimer = window.setTimeout(() => {
			this.debounceTimer = null;
			void this.enqueue(() => this.flush());
		}, wait);
	}

	private async flush(): Promise<void> {
		const paths = [...this.pending];
		this.pending.clear();
		// During the pause after a failure, changes wait for the retry, which reads them: a pass now
		// would most likely fail again at once, and its own writes would start the next (no pause at all).
		if (this.retryAt !== null) {
			for (const path of paths) this.changedDuringPause.add(path);
			return;
		}
		try {
			await this.flushPaths(paths);
		} catch (error) {
			// Read by the retry that follows a failure (an in-place change would not show in a listing).
			for (const path of paths) this.changedDuringPause.add(path);
			throw error;
		}
	}

	private async flushPaths(paths: string[]): Promise<void> {
		if (this.registryDirty) {
			this.registryDirty = false;
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
		if (this.retryAt !== null) {
			// Nothing else is done during the pause after a failure: not a timeout, nor the lease's renewal.
			if (Date.now() < this.retryAt) this.armWakeTimer();
			else {
				this.retryAt = null;
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
		if (this.retryAt !== null) {
			this.wakeTimer = window.setTimeout(() => this.wake(), Math.max(0, this.retryAt - now));
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
			for (const path of this.changedDuringPause) this.pending.add(path);
			this.changedDuringPause.clear();
			this.retryAt = null;
			this.failedInARow = 0;
			if (this.pending.size > 0) this.schedule();
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
		this.record(report);
		this.armWakeTimer();
		return report;
	}

	private record(report: PassReport): void {
		// Rejected and timed-out messages are noticed by src/ui/notices/decision-notices.ts, which reads these.
		for (const d of report.decisions) this.recent.unshift(d);
		for (const warning of report.warnings) {
			this.warnings.unshift({ text: warning, time: Date.now() });
			this.notifier.notify("warning", `A2A Relay: ${warning}`, (_n, latest) => `A2A Relay: ${latest}`);
		}
		this.warnings.splice(RECENT_LIMIT);
		for (const failure of report.failures) {
			this.notifier.notify("failure", `A2A Relay could not route ${failure.path}: ${failure.error}`, (n, latest) => `A2A Relay: ${n} notes could not be routed. Latest: ${latest}`);
		}
		this.recent.splice(RECENT_LIMIT);
	}

	private changed(): void {
		this.events.trigger(RELAY_CHANGED);
	}
}
