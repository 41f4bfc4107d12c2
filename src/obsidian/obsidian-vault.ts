import { TFile, TFolder, normalizePath } from "obsidian";
import type { App } from "obsidian";
import { YamlError, readFrontmatter } from "../core/frontmatter";
import { dirname } from "../core/paths";
import type { FileInfo, MoveResult, VaultPort } from "../router/vault-port";

// The vault port over Obsidian's Vault and FileManager: moves are the vault's rename (atomic, no
// link rewriting), frontmatter edits processFrontMatter, rewrites vault.process, new notes
// vault.create. Existence is checked on disk too, since a file another process just wrote may not
// be in Obsidian's tree yet.

interface Lease {
	holder: string;
	at: number;
}

export class ObsidianVault implements VaultPort {
	constructor(private readonly app: App) {}

	private file(path: string): TFile | null {
		return this.app.vault.getFileByPath(normalizePath(path));
	}

	private info(file: TFile): FileInfo {
		return { path: file.path, size: file.stat.size, mtime: file.stat.mtime };
	}

	list(folder: string): Promise<FileInfo[]> {
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		const files = dir ? dir.children.filter((c): c is TFile => c instanceof TFile) : [];
		return Promise.resolve(files.map((f) => this.info(f)));
	}

	listRecursive(folder: string): Promise<FileInfo[]> {
		const out: FileInfo[] = [];
		const walk = (dir: TFolder) => {
			for (const child of dir.children) {
				if (child instanceof TFile) out.push(this.info(child));
				else if (child instanceof TFolder) walk(child);
			}
		};
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		if (dir) walk(dir);
		return Promise.resolve(out);
	}

	stat(path: string): Promise<FileInfo | null> {
		const file = this.file(path);
		return Promise.resolve(file ? this.info(file) : null);
	}

	async read(path: string): Promise<string | null> {
		const file = this.file(path);
		if (!file) return null;
		try {
			return await this.app.vault.read(file);
		} catch {
			return null;
		}
	}

	private async taken(path: string): Promise<boolean> {
		return this.app.vault.getAbstractFileByPath(path) !== null || (await this.app.vault.adapter.exists(path));
	}

	async create(path: string, content: string): Promise<boolean> {
		const target = normalizePath(path);
		if (await this.taken(target)) return false;
		await this.ensureFolder(dirname(target));
		try {
			await this.app.vault.create(target, content);
			return true;
		} catch (error) {
			if (await this.taken(target)) return false;
			throw error;
		}
	}

	async move(from: string, to: string): Promise<MoveResult> {
		const file = this.file(from);
		const target = normalizePath(to);
		if (!file) return "missing";
		if (await this.taken(target)) return "exists";
		await this.ensureFolder(dirname(target));
		try {
			await this.app.vault.rename(file, target);
			return "moved";
		} catch (error) {
			if (!(await this.app.vault.adapter.exists(file.path))) return "missing";
			if (await this.taken(target)) return "exists";
			throw error;
		}
	}

	async updateFrontmatter(path: string, edit: (frontmatter: Record<string, unknown>) => void): Promise<boolean> {
		const file = this.file(path);
		if (!file) return false;
		try {
			await this.app.fileManager.processFrontMatter(file, (fm: Record<string, unknown>) => edit(fm));
		} catch (error) {
			// processFrontMatter throws its own error on bad YAML; name it the way the router expects
			// (read only now, on the rare failure, not before every stamp).
			if (error instanceof YamlError) throw error;
			if (!(await this.app.vault.adapter.exists(file.path))) return false;
			const text = await this.read(path);
			if (text !== null) readFrontmatter(text);
			throw new YamlError(`the frontmatter could not be edited: ${(error as Error).message}`);
		}
		return true;
	}

	async process(path: string, edit: (text: string) => string): Promise<boolean> {
		const file = this.file(path);
		if (!file) return false;
		await this.app.vault.process(file, edit);
		return true;
	}

	async append(path: string, text: string, header: string): Promise<void> {
		const file = this.file(path);
		if (file) await this.app.vault.append(file, text);
		else if (!(await this.create(path, header + text))) {
			const again = this.file(path);
			if (again) await this.app.vault.append(again, text);
		}
	}

	async ensureFolder(path: string): Promise<void> {
		const folder = normalizePath(path);
		if (folder === "/" || this.app.vault.getFolderByPath(folder)) return;
		await this.ensureFolder(dirname(folder) || "/");
		try {
			await this.app.vault.createFolder(folder);
		} catch {
			// Created meanwhile (by an event, or by another process): fine.
		}
	}

	// The lease is a hidden file: Obsidian does not index it, so it goes through the adapter.
	async acquireLease(path: string, holder: string, ttlMs: number): Promise<boolean> {
		const target = normalizePath(path);
		const adapter = this.app.vault.adapter;
		if (await adapter.exists(target)) {
			let lease: Partial<Lease> = {};
			try {
				lease = JSON.parse(await adapter.read(target)) as Partial<Lease>;
			} catch {
				const stat = await adapter.stat(target);
				if (stat && Date.now() - stat.mtime < ttlMs) return false;
			}
			if (lease.holder !== undefined && lease.holder !== holder && typeof lease.at === "number" && Date.now() - lease.at < ttlMs) return false;
		}
		await this.ensureFolder(dirname(target) || "/");
		await adapter.write(target, JSON.stringify({ holder, at: Date.now(), host: "obsidian" }));
		return true;
	}

	async releaseLease(path: string, holder: string): Promise<void> {
		const target = normalizePath(path);
		const adapter = this.app.vault.adapter;
		try {
			const lease = JSON.parse(await adapter.read(target)) as Partial<Lease>;
			if (lease.holder === holder) await adapter.remove(target);
		} catch {
			// Nothing to release.
		}
	}
}
