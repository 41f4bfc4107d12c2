import { HISTORY_CACHE_FORMAT, decodeRows, encodeRow } from "./history-cache";
import type { CachedNote, CopyPart, HistoryCacheStore, PartRows } from "./history-cache";
import { KeyFilter, textHash } from "./history-digest";
import { addKeys, partFileName, partsOf } from "./history-parts";
import type { PartToSave } from "./history-parts";

// A history copy split by history folder (src/router/history-parts.ts), kept as files in one folder
// of the host's (the plugin's: `<configDir>/plugins/<id>/history-index/`; the CLI's: a folder per
// vault in the user's cache folder): one part a history folder and `parts.json`, which tells each
// part's digest, row count, the hash of its rows and its key filter (with a hash of the filter). A
// start reads `parts.json`, then only the parts it needs (src/router/history-from-copy.ts). The copy
// is a cache: a missing, damaged or foreign part (another root) only costs the reads of its notes.
// Parts are written before `parts.json`: a part that does not match it (a save cut short) is not used.

/** The folder the copy's files are in, as a host gives it. */
export interface CopyFiles {
	/** A file's text, or null when it is missing or cannot be read (or is not this user's). */
	read(file: string): Promise<string | null>;
	/** Replaces a file whole (the folder is ready). */
	write(file: string, text: string): Promise<void>;
	remove(file: string): Promise<void>;
	/** The names of the folder's files. */
	names(): Promise<string[]>;
	/** Makes the folder when it is missing; false when it cannot hold the copy. */
	ready(): Promise<boolean>;
	/**
	 * Where a host vouches for `parts.json` itself (the CLI signs it with the user's key): the file's
	 * text for a summary, and the summary from a file's text (null when it is not vouched for).
	 */
	seal?: { wrap(summary: string): string; unwrap(text: string): string | null };
	/** A hash of a part's rows stronger than the default one (the CLI's: SHA-256, under the signed summary). */
	sum?(text: string, from: number): string;
	/** Tells why a copy could not be saved (routing goes on; the next start reads the history again). */
	problem(message: string, error?: unknown): void;
}

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
	sum?: number | string;
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

export const SUMMARY_FILE = "parts.json";

export class PartedHistoryCopy implements HistoryCacheStore {
	/** The parts `parts.json` told of when it was last read or written, by folder. */
	private summary = new Map<string, SummaryPart>();
	/** Folders whose part on disk is known to be as `summary` tells: loaded whole, or written by this store. */
	private readonly sound = new Set<string>();

	constructor(
		private readonly files: CopyFiles,
		private readonly root: string,
		private readonly yieldNow: () => Promise<void> = () => Promise.resolve(),
	) {}

	async loadSummary(): Promise<Map<string, CopyPart> | null> {
		this.summary.clear();
		this.sound.clear();
		const sealed = await this.files.read(SUMMARY_FILE);
		const text = sealed === null || !this.files.seal ? sealed : this.files.seal.unwrap(sealed);
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
		const text = part ? await this.files.read(part.file) : null;
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
		// The summary's hash is the one checked: under a sealed summary, a part's own header vouches for nothing.
		if (part.sum === undefined || part.sum !== header.sum || part.sum !== (await this.sumOf(text, firstBreak + 1))) return null;
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
		try {
			if (!(await this.files.ready())) return;
			const written: SummaryPart[] = [];
			let sliceStart = Date.now();
			const pause = async () => {
				if (Date.now() - sliceStart < SLICE_MS) return;
				await this.yieldNow();
				sliceStart = Date.now();
			};
			for (const part of await partsOf(notes, digests, pause)) {
				// A sound part whose listing did not change holds the same rows (and keys): it is not written
				// again, unless its filter is of the form before filters carried their probe count (less sharp)
				// or came without a hash (nothing vouches for its text: it is made again from the rows).
				const before = this.summary.get(part.folder);
				const unchanged = part.digest !== null && this.sound.has(part.folder) && before?.digest === part.digest && before.rows === part.rows.length && before.file === partFileName(part.folder);
				written.push(unchanged && before.filterSum !== undefined && !KeyFilter.isLegacy(before.filter) ? before : await this.writePart(part));
				sliceStart = Date.now();
			}
			await this.writeSummary(written);
			const used = new Set([SUMMARY_FILE, ...written.map((part) => part.file)]);
			for (const file of await this.files.names()) if (!used.has(file)) await this.files.remove(file);
		} catch (error) {
			this.reportFailure(error);
		}
	}

	async saveParts(parts: ReadonlyMap<string, PartRows>): Promise<void> {
		try {
			if (!(await this.files.ready())) return;
			const written = new Map(this.summary);
			const dropped: string[] = [];
			for (const [folder, part] of parts) {
				if (part.rows.length > 0) written.set(folder, await this.writePart({ folder, ...part }));
				else if (written.delete(folder)) dropped.push(partFileName(folder));
			}
			await this.writeSummary([...written.values()]);
			// A part the summary no longer names is removed (after the summary: a stop in between leaves a file nobody reads).
			for (const file of dropped) await this.files.remove(file);
		} catch (error) {
			this.reportFailure(error);
		}
	}

	/** Writes one folder's part; its entry in the summary. Filtered and written a slice of rows at a time: a month of a busy group is tens of thousands. */
	private async writePart(part: PartToSave): Promise<SummaryPart> {
		const header: PartHeader = { format: HISTORY_CACHE_FORMAT, root: this.root, folder: part.folder, digest: part.digest, rows: part.rows.length };
		const file = partFileName(part.folder);
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
		await this.files.write(file, `${JSON.stringify(header)}\n${text}`);
		this.sound.add(part.folder);
		return { ...header, file, filter: filterText, filterSum: filterSum(filterText) };
	}

	/** Writes `parts.json` (after the parts it tells of), and keeps it as the summary last written. */
	private async writeSummary(parts: SummaryPart[]): Promise<void> {
		const summary = JSON.stringify({ format: HISTORY_CACHE_FORMAT, root: this.root, parts } satisfies Summary);
		await this.files.write(SUMMARY_FILE, this.files.seal ? this.files.seal.wrap(summary) : summary);
		this.summary = new Map(parts.map((part) => [part.folder, part]));
	}

	private reportFailure(error: unknown): void {
		this.files.problem(`the history index could not be saved (${error instanceof Error ? error.message : String(error)}); the next start reads the history again`, error);
	}

	/** The hash of `text` from `from` on: the host's, else FNV-1a a slice at a time (a part can be megabytes). */
	private async sumOf(text: string, from: number): Promise<number | string> {
		if (this.files.sum) return this.files.sum(text, from);
		let h = 0x811c9dc5;
		for (let at = from; at < text.length; at += SUM_SLICE) {
			const end = Math.min(text.length, at + SUM_SLICE);
			for (let i = at; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
			if (end < text.length) await this.yieldNow();
		}
		return h >>> 0;
	}
}
