import { TFolder, normalizePath } from "obsidian";
import type { TAbstractFile } from "obsidian";
import type { VaultLayout } from "../core/layout";

// Events that arrive together (a sync, a git pull) are handled in one pass; a lone note waits only
// a few milliseconds.
export const DEBOUNCE_MS = 3;
const MAX_WAIT_MS = 100;

/**
 * The vault events the relay acts on: filtered to the A2A folders first thing, coalesced and
 * debounced, so a burst of a thousand files is one pass.
 */
export class VaultEventBatch {
	private readonly pending = new Set<string>();
	private registryDirty = false;
	private timer: number | null = null;
	private firstPendingAt = 0;

	constructor(
		/** The layout of the relay's current router (a new root folder replaces it). */
		private readonly layout: () => VaultLayout,
		/** Called when the batch is due (the relay queues its flush). */
		private readonly due: () => void,
	) {}

	/** A vault event: kept when it concerns the A2A folders or the registry, and the batch scheduled. */
	onVaultEvent(file: TAbstractFile, removal: boolean, oldPath?: string): void {
		const path = file.path;
		const layout = this.layout();
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

	/** Adds paths to the batch without scheduling it. */
	add(paths: Iterable<string>): void {
		for (const path of paths) this.pending.add(path);
	}

	/** Arms the batch's timer: a few milliseconds after the latest event, at once when the first waited MAX_WAIT_MS. */
	schedule(): void {
		const now = Date.now();
		if (this.timer === null) this.firstPendingAt = now;
		else window.clearTimeout(this.timer);
		const wait = now - this.firstPendingAt >= MAX_WAIT_MS ? 0 : DEBOUNCE_MS;
		this.timer = window.setTimeout(() => {
			this.timer = null;
			this.due();
		}, wait);
	}

	/** The batch's paths, taken out of it. */
	take(): string[] {
		const paths = [...this.pending];
		this.pending.clear();
		return paths;
	}

	/** True once after the registry changed or a folder moved or was deleted: the index is then read from the tree. */
	takeRegistryChange(): boolean {
		const dirty = this.registryDirty;
		this.registryDirty = false;
		return dirty;
	}

	/** True while the batch's timer is armed. */
	get armed(): boolean {
		return this.timer !== null;
	}

	/** True when no path waits in the batch. */
	get empty(): boolean {
		return this.pending.size === 0;
	}

	/** Disarms the timer (the relay unloads). */
	stop(): void {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
	}
}
