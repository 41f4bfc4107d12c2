import { Component, Events, TAbstractFile, TFolder, normalizePath } from "obsidian";
import type { App } from "obsidian";
import type { RoutingDecision } from "../core/decision";
import { describeRegistryError } from "../core/registry";
import { queueSummary } from "../core/queues";
import type { QueueSummary } from "../core/queues";
import { Router } from "../router/router";
import type { PassReport } from "../router/router";
import type { RelaySettings } from "../settings";
import { Notifier } from "./notifier";
import { ObsidianVault } from "./obsidian-vault";

// The post office inside Obsidian: a child component of the plugin that keeps the message index
// current from vault events and routes outbox notes as they arrive. Events are filtered to the A2A
// folders first thing, coalesced and debounced, so a burst of a thousand files is one pass.

// Events that arrive together (a sync, a git pull) are handled in one pass; a lone note waits only
// a few milliseconds.
const DEBOUNCE_MS = 3;
const MAX_WAIT_MS = 100;
const TICK_MS = 1000;
const RECENT_LIMIT = 50;

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
	private firstPendingAt = 0;
	private chain: Promise<void> = Promise.resolve();
	private started = false;

	constructor(
		private readonly app: App,
		private readonly settings: () => RelaySettings,
	) {
		super();
		this.port = new ObsidianVault(app);
		this.notifier = new Notifier(() => this.settings().showNotices);
		this.router = this.makeRouter();
	}

	private makeRouter(): Router {
		const s = this.settings();
		return new Router(this.port, { root: s.rootFolder, graceMs: s.graceSeconds * 1000 });
	}

	onload(): void {
		this.app.workspace.onLayoutReady(() => {
			// Registered only now: Obsidian fires `create` for every file while the vault loads.
			this.registerEvent(this.app.vault.on("create", (file) => this.onVaultEvent(file, false)));
			this.registerEvent(this.app.vault.on("modify", (file) => this.onVaultEvent(file, false)));
			this.registerEvent(this.app.vault.on("delete", (file) => this.onVaultEvent(file, true)));
			this.registerEvent(this.app.vault.on("rename", (file, oldPath) => this.onVaultEvent(file, true, oldPath)));
			this.registerInterval(window.setInterval(() => this.tick(), TICK_MS));
			this.started = true;
			// The settings are loaded by now (they were not when this component was built).
			this.router = this.makeRouter();
			void this.enqueue(() => this.reload());
		});
	}

	onunload(): void {
		if (this.debounceTimer !== null) window.clearTimeout(this.debounceTimer);
		this.notifier.clear();
		this.started = false;
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

	/** Settings changed: a new root folder or grace period means a fresh router and index. */
	async applySettings(): Promise<void> {
		await this.enqueue(async () => {
			this.router = this.makeRouter();
			await this.reload();
		});
	}

	/** Runs a full sweep now (the Route now command); returns what it did. */
	async routeNow(): Promise<PassReport> {
		let report: PassReport = { decisions: [], waiting: [], busy: false };
		await this.enqueue(async () => {
			await this.router.loadRegistry();
			await this.router.buildIndex();
			report = await this.runPass(undefined, true);
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
		});
		this.chain = next;
		return next;
	}

	private async reload(): Promise<void> {
		await this.router.loadRegistry();
		this.reportRegistryErrors();
		await this.router.buildIndex();
		if (this.settings().autoRoute) await this.runPass(undefined, false);
		this.changed();
	}

	private reportRegistryErrors(): void {
		const errors = this.router.registry.errors;
		if (errors.length === 0) return;
		const text = `A2A registry: ${errors.map(describeRegistryError).join("; ")}`;
		this.notifier.notify("registry", text, (_n, latest) => latest);
	}

	private onVaultEvent(file: TAbstractFile, removal: boolean, oldPath?: string): void {
		const path = file.path;
		const layout = this.router.layout;
		const relevant = (p: string) => p === layout.registryPath || layout.isRelevant(p);
		if (!relevant(path) && !(oldPath !== undefined && relevant(oldPath))) return;
		if (path === layout.registryPath || oldPath === layout.registryPath) this.registryDirty = true;
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
		if (this.registryDirty) {
			this.registryDirty = false;
			if (await this.router.loadRegistry()) this.reportRegistryErrors();
			await this.router.buildIndex();
			if (this.settings().autoRoute) await this.runPass(undefined, false);
			this.changed();
			return;
		}
		const outbox: string[] = [];
		for (const path of paths) {
			// An outbox note is read once, by the pass that routes it. Files rule 1 ignores go to the
			// pass too, which lists them as ignored, once; they are never indexed, moved or changed.
			if (!this.router.countOutboxNote(path)) await this.router.indexFile(path);
			else if (await this.port.stat(path)) outbox.push(path);
			else this.router.index.remove(path);
		}
		if (outbox.length > 0 && this.settings().autoRoute) await this.runPass(outbox, false);
		this.changed();
	}

	private tick(): void {
		if (!this.started || !this.settings().autoRoute) return;
		const now = Date.now();
		const due = [...this.router.index.all()].some(
			(e) => e.location.area === "box" && e.location.box === "inbox" && e.expiresAt !== undefined && Date.parse(e.expiresAt) <= now && (e.state === "delivered" || e.state === "retrying"),
		);
		if (this.waiting.size === 0 && !due) return;
		const waiting = [...this.waiting];
		void this.enqueue(async () => {
			await this.runPass(waiting.filter((p) => this.router.layout.isRelevant(p)), false);
			this.changed();
		});
	}

	private async runPass(paths: string[] | undefined, manual: boolean): Promise<PassReport> {
		const report = await this.router.pass(paths);
		if (report.busy) {
			// Another router (a CLI, another device) has the vault; try again shortly.
			for (const p of paths ?? []) this.waiting.add(p);
			return report;
		}
		const retry = new Set(report.waiting);
		if (paths) for (const p of this.waiting) if (!paths.includes(p)) retry.add(p);
		this.waiting = retry;
		this.record(report.decisions, manual);
		return report;
	}

	private record(decisions: RoutingDecision[], manual: boolean): void {
		for (const d of decisions) {
			this.recent.unshift(d);
			if (!manual && (d.outcome === "rejected" || d.outcome === "timed_out")) {
				const name = d.path.split("/").pop() ?? d.path;
				this.notifier.notify(
					"rejected",
					`A2A: ${name} ${d.outcome === "timed_out" ? "timed out" : "was rejected"} (${d.error_code ?? "error"}): ${d.reason ?? ""}`,
					(n, latest) => `A2A: ${n} messages rejected or timed out. Latest: ${latest}`,
				);
			}
		}
		this.recent.splice(RECENT_LIMIT);
	}

	private changed(): void {
		this.events.trigger(RELAY_CHANGED);
	}
}
