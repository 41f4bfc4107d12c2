import type { App } from "obsidian";
import { normalizePath } from "obsidian";
import { PartedHistoryCopy } from "../router/parted-history-copy";
import type { CopyFiles } from "../router/parted-history-copy";

// The plugin's copy of the history index (src/router/history-cache.ts), split by history folder
// (src/router/parted-history-copy.ts; the CLI's is node/history-cache-folder.ts): a folder in the
// plugin's own folder (`<configDir>/plugins/<id>/history-index/`, written through the adapter, so no
// vault event and no note). A part holds for each archived or dead-lettered note of its folder the
// entry the index read from it, with the size and mtime Obsidian's vault reports for the file
// (TFile.stat). Nothing the router decides can differ from a full read.

/** The files of the copy's folder, through the vault's adapter. */
class AdapterFiles implements CopyFiles {
	constructor(
		private readonly app: App,
		private readonly folder: string,
		/** The copy of an earlier version (one file), removed with the first save. */
		private readonly formerFile?: string,
	) {}

	async read(file: string): Promise<string | null> {
		try {
			const path = this.pathOf(file);
			if (!(await this.app.vault.adapter.exists(path))) return null;
			return await this.app.vault.adapter.read(path);
		} catch {
			return null;
		}
	}

	write(file: string, text: string): Promise<void> {
		return this.app.vault.adapter.write(this.pathOf(file), text);
	}

	remove(file: string): Promise<void> {
		return this.app.vault.adapter.remove(this.pathOf(file));
	}

	async names(): Promise<string[]> {
		return (await this.app.vault.adapter.list(this.folder)).files.map((file) => file.slice(file.lastIndexOf("/") + 1));
	}

	async ready(): Promise<boolean> {
		const adapter = this.app.vault.adapter;
		if (!(await adapter.exists(this.folder))) await adapter.mkdir(this.folder);
		try {
			if (this.formerFile !== undefined && (await adapter.exists(this.formerFile))) await adapter.remove(this.formerFile);
		} catch {
			// Left for the next save: the copy of an earlier version is never read.
		}
		return true;
	}

	problem(_message: string, error?: unknown): void {
		console.error("A2A Relay: the history index could not be saved", error);
	}

	private pathOf(file: string): string {
		return normalizePath(`${this.folder}/${file}`);
	}
}

export class HistoryIndexFolder extends PartedHistoryCopy {
	constructor(app: App, folder: string, root: string, yieldNow?: () => Promise<void>, formerFile?: string) {
		super(new AdapterFiles(app, folder, formerFile), root, yieldNow);
	}
}
