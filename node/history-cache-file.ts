import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HISTORY_CACHE_FORMAT, decodeRows, encodeRow } from "../src/router/history-cache";
import type { CachedNote, HistoryCacheStore } from "../src/router/history-cache";
import { readFileBytes, writeNew, writeWhole } from "./file-ops";

// The CLI's copy of the history index (src/router/history-cache.ts): one JSON file per vault and
// root under the user's cache folder ($A2A_CACHE_DIR, else $XDG_CACHE_HOME/a2a-relay, else
// ~/.cache/a2a-relay; a relative one is not used), never inside the vault, so that no agent writing
// into the vault can change it and no sync engine carries it to another device. A2A_CACHE_DIR=off
// keeps no copy. The folder must be this user's and closed to others; every file in it is written
// under a fresh temporary name (never through a link) and renamed into place. Each copy is signed
// with this user's key (the folder's `key`, readable by the user alone): a copy that was edited, cut
// short or cannot be read, or is of another format, counts as none. The folder keeps the copies of
// the vaults used last (at most MAX_FILES). Without a usable folder, commands run without a copy.

const MAX_FILES = 64;

/** The file's first line; the rows follow, one a line (src/router/history-cache.ts), signed with `mac`. */
interface CacheHeader {
	format: number;
	vault: string;
	root: string;
	/** HMAC-SHA256, with the user's key, of the header's other fields and the rows' text. */
	mac: string;
}

/** The cache folder, or null when there is none to use (switched off, relative, no home folder). */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | null {
	const chosen = env.A2A_CACHE_DIR;
	if (chosen === "off") return null;
	if (chosen) return path.isAbsolute(chosen) ? path.resolve(chosen) : null;
	if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, "a2a-relay");
	let home: string;
	try {
		home = os.homedir();
	} catch {
		return null;
	}
	return path.isAbsolute(home) ? path.join(home, ".cache", "a2a-relay") : null;
}

const isInside = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : `${outer}${path.sep}`);

/** True for a folder or file of this user's that nobody else may write (nor, with `secret`, read). */
function ours(st: fs.Stats, secret: boolean): boolean {
	const uid = typeof process.getuid === "function" ? process.getuid() : null;
	if (uid !== null && st.uid !== uid) return false;
	return (st.mode & (secret ? 0o077 : 0o022)) === 0;
}

/** Reads a regular file of this user's without following a link; null otherwise. */
function readOwn(file: string, secret: boolean): string | null {
	return readOwnBytes(file, secret)?.toString("utf8") ?? null;
}

/** The bytes of a regular file of this user's, read without following a link; null otherwise. */
function readOwnBytes(file: string, secret: boolean): Buffer | null {
	try {
		const read = readFileBytes(file);
		return read && ours(read.st, secret) ? read.bytes : null;
	} catch {
		return null;
	}
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

	/** Set once the folder was found fit (a command looks it up once). */
	private fit = false;

	/** The folder when it is one to use: this user's, closed to others, outside the vault (made when missing). */
	private usableFolder(create: boolean): boolean {
		if (this.fit) return true;
		let st: fs.Stats;
		try {
			st = fs.lstatSync(this.folder);
		} catch {
			if (!create) return false;
			try {
				fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
				st = fs.lstatSync(this.folder);
			} catch {
				return false;
			}
		}
		if (!st.isDirectory() || !ours(st, false)) return false;
		this.fit = !isInside(fs.realpathSync(this.folder), this.vaultDir);
		return this.fit;
	}

	/** This user's signing key (made on first use, readable by the user alone); null when it cannot be had. */
	private key(create: boolean): Buffer | null {
		if (!this.usableFolder(create)) return null;
		const file = path.join(this.folder, "key");
		const read = () => {
			const text = readOwn(file, true)?.trim() ?? "";
			return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, "hex") : null;
		};
		const found = read();
		if (found || !create) return found;
		try {
			writeNew(file, randomBytes(32).toString("hex"), 0o600);
		} catch {
			// Another process made it first: read what it made.
		}
		return read();
	}

	/** The rows are signed as bytes (a year of history is tens of MB: they are not encoded again to be checked). */
	private mac(key: Buffer, rowsText: string | Buffer): string {
		return createHmac("sha256", key).update(`${HISTORY_CACHE_FORMAT}\n${this.vaultDir}\n${this.root}\n`).update(rowsText).digest("hex");
	}

	async load(): Promise<Map<string, CachedNote> | null> {
		const key = this.key(false);
		if (key === null) return null;
		let rowsText: string;
		try {
			const bytes = readOwnBytes(this.file, true);
			if (bytes === null) return null;
			const newline = bytes.indexOf(10);
			const header = JSON.parse(bytes.toString("utf8", 0, newline)) as CacheHeader;
			const rows = bytes.subarray(newline + 1);
			if (header.format !== HISTORY_CACHE_FORMAT || header.vault !== this.vaultDir || header.root !== this.root || typeof header.mac !== "string") return null;
			const expected = Buffer.from(this.mac(key, rows), "hex");
			const given = Buffer.from(header.mac, "hex");
			if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
			rowsText = rows.toString("utf8");
		} catch {
			return null;
		}
		const notes = new Map<string, CachedNote>();
		for (const row of decodeRows(rowsText)) {
			if (row === null) return null;
			notes.set(row.path, row.note);
		}
		return notes;
	}

	async save(notes: ReadonlyMap<string, CachedNote>): Promise<void> {
		const key = this.key(true);
		if (key === null) {
			this.onProblem(`${this.folder} cannot hold the history index (it must be a folder of this user's, closed to others, outside the vault): commands read the history whole`);
			return;
		}
		try {
			const rows: string[] = [];
			for (const [notePath, note] of notes) rows.push(encodeRow(notePath, note));
			const rowsText = rows.join("\n");
			const header: CacheHeader = { format: HISTORY_CACHE_FORMAT, vault: this.vaultDir, root: this.root, mac: this.mac(key, rowsText) };
			writeWhole(this.file, `${JSON.stringify(header)}\n${rowsText}`, 0o600);
			this.keepNewest();
		} catch (error) {
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
