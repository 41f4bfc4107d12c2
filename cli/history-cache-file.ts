import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { IndexEntry } from "../src/core/message-index";
import { HISTORY_CACHE_FORMAT } from "../src/router/history-cache";
import type { CachedNote, HistoryCacheStore } from "../src/router/history-cache";

// The CLI's copy of the history index (src/router/history-cache.ts): one JSON file per vault and
// root under the user's cache folder ($A2A_CACHE_DIR, else $XDG_CACHE_HOME/a2a-relay, else
// ~/.cache/a2a-relay), outside the vault, so that no agent writing into the vault can change it and
// no sync engine carries it to another device. A2A_CACHE_DIR=off keeps no copy. The file is written
// whole under a temporary name and renamed into place. Each copy is signed with a key of this user's
// (the folder's `key`, readable by the user alone): a copy that was edited, cut short or cannot be
// read, or is of another format, counts as none. The folder keeps the copies of the vaults used last
// (at most MAX_FILES).

const MAX_FILES = 64;

/** A note: its path, size, mtime and identity, and its entry without path and location. */
type Row = [path: string, size: number, mtime: number, id: string | null, entry: Omit<IndexEntry, "path" | "location">];

/** The file's first line; the rows follow on the second, as JSON, signed with `mac`. */
interface CacheHeader {
	format: number;
	vault: string;
	root: string;
	/** HMAC-SHA256, with the user's key, of the header's other fields and the rows' text. */
	mac: string;
}

/** Enough of an entry's shape to index it (the rest is what the router wrote it from). */
function isEntry(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const entry = value as Partial<IndexEntry>;
	return Array.isArray(entry.route) && (entry.kind === null || typeof entry.kind === "string");
}

/** The cache folder, or null when the copy is switched off. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | null {
	const chosen = env.A2A_CACHE_DIR;
	if (chosen === "off") return null;
	if (chosen) return path.resolve(chosen);
	const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), ".cache");
	return path.join(base, "a2a-relay");
}

export class HistoryCacheFile implements HistoryCacheStore {
	private readonly file: string;

	constructor(
		private readonly folder: string,
		private readonly vaultDir: string,
		private readonly root: string,
		private readonly onProblem: (message: string) => void = () => undefined,
	) {
		const key = createHash("sha256").update(`${vaultDir}\n${root}`).digest("hex").slice(0, 32);
		this.file = path.join(folder, `history-${key}.json`);
	}

	/** This user's signing key (made on first use, readable by the user alone); null when it cannot be had. */
	private key(create: boolean): Buffer | null {
		const file = path.join(this.folder, "key");
		try {
			return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
		} catch {
			if (!create) return null;
		}
		try {
			fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
			fs.writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
		} catch {
			// Another process made it first, or the folder is not writable: read what is there.
		}
		try {
			return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
		} catch {
			return null;
		}
	}

	private mac(key: Buffer, rowsText: string): string {
		return createHmac("sha256", key).update(`${HISTORY_CACHE_FORMAT}\n${this.vaultDir}\n${this.root}\n`).update(rowsText).digest("hex");
	}

	async load(): Promise<Map<string, CachedNote> | null> {
		const key = this.key(false);
		if (key === null || key.length === 0) return null;
		let rows: unknown;
		try {
			const text = fs.readFileSync(this.file, "utf8");
			const newline = text.indexOf("\n");
			const header = JSON.parse(text.slice(0, newline)) as CacheHeader;
			const rowsText = text.slice(newline + 1);
			if (header.format !== HISTORY_CACHE_FORMAT || header.vault !== this.vaultDir || header.root !== this.root || typeof header.mac !== "string") return null;
			const expected = Buffer.from(this.mac(key, rowsText), "hex");
			const given = Buffer.from(header.mac, "hex");
			if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
			rows = JSON.parse(rowsText);
		} catch {
			return null;
		}
		if (!Array.isArray(rows)) return null;
		const notes = new Map<string, CachedNote>();
		for (const row of rows as unknown[]) {
			if (!Array.isArray(row) || typeof row[0] !== "string" || typeof row[1] !== "number" || typeof row[2] !== "number" || !isEntry(row[4])) return null;
			const entry = row[4] as IndexEntry;
			entry.path = row[0];
			notes.set(row[0], { size: row[1], mtime: row[2], id: typeof row[3] === "string" ? row[3] : undefined, entry });
		}
		return notes;
	}

	async save(notes: ReadonlyMap<string, CachedNote>): Promise<void> {
		const rows: Row[] = [];
		for (const [notePath, note] of notes) {
			const { path: _path, location: _location, ...entry } = note.entry;
			rows.push([notePath, note.size, note.mtime, note.id ?? null, entry]);
		}
		const temp = `${this.file}.${process.pid}.tmp`;
		try {
			const key = this.key(true);
			if (key === null || key.length === 0) throw new Error("no signing key");
			const rowsText = JSON.stringify(rows);
			const header: CacheHeader = { format: HISTORY_CACHE_FORMAT, vault: this.vaultDir, root: this.root, mac: this.mac(key, rowsText) };
			fs.writeFileSync(temp, `${JSON.stringify(header)}\n${rowsText}`);
			fs.renameSync(temp, this.file);
			this.keepNewest();
		} catch (error) {
			fs.rmSync(temp, { force: true });
			this.onProblem(`the history index could not be saved in ${this.folder} (${(error as Error).message}); the next command reads the history again`);
		}
	}

	/** Removes the copies of the vaults used longest ago, beyond MAX_FILES. */
	private keepNewest(): void {
		const files = fs
			.readdirSync(this.folder)
			.filter((name) => /^history-[0-9a-f]{32}\.json$/.test(name))
			.map((name) => ({ name, mtime: fs.statSync(path.join(this.folder, name)).mtimeMs }));
		if (files.length <= MAX_FILES) return;
		files.sort((a, b) => b.mtime - a.mtime);
		for (const old of files.slice(MAX_FILES)) fs.rmSync(path.join(this.folder, old.name), { force: true });
	}
}
