import type { App } from "obsidian";
import { HISTORY_CACHE_FORMAT, decodeRows, encodeRow } from "../router/history-cache";
import type { CachedNote, HistoryCacheStore } from "../router/history-cache";

// The plugin's copy of the history index (src/router/history-cache.ts; the CLI's is
// node/history-cache-file.ts): one file in the plugin's own folder (`<configDir>/plugins/<id>/`,
// written through the adapter, so no vault event and no note), holding for each archived and
// dead-lettered note the entry the index read from it, with the size and mtime Obsidian's vault
// reports for the file (TFile.stat). At start the index takes a note's entry from this copy when the
// file is still the one it was read from, and reads only the others (notes written or edited while
// Obsidian was closed, notes synced in): nothing the router decides can differ from a full read.
// The copy is a cache: a missing, damaged or foreign one (another root) only costs the reads.
// It is read and written in slices that yield, so that a year of history never blocks the app; a
// row's entry is parsed only when something asks for that note (src/router/history-cache.ts).

/** Rows written between two yields (a row is written in about a microsecond). */
const ROWS_PER_SLICE = 5000;
/** Reading yields once it has kept the app this long (checked every few hundred rows). */
const SLICE_MS = 8;

interface Header {
	format: number;
	root: string;
}

export class HistoryIndexFile implements HistoryCacheStore {
	constructor(
		private readonly app: App,
		/** The file's path in the vault's adapter (inside the plugin's folder). */
		private readonly file: string,
		private readonly root: string,
		private readonly yieldNow: () => Promise<void> = () => Promise.resolve(),
	) {}

	async load(): Promise<Map<string, CachedNote> | null> {
		let text: string;
		try {
			if (!(await this.app.vault.adapter.exists(this.file))) return null;
			text = await this.app.vault.adapter.read(this.file);
		} catch {
			return null;
		}
		// Line by line, never split whole: a year of history is tens of MB, and one split of it would
		// keep the app busy for longer than a frame.
		const firstBreak = text.indexOf("\n");
		try {
			const header = JSON.parse(text.slice(0, firstBreak < 0 ? text.length : firstBreak)) as Header;
			if (header.format !== HISTORY_CACHE_FORMAT || header.root !== this.root) return null;
		} catch {
			return null;
		}
		// A copy cut short (a write interrupted) ends without its closing line break.
		if (firstBreak < 0 || !text.endsWith("\n")) return null;
		const notes = new Map<string, CachedNote>();
		let rows = 0;
		let sliceStart = Date.now();
		for (const row of decodeRows(text, firstBreak + 1)) {
			if (row === null) return null;
			notes.set(row.path, row.note);
			if (++rows % 256 === 0 && Date.now() - sliceStart >= SLICE_MS) {
				await this.yieldNow();
				sliceStart = Date.now();
			}
		}
		return notes;
	}

	async save(notes: ReadonlyMap<string, CachedNote>): Promise<void> {
		try {
			// Joined a slice at a time: the slices' texts are only put together by the write.
			const slices = [`${JSON.stringify({ format: HISTORY_CACHE_FORMAT, root: this.root } satisfies Header)}\n`];
			let lines: string[] = [];
			for (const [path, note] of notes) {
				lines.push(encodeRow(path, note));
				if (lines.length === ROWS_PER_SLICE) {
					slices.push(`${lines.join("\n")}\n`);
					lines = [];
					await this.yieldNow();
				}
			}
			if (lines.length > 0) slices.push(`${lines.join("\n")}\n`);
			await this.app.vault.adapter.write(this.file, slices.join(""));
		} catch (error) {
			// Routing goes on; the next start reads the history again.
			console.error("A2A Relay: the history index could not be saved", error);
		}
	}
}
