import type { App } from "obsidian";
import type { IndexEntry } from "../core/message-index";
import { HISTORY_CACHE_FORMAT } from "../router/history-cache";
import type { CachedNote, HistoryCacheStore } from "../router/history-cache";

// The plugin's copy of the history index (src/router/history-cache.ts; the CLI's is
// node/history-cache-file.ts): one file in the plugin's own folder (`<configDir>/plugins/<id>/`,
// written through the adapter, so no vault event and no note), holding for each archived and
// dead-lettered note the entry the index read from it, with the size and mtime Obsidian's vault
// reports for the file (TFile.stat). At start the index takes a note's entry from this copy when the
// file is still the one it was read from, and reads only the others (notes written or edited while
// Obsidian was closed, notes synced in): nothing the router decides can differ from a full read.
// The copy is a cache: a missing, damaged or foreign one (another root) only costs the reads.
// It is read and written in slices that yield, so that a year of history never blocks the app.

/** Rows handled between two yields (each a JSON line of about 440 bytes; 500 rows parse in a few ms). */
const ROWS_PER_SLICE = 500;

/** One note: its path, size, mtime, and its entry without path and location. */
type Row = [path: string, size: number, mtime: number, entry: Omit<IndexEntry, "path" | "location">];

interface Header {
	format: number;
	root: string;
}

function isRow(value: unknown): value is Row {
	if (!Array.isArray(value) || typeof value[0] !== "string" || typeof value[1] !== "number" || typeof value[2] !== "number") return false;
	const entry = value[3] as Partial<IndexEntry> | null;
	return typeof entry === "object" && entry !== null && Array.isArray(entry.route) && (entry.kind === null || typeof entry.kind === "string");
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
		const lines = text.split("\n");
		try {
			const header = JSON.parse(lines[0]) as Header;
			if (header.format !== HISTORY_CACHE_FORMAT || header.root !== this.root) return null;
		} catch {
			return null;
		}
		const notes = new Map<string, CachedNote>();
		for (let i = 1; i < lines.length; i++) {
			if (lines[i] === "") continue;
			let row: unknown;
			try {
				row = JSON.parse(lines[i]);
			} catch {
				return null;
			}
			if (!isRow(row)) return null;
			const [path, size, mtime, rest] = row;
			const entry = rest as IndexEntry;
			entry.path = path;
			notes.set(path, { size, mtime, entry });
			if (i % ROWS_PER_SLICE === 0) await this.yieldNow();
		}
		return notes;
	}

	async save(notes: ReadonlyMap<string, CachedNote>): Promise<void> {
		const lines = [JSON.stringify({ format: HISTORY_CACHE_FORMAT, root: this.root } satisfies Header)];
		for (const [path, note] of notes) {
			const { path: _path, location: _location, ...entry } = note.entry;
			lines.push(JSON.stringify([path, note.size, note.mtime, entry] satisfies Row));
			if (lines.length % ROWS_PER_SLICE === 0) await this.yieldNow();
		}
		try {
			await this.app.vault.adapter.write(this.file, `${lines.join("\n")}\n`);
		} catch (error) {
			// Routing goes on; the next start reads the history again.
			console.error("A2A Relay: the history index could not be saved", error);
		}
	}
}
