import * as fs from "node:fs";

// How `a2a serve` learns that the router moved a note: fs.watch on the few folders a task's note
// passes through (inotify and its kin: no polling), with a slow check that catches what the file
// system did not report. Changes are handled one batch at a time, in order.

export interface VaultWatchOptions {
	/** Vault-relative folders to watch (they may not exist yet: the slow check covers them then). */
	folders: () => string[];
	/** The absolute path of a vault folder. */
	abs: (folder: string) => string;
	/** Called with the vault paths that changed. */
	onPaths: (paths: string[]) => Promise<void>;
	/** The slow check: look for changes no event reported; every tenth also covers the history. */
	onSlowCheck: (withHistory: boolean) => Promise<void>;
	/** How often the slow check runs, in ms. */
	intervalMs: number;
	onError: (error: unknown) => void;
}

const DEBOUNCE_MS = 5;

export class VaultWatch {
	private readonly watchers = new Map<string, fs.FSWatcher>();
	private readonly changed = new Set<string>();
	private everything = false;
	private debounce: NodeJS.Timeout | null = null;
	private slow: NodeJS.Timeout | null = null;
	private running: Promise<void> = Promise.resolve();
	private slowChecks = 0;
	private stopped = false;

	constructor(private readonly options: VaultWatchOptions) {}

	start(): void {
		this.rewatch();
		this.scheduleSlowCheck();
	}

	/** Watches the folders wanted now: new ones are added, those no longer wanted closed. */
	rewatch(): void {
		const wanted = new Set(this.stopped ? [] : this.options.folders());
		for (const [folder, watcher] of this.watchers) {
			if (wanted.has(folder)) continue;
			watcher.close();
			this.watchers.delete(folder);
		}
		for (const folder of wanted) {
			if (this.watchers.has(folder)) continue;
			try {
				const watcher = fs.watch(this.options.abs(folder), { persistent: false }, (_event, name) => {
					if (name === null) this.everything = true;
					else this.changed.add(`${folder}/${name.toString()}`);
					this.kick();
				});
				watcher.on("error", () => {
					watcher.close();
					this.watchers.delete(folder);
					this.everything = true;
					this.kick();
				});
				this.watchers.set(folder, watcher);
			} catch {
				// A folder that does not exist yet: the slow check covers it, and watches it once it does.
			}
		}
	}

	private kick(): void {
		if (this.stopped || this.debounce) return;
		this.debounce = setTimeout(() => {
			this.debounce = null;
			this.enqueue(() => this.flush());
		}, DEBOUNCE_MS);
	}

	private enqueue(step: () => Promise<void>): void {
		this.running = this.running.then(step).catch((error: unknown) => this.options.onError(error));
	}

	private async flush(): Promise<void> {
		if (this.everything) {
			this.everything = false;
			this.changed.clear();
			await this.options.onSlowCheck(true);
			return;
		}
		const paths = [...this.changed];
		this.changed.clear();
		if (paths.length > 0) await this.options.onPaths(paths);
	}

	private scheduleSlowCheck(): void {
		if (this.stopped) return;
		this.slow = setTimeout(() => {
			this.enqueue(async () => {
				const withHistory = this.slowChecks % 10 === 0;
				this.slowChecks++;
				await this.options.onSlowCheck(withHistory);
				this.rewatch();
			});
			this.enqueue(async () => this.scheduleSlowCheck());
		}, this.options.intervalMs);
	}

	/** Stops watching; resolves when the batch being handled is done. */
	async stop(): Promise<void> {
		this.stopped = true;
		for (const w of this.watchers.values()) w.close();
		this.watchers.clear();
		if (this.debounce) clearTimeout(this.debounce);
		if (this.slow) clearTimeout(this.slow);
		await this.running;
	}
}
