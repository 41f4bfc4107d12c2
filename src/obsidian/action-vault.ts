import { normalizePath } from "obsidian";
import type { App } from "obsidian";
import type { ActionVault } from "../actions/vault";
import type { KnownContent, MoveResult, VaultPort } from "../router/vault-port";

// The vault the plugin's actions write through: the router's vault port over Obsidian, plus the
// two questions only the forms ask. Both also look on disk, since a file another process just
// wrote may not be in Obsidian's tree yet.

export class ObsidianActionVault implements ActionVault {
	constructor(
		private readonly app: App,
		private readonly port: VaultPort,
	) {}

	async exists(path: string): Promise<boolean> {
		const target = normalizePath(path);
		return this.app.vault.getAbstractFileByPath(target) !== null || (await this.app.vault.adapter.exists(target));
	}

	async isFolder(path: string): Promise<boolean> {
		const target = normalizePath(path);
		return this.app.vault.getFolderByPath(target) !== null || (await this.app.vault.adapter.exists(target));
	}

	/** The note's text; one not in Obsidian's tree yet is read from disk. */
	async read(path: string): Promise<string | null> {
		const text = await this.port.read(path);
		if (text !== null) return text;
		const target = normalizePath(path);
		return (await this.app.vault.adapter.exists(target)) ? this.app.vault.adapter.read(target) : null;
	}

	create(path: string, content: string): Promise<boolean> {
		return this.port.create(path, content);
	}
	move(from: string, to: string): Promise<MoveResult> {
		return this.port.move(from, to);
	}
	updateFrontmatter(path: string, edit: (frontmatter: Record<string, unknown>) => void, known?: KnownContent): Promise<boolean> {
		return this.port.updateFrontmatter(path, edit, known);
	}
	process(path: string, edit: (text: string) => string, known?: KnownContent): Promise<boolean> {
		return this.port.process(path, edit, known);
	}
	ensureFolder(path: string): Promise<void> {
		return this.port.ensureFolder(path);
	}
	acquireLease(path: string, holder: string, ttlMs: number): Promise<boolean> {
		return this.port.acquireLease(path, holder, ttlMs);
	}
	releaseLease(path: string, holder: string): Promise<void> {
		return this.port.releaseLease(path, holder);
	}
}
