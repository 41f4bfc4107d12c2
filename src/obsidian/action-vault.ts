import { normalizePath } from "obsidian";
import type { App } from "obsidian";
import type { ActionVault } from "../actions/vault";
import type { ChangeResult, MoveResult, ReadFile, VaultPort } from "../router/vault-port";

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

	/** The note as read; one not in Obsidian's tree yet is read from disk. */
	async read(path: string): Promise<ReadFile | null> {
		const read = await this.port.read(path);
		if (read !== null) return read;
		const target = normalizePath(path);
		if (!(await this.app.vault.adapter.exists(target))) return null;
		const text = await this.app.vault.adapter.read(target);
		const stat = await this.app.vault.adapter.stat(target);
		return { text, info: { path: target, size: stat?.size ?? text.length, mtime: stat?.mtime ?? 0 } };
	}

	create(path: string, content: string): Promise<boolean> {
		return this.port.create(path, content);
	}
	move(from: string, to: string): Promise<MoveResult> {
		return this.port.move(from, to);
	}
	replace(path: string, text: string, expected: ReadFile): Promise<ChangeResult> {
		return this.port.replace(path, text, expected);
	}
	remove(path: string, expected?: ReadFile): Promise<ChangeResult> {
		return this.port.remove(path, expected);
	}
	ensureFolder(path: string): Promise<void> {
		return this.port.ensureFolder(path);
	}
}
