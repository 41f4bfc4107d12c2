/**
 * Obsidian's `MetadataCache`. Like Obsidian: parsed asynchronously after a vault create/modify
 * (then 'changed'(file, data, cache), 'resolve'(file), and 'resolved' once nothing is pending);
 * a rename moves the entry with no 'changed'; a delete drops it and fires 'deleted'(file, prev).
 * Only markdown files get a cache.
 */
import { bindRuntime, Events, type EventRef } from "./events";
import { TFile, type TAbstractFile } from "./files";
import { parseMarkdown, type CachedMetadata } from "./markdown";
import { parentPath } from "./paths";
import type { Runtime } from "./runtime";
import type { Vault, VaultEventName } from "./vault";

export interface MetadataCacheOptions {
	/** Delay between a vault event and the cache update (ms). */
	delayMs?: number;
}

function stripSubpath(linkpath: string): string {
	const i = linkpath.search(/[#^]/);
	return (i < 0 ? linkpath : linkpath.slice(0, i)).trim();
}

export class MetadataCache extends Events {
	/** Fake-only. */
	delayMs: number;
	private readonly vault: Vault;
	private readonly runtime: Runtime;
	private readonly caches = new Map<string, CachedMetadata>();
	private readonly pending = new Set<TFile>();

	constructor(vault: Vault, runtime: Runtime, options: MetadataCacheOptions = {}) {
		super();
		bindRuntime(this, runtime);
		this.vault = vault;
		this.runtime = runtime;
		this.delayMs = options.delayMs ?? 2;
	}

	on(name: "changed", callback: (file: TFile, data: string, cache: CachedMetadata) => unknown, ctx?: unknown): EventRef;
	on(name: "deleted", callback: (file: TFile, prevCache: CachedMetadata | null) => unknown, ctx?: unknown): EventRef;
	on(name: "resolve", callback: (file: TFile) => unknown, ctx?: unknown): EventRef;
	on(name: "resolved", callback: () => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
		return super.on(name, callback, ctx);
	}

	getFileCache(file: TFile): CachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	getCache(path: string): CachedMetadata | null {
		return this.caches.get(path) ?? null;
	}

	/** Resolves like Obsidian: exact path, then relative to the source folder, then by name (closest). */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
		const path = stripSubpath(linkpath);
		if (path === "") return this.vault.getFileByPath(sourcePath);
		const candidates = path.includes(".") && /\.[^/]+$/.test(path) ? [path, `${path}.md`] : [`${path}.md`, path];
		for (const c of candidates) {
			const exact = this.vault.getFileByPath(c);
			if (exact) return exact;
		}
		const folder = parentPath(sourcePath);
		if (folder !== "") {
			for (const c of candidates) {
				const rel = this.vault.getFileByPath(`${folder}/${c}`);
				if (rel) return rel;
			}
		}
		const lower = candidates.map((c) => c.toLowerCase());
		const matches = this.vault
			.getFiles()
			.filter((f) => lower.some((c) => f.path.toLowerCase() === c || f.path.toLowerCase().endsWith(`/${c}`)));
		matches.sort((a, b) => {
			const aLocal = parentPath(a.path) === folder ? 0 : 1;
			const bLocal = parentPath(b.path) === folder ? 0 : 1;
			return aLocal - bLocal || a.path.length - b.path.length || a.path.localeCompare(b.path);
		});
		return matches[0] ?? null;
	}

	fileToLinktext(file: TFile, sourcePath: string, omitMdExtension = true): string {
		const name = omitMdExtension && file.extension === "md" ? file.basename : file.name;
		const unique = this.getFirstLinkpathDest(name, sourcePath) === file;
		if (unique) return name;
		return omitMdExtension && file.extension === "md" ? file.path.slice(0, -3) : file.path;
	}

	get resolvedLinks(): Record<string, Record<string, number>> {
		return this.linkTable(true);
	}

	get unresolvedLinks(): Record<string, Record<string, number>> {
		return this.linkTable(false);
	}

	private linkTable(resolved: boolean): Record<string, Record<string, number>> {
		const out: Record<string, Record<string, number>> = {};
		for (const [path, cache] of this.caches) {
			const row: Record<string, number> = {};
			for (const link of [...(cache.links ?? []), ...(cache.embeds ?? [])]) {
				const dest = this.getFirstLinkpathDest(link.link, path);
				if (resolved && dest) row[dest.path] = (row[dest.path] ?? 0) + 1;
				if (!resolved && !dest) {
					const key = stripSubpath(link.link);
					row[key] = (row[key] ?? 0) + 1;
				}
			}
			out[path] = row;
		}
		return out;
	}

	// ---- fake-only plumbing (wired to the vault by the App) ----------------------------------

	/** Number of files waiting to be parsed. */
	get pendingCount(): number {
		return this.pending.size;
	}

	onVaultEvent(name: VaultEventName, file: TAbstractFile): void {
		if (!(file instanceof TFile)) return;
		if (name === "create" || name === "modify") this.schedule(file);
		if (name === "delete") {
			const prev = this.caches.get(file.path) ?? null;
			this.caches.delete(file.path);
			this.pending.delete(file);
			if (file.extension === "md") this.trigger("deleted", file, prev);
		}
	}

	onMoved(file: TAbstractFile, oldPath: string): void {
		const cache = this.caches.get(oldPath);
		if (cache === undefined) return;
		this.caches.delete(oldPath);
		this.caches.set(file.path, cache);
	}

	/** Parses every markdown file now, without 'changed' (a warm cache at startup). */
	async fillAll(): Promise<void> {
		for (const file of this.vault.getMarkdownFiles()) {
			try {
				this.caches.set(file.path, parseMarkdown(await this.vault.read(file)));
			} catch {
				// unreadable: no cache, like Obsidian
			}
		}
	}

	private schedule(file: TFile): void {
		if (file.extension !== "md" || this.pending.has(file)) return;
		this.pending.add(file);
		this.runtime.schedule(this.delayMs, () => this.update(file), "metadata cache update");
	}

	private async update(file: TFile): Promise<void> {
		this.pending.delete(file);
		if (this.vault.getFileByPath(file.path) !== file) return;
		let data: string;
		try {
			data = await this.vault.read(file);
		} catch {
			return;
		}
		if (this.vault.getFileByPath(file.path) !== file) return;
		const cache = parseMarkdown(data);
		this.caches.set(file.path, cache);
		this.trigger("changed", file, data, cache);
		this.trigger("resolve", file);
		if (this.pending.size === 0) this.trigger("resolved");
	}
}
