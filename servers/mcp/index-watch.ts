import * as fs from "node:fs";
import { rescanIndex } from "../../src/router/index-refresh";
import type { Router } from "../../src/router/router";

// How a long-lived `a2a mcp` keeps its router's index in step with the vault: every message folder
// (each group's inbox, outbox and archive, the dead-letter folder) and the root (the registry) are
// watched, and a refresh reads only the files that changed since the last one. A folder that does
// not exist yet is watched from the refresh after it appears (and listed then). Everything is
// listed again when the registry changes, when a watcher fails, and every `fullEveryMs` anyway:
// the safety net for changes no event reported.

export class IndexWatch {
	private readonly changed = new Set<string>();
	private readonly watchers = new Map<string, fs.FSWatcher>();
	private everything = true;
	private lastFull = 0;

	constructor(
		private readonly router: Router,
		private readonly abs: (vaultPath: string) => string,
		private readonly fullEveryMs = 10_000,
	) {}

	private folders(): string[] {
		const layout = this.router.layout;
		// The router archives into the month folder of now (archive/YYYY-MM/); older months only change on a full refresh.
		const month = new Date(this.router.now());
		const months = layout.groupIds().map((g) => layout.archiveFolder(g, month)).filter((f): f is string => f !== null);
		return [layout.root, ...layout.messageFolders(), ...months];
	}

	/** Watches the folders not watched yet; returns those it started to watch. */
	private watchNew(): string[] {
		const started: string[] = [];
		for (const folder of this.folders()) {
			if (this.watchers.has(folder)) continue;
			try {
				const watcher = fs.watch(this.abs(folder), { persistent: false }, (_event, name) => {
					if (name === null) this.everything = true;
					else this.changed.add(`${folder}/${name.toString()}`);
				});
				watcher.on("error", () => {
					this.everything = true;
					watcher.close();
					this.watchers.delete(folder);
				});
				this.watchers.set(folder, watcher);
				started.push(folder);
			} catch {
				// Not there yet (the router makes folders as it needs them): tried again on the next refresh.
			}
		}
		return started;
	}

	private registryChanged(): boolean {
		const layout = this.router.layout;
		return this.changed.has(layout.registryPath) || this.changed.has(layout.registryNotePath);
	}

	/** Brings the index up to date: the files that changed, or everything when that is due. */
	async refresh(): Promise<void> {
		const started = this.watchNew();
		if (this.everything || this.registryChanged() || Date.now() - this.lastFull >= this.fullEveryMs) {
			this.everything = false;
			this.changed.clear();
			this.lastFull = Date.now();
			const groups = this.router.layout.groupIds().join("\n");
			await rescanIndex(this.router);
			// New groups (or a new root) mean new folders: watch them from now on.
			if (this.router.layout.groupIds().join("\n") !== groups) this.close();
			this.watchNew();
			return;
		}
		const sync = this.router.indexSync;
		for (const folder of started) {
			for (const path of await this.router.port.list(folder)) if (!this.router.index.has(path)) this.changed.add(path);
		}
		const paths = [...this.changed];
		this.changed.clear();
		for (const path of paths) await sync.refresh(path);
	}

	close(): void {
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
	}
}
