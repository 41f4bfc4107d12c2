import type { App } from "obsidian";
import { normalizePath } from "obsidian";
import { HISTORY_CACHE_FORMAT, decodeRows, encodeRow } from "../router/history-cache";
import type { CachedNote, CopyPart, HistoryCacheStore } from "../router/history-cache";
import { KeyFilter, textHash } from "../router/history-digest";
import { addKeys, partFileName, partsOf } from "../router/history-parts";

// The plugin's copy of the history index (src/router/history-cache.ts; the CLI's is
// node/history-cache-file.ts), split by history folder (src/router/history-parts.ts): a folder in
// the plugin's own folder (`<configDir>/plugins/<id>/history-index/`, written through the adapter,
// so no vault event and no note) with one part a history folder and `parts.json`, which tells each
// part's digest and key filter (with a hash of the filter). A part holds for each archived or dead-lettered note of its folder
// the entry the index read from it, with the size and mtime Obsidian's vault reports for the file
// (TFile.stat). A start reads `parts.json`, then only the parts it needs
// (src/router/history-from-copy.ts); nothing the router decides can differ from a full read.
// The copy is a cache: a missing, damaged or foreign part (another root) only costs the reads.
// Parts are written before `parts.json`: a part that does not match it (a save cut short) is not used.

/** A part's rows are read in slices: reading yields once it has kept the app this long (checked every few hundred rows). */
const SLICE_MS = 8;
/** Characters hashed between two yields (about a millisecond's work). */
const SUM_SLICE = 1 << 20;
/** Rows written between two yields (a row is filtered and written in about a microsecond). */
const ROWS_PER_SLICE = 5000;

interface PartHeader {
	format: number;
	root: string;
	folder: string;
	digest: string | null;
	rows: number;
	/** A hash of the rows' text: a part changed in any byte is not used (its notes are read). */
	sum?: number;
}

interface SummaryPart extends PartHeader {
	file: string;
	filter: string;
	/** A hash of `filter`: a filter changed in any character is not used (its folder's notes are read). Absent in summaries written before it was. */
	filterSum?: number;
}

interface Summary {
	format: number;
	root: string;
	parts: SummaryPart[];
}

/** The hash a summary keeps of a part's filter. */
const filterSum = (filter: string) => textHash(filter, 0x811c9dc5);

const SUMMARY = "parts.json";

export class HistoryIndexFolder implements HistoryCacheStore {
	/** The parts `parts.json` told of when it was last read or written, by folder. */
	private summary = new Map<string, SummaryPart>();
	/** Folders whose part on disk is known to be as `summary` tells: loaded whole, or written by this store. */
	private readonly sound = new Set<string>();

	constructor(
		private readonly app: App,
		/** The copy's folder in the vault's adapter (inside the plugin's folder). */
		private readonly folder: string,
		private readonly root: string,
		private readonly yieldNow: () => Promise<void> = () => Promise.resolve(),
		/** The copy of an earlier version (one file), removed with the first save. */
		private readonly formerFile?: string,
	) {}

	async loadSummary(): Promise<Map<string, CopyPart> | null> {
		this.summary.clear();
		this.sound.clear();
		const text = await this.readText(SUMMARY);
		if (text === null) return null;
		const parts = new Map<string, CopyPart>();
		try {
			const summary = JSON.parse(text) as Summary;
			if (summary.format !== HISTORY_CACHE_FORMAT || summary.root !== this.root || !Array.isArray(summary.parts)) return null;
			for (const part of summary.parts) {
				// A part without a usable filter is left out: its folder's notes are read. A filter damaged
				// into other base64 could answer a wrong "no": its hash tells.
				const sound = typeof part.filter === "string" && (part.filterSum === undefined || part.filterSum === filterSum(part.filter));
				const filter = sound ? KeyFilter.decode(part.filter) : null;
				if (filter === null || typeof part.folder !== "string" || typeof part.file !== "string") continue;
				this.summary.set(part.folder, part);
				parts.set(part.folder, { digest: typeof part.digest === "string" ? part.digest : null, filter });
			}
		} catch {
			return null;
		}
		return parts;
	}

	async loadPart(folder: string): Promise<Map<string, CachedNote> | null> {
		const part = this.summary.get(folder);
		const text = part ? await this.readText(part.file) : null;
		if (!part || text === null) return null;
		const firstBreak = text.indexOf("\n");
		// A part cut short (a write interrupted) ends without its closing line break.
		if (firstBreak < 0 || !text.endsWith("\n")) return null;
		let header: PartHeader;
		try {
			header = JSON.parse(text.slice(0, firstBreak)) as PartHeader;
		} catch {
			return null;
		}
		if (header.format !== HISTORY_CACHE_FORMAT || header.root !== this.root || header.folder !== folder || header.digest !== part.digest || header.rows !== part.rows) return null;
		if (header.sum !== (await this.sumOf(text, firstBreak + 1))) return null;
		const notes = new Map<string, CachedNote>();
		let sliceStart = Date.now();
		for (const row of decodeRows(text, firstBreak + 1)) {
			if (row === null || !row.path.startsWith(`${folder}/`)) return null;
			notes.set(row.path, row.note);
			if (notes.size % 256 === 0 && Date.now() - sliceStart >= SLICE_MS) {
				await this.yieldNow();
				sliceStart = Date.now();
			}
		}
		if (notes.size !== part.rows) return null;
		this.sound.add(folder);
		return notes;
	}

	async load(): Promise<Map<string, CachedNote> | null> {
		const parts = await this.loadSummary();
		if (parts === null) return null;
		const notes = new Map<string, CachedNote>();
		for (const folder of parts.keys()) for (const [path, note] of (await this.loadPart(folder)) ?? []) notes.set(path, note);
		return notes;
	}

	async save(notes: ReadonlyMap<string, CachedNote>, digests: ReadonlyMap<string, string>): Promise<void> {
		const adapter = this.app.vault.adapter;
		try {
			if (!(await adapter.exists(this.folder))) await adapter.mkdir(this.folder);
			const written: SummaryPart[] = [];
			let sliceStart = Date.now();
			const pause = async () => {
				if (Date.now() - sliceStart < SLICE_MS) return;
				await this.yieldNow();
				sliceStart = Date.now();
			};
			for (const part of await partsOf(notes, digests, pause)) {
				const header: PartHeader = { format: HISTORY_CACHE_FORMAT, root: this.root, folder: part.folder, digest: part.digest, rows: part.rows.length };
				const file = partFileName(part.folder);
				// A sound part whose listing did not change holds the same rows (and keys): it is not written
				// again, unless its filter is of the form before filters carried their probe count (less sharp)
				// or came without a hash (nothing vouches for its text: it is made again from the rows).
				const before = this.summary.get(part.folder);
				if (part.digest !== null && this.sound.has(part.folder) && before?.digest === part.digest && before.rows === header.rows && before.file === file && before.filterSum !== undefined && !KeyFilter.isLegacy(before.filter)) {
					written.push(before);
					continue;
				}
				// Filtered and written a slice of rows at a time: a month of a busy group is tens of thousands.
				const filter = KeyFilter.sized(part.rows.length * 3);
				const slices: string[] = [];
				for (let at = 0; at < part.rows.length; at += ROWS_PER_SLICE) {
					const rows = part.rows.slice(at, at + ROWS_PER_SLICE);
					addKeys(filter, rows);
					slices.push(`${rows.map(([path, note]) => encodeRow(path, note)).join("\n")}\n`);
					await this.yieldNow();
				}
				const text = slices.join("");
				header.sum = await this.sumOf(text, 0);
				const filterText = filter.encode();
				written.push({ ...header, file, filter: filterText, filterSum: filterSum(filterText) });
				await adapter.write(this.pathOf(file), `${JSON.stringify(header)}\n${text}`);
				this.sound.add(part.folder);
				sliceStart = Date.now();
			}
			await adapter.write(this.pathOf(SUMMARY), JSON.stringify({ format: HISTORY_CACHE_FORMAT, root: this.root, parts: written } satisfies Summary));
			this.summary = new Map(written.map((part) => [part.folder, part]));
			await this.removeUnused(new Set([SUMMARY, ...written.map((part) => part.file)]));
		} catch (error) {
			// Routing goes on; the next start reads the history again.
			console.error("A2A Relay: the history index could not be saved", error);
		}
	}

	/** Removes the files of parts no longer written, and the copy of an earlier version. */
	private async removeUnused(used: ReadonlySet<string>): Promise<void> {
		const adapter = this.app.vault.adapter;
		for (const file of (await adapter.list(this.folder)).files) if (!used.has(file.slice(file.lastIndexOf("/") + 1))) await adapter.remove(file);
		if (this.formerFile !== undefined && (await adapter.exists(this.formerFile))) await adapter.remove(this.formerFile);
	}

	/** The hash of `text` from `from` on, a slice at a time (a part can be megabytes). */
	private async sumOf(text: string, from: number): Promise<number> {
		let h = 0x811c9dc5;
		for (let at = from; at < text.length; at += SUM_SLICE) {
			const end = Math.min(text.length, at + SUM_SLICE);
			for (let i = at; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
			if (end < text.length) await this.yieldNow();
		}
		return h >>> 0;
	}

	private pathOf(file: string): string {
		return normalizePath(`${this.folder}/${file}`);
	}

	/** A file of the copy, or null when it is missing or cannot be read. */
	private async readText(file: string): Promise<string | null> {
		try {
			const path = this.pathOf(file);
			if (!(await this.app.vault.adapter.exists(path))) return null;
			return await this.app.vault.adapter.read(path);
		} catch {
			return null;
		}
	}
}
