import type { GroupEntry } from "../../src/core/registry";
import { gatewayGroup } from "../../src/core/registry";
import type { Router } from "../../src/router/router";
import type { NodeVault } from "../../node/node-vault";
import { Canceller } from "./cancel";
import { GatewayOutbox } from "./gateway-outbox";
import { GatewayWriter } from "./gateway-writer";
import { KeyedLock } from "./keyed-lock";
import { TaskEvents } from "./task-events";
import { VaultTasks } from "./vault-tasks";
import { VaultWatch } from "./vault-watch";

// The vault side of `a2a serve`, put together once: the router's index (read, never routed with:
// `a2a serve` does not route), the gateway's outbox, the task store, the writer, the cancel, and
// the watcher that tells waiting tasks when the router moved their notes.

export interface GatewayOptions {
	/** How often to look for changes no file-system event reported, in ms. */
	intervalMs: number;
	onError: (error: unknown) => void;
	/** Called after the registry changed (groups may have come or gone). */
	onRegistryChange?: () => void;
	/** Told of each request note the gateway writes (telemetry: its creation span). */
	onWritten?: (fields: Record<string, unknown>, atMs: number) => void;
}

export class Gateway {
	readonly events = new TaskEvents();
	readonly lock = new KeyedLock();
	readonly outbox: GatewayOutbox;
	readonly tasks: VaultTasks;
	readonly writer: GatewayWriter;
	readonly canceller: Canceller;
	private readonly watch: VaultWatch;

	constructor(
		readonly router: Router,
		vault: NodeVault,
		private readonly options: GatewayOptions,
	) {
		const gateway = () => this.gatewayId();
		this.outbox = new GatewayOutbox(router.port, () => router.layout, gateway, (path) => router.indexSync.readWhole(path));
		this.tasks = new VaultTasks(router, this.outbox, gateway);
		this.writer = new GatewayWriter(router, this.tasks, this.lock, Date.now, options.onWritten);
		this.canceller = new Canceller(router, this.tasks, this.lock, (ids) => this.events.notify(ids));
		this.watch = new VaultWatch({
			folders: () => this.watchedFolders(),
			abs: (folder) => vault.abs(folder),
			onPaths: (paths) => this.changed(paths),
			onSlowCheck: (withHistory) => this.slowCheck(withHistory),
			intervalMs: options.intervalMs,
			onError: options.onError,
		});
	}

	gatewayId(): string {
		return gatewayGroup(this.router.registry);
	}

	/** The groups served as A2A agents: local ones (no url), not the gateway, not `serve: false`. */
	servedGroups(): GroupEntry[] {
		const gateway = this.gatewayId();
		return [...this.router.registry.groups.values()].filter((g) => g.serve && g.url === undefined && g.id !== gateway);
	}

	async start(): Promise<void> {
		await this.load();
		await this.canceller.finishInterrupted();
		this.watch.start();
	}

	private async load(): Promise<void> {
		await this.router.indexSync.ensureLive();
		await this.router.indexSync.ensureHistory();
		this.outbox.clear();
		await this.outbox.load();
	}

	/** The folders a task's note passes through, and the root (for the registry). */
	private watchedFolders(): string[] {
		const { layout } = this.router;
		const gateway = this.gatewayId();
		// Notes are archived into the month folder of now (archive/YYYY-MM/): the slow check's rewatch follows the month.
		const month = new Date(this.router.now());
		const boxes = [gateway, ...this.servedGroups().map((g) => g.id)].flatMap((g) => [layout.box(g, "inbox"), layout.box(g, "archive"), layout.archiveFolder(g, month), g === gateway ? layout.box(g, "outbox") : null]);
		return [layout.root, layout.deadLetterFolder, ...boxes.filter((f): f is string => f !== null)];
	}

	private async changed(paths: string[]): Promise<void> {
		const { layout } = this.router;
		if (paths.some((p) => p === layout.registryPath || p === layout.registryNotePath) && (await this.reloadRegistry())) return;
		// A month folder that just appeared (the first note archived this month): watch it, and look at what it holds already.
		const months = paths.filter((p) => layout.isArchiveMonth(p));
		if (months.length > 0) this.watch.rewatch();
		for (const month of months) paths.push(...(await this.router.port.list(month)));
		this.events.notify(await this.tasks.refresh(paths));
	}

	private async slowCheck(withHistory: boolean): Promise<void> {
		if (await this.reloadRegistry()) return;
		await this.router.indexSync.rescan(true, withHistory);
		await this.outbox.load();
		this.events.notifyAll();
	}

	/** Reads the registry again; when it changed, everything is read again. True then. */
	private async reloadRegistry(): Promise<boolean> {
		if (!(await this.router.loadRegistry())) return false;
		await this.load();
		this.watch.rewatch();
		this.events.notifyAll();
		this.options.onRegistryChange?.();
		return true;
	}

	async stop(): Promise<void> {
		this.canceller.stop();
		await this.watch.stop();
	}
}
