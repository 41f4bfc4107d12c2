import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HISTORY_CACHE_FORMAT } from "../src/router/history-cache";
import { PartedHistoryCopy } from "../src/router/parted-history-copy";
import type { CopyFiles } from "../src/router/parted-history-copy";
import { readFileBytes, writeNew, writeWhole } from "./file-ops";

// The CLI's copy of the history index (src/router/history-cache.ts), split by history folder as the
// plugin's is (src/router/parted-history-copy.ts): one folder per vault and root under the user's
// cache folder ($A2A_CACHE_DIR, else $XDG_CACHE_HOME/a2a-relay, else ~/.cache/a2a-relay; a relative
// one is not used), never inside the vault, so that no agent writing into the vault can change it and
// no sync engine carries it to another device. A2A_CACHE_DIR=off keeps no copy. The cache folder must
// be this user's and closed to others; every file in it is written under a fresh temporary name (never
// through a link) and renamed into place. The summary (`parts.json`) is signed with this user's key
// (the cache folder's `key`, readable by the user alone) and holds each part's SHA-256: a summary
// that was edited, cut short or cannot be read counts as none, and so does such a part. The cache
// folder keeps the copies of the vaults used last (at most MAX_COPIES). Without a usable folder,
// commands run without a copy.

const MAX_COPIES = 64;

/** A vault's copy (a folder, `history-<hex>`) or the one file of a copy of an earlier format (`history-<hex>.json`). */
const COPY_NAME = /^history-[0-9a-f]{32}(\.json)?$/;

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

/** The text of a regular file of this user's, closed to others, read without following a link; null otherwise. */
function readOwn(file: string): string | null {
	try {
		const read = readFileBytes(file);
		return read && ours(read.st, true) ? read.bytes.toString("utf8") : null;
	} catch {
		return null;
	}
}

/** A folder of this user's (not a link), made closed to others when it is missing; false when it cannot be one. */
function ownFolder(folder: string, create: boolean, secret: boolean): boolean {
	let st: fs.Stats;
	try {
		st = fs.lstatSync(folder);
	} catch {
		if (!create) return false;
		try {
			fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
			st = fs.lstatSync(folder);
		} catch {
			return false;
		}
	}
	return st.isDirectory() && ours(st, secret);
}

/** The files of one vault's copy, in its folder under the user's cache folder. */
class CacheFiles implements CopyFiles {
	/** The copy's folder. */
	readonly dir: string;
	/** Set once the cache folder was found fit (a command looks it up once). */
	private fit = false;
	private signingKey: Buffer | null = null;

	constructor(
		private readonly folder: string,
		private readonly vaultDir: string,
		private readonly root: string,
		private readonly onProblem: (message: string) => void,
	) {
		this.dir = path.join(folder, `history-${createHash("sha256").update(`${vaultDir}\n${root}`).digest("hex").slice(0, 32)}`);
	}

	/** The cache folder when it is one to use: this user's, closed to others' writes, outside the vault (made when missing). */
	private usableFolder(create: boolean): boolean {
		if (!this.fit) this.fit = ownFolder(this.folder, create, false) && !isInside(fs.realpathSync(this.folder), this.vaultDir);
		return this.fit;
	}

	/** This user's signing key (made on first use, readable by the user alone); null when it cannot be had. */
	private key(create: boolean): Buffer | null {
		if (this.signingKey || !this.usableFolder(create)) return this.signingKey;
		const file = path.join(this.folder, "key");
		const read = () => {
			const text = readOwn(file)?.trim() ?? "";
			return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, "hex") : null;
		};
		let found = read();
		if (!found && create) {
			try {
				writeNew(file, randomBytes(32).toString("hex"), 0o600);
			} catch {
				// Another process made it first: read what it made.
			}
			found = read();
		}
		this.signingKey = found;
		return found;
	}

	private mac(key: Buffer, summary: string): string {
		return createHmac("sha256", key).update(`${HISTORY_CACHE_FORMAT}\n${this.vaultDir}\n${this.root}\n`).update(summary).digest("hex");
	}

	readonly seal = {
		wrap: (summary: string): string => {
			const key = this.key(true);
			if (key === null) throw new Error("no signing key");
			return `${this.mac(key, summary)}\n${summary}`;
		},
		unwrap: (text: string): string | null => {
			const key = this.key(false);
			const newline = text.indexOf("\n");
			if (key === null || newline < 0) return null;
			const summary = text.slice(newline + 1);
			const given = Buffer.from(text.slice(0, newline), "hex");
			const expected = Buffer.from(this.mac(key, summary), "hex");
			return given.length === expected.length && timingSafeEqual(given, expected) ? summary : null;
		},
	};

	sum(text: string, from: number): string {
		return createHash("sha256").update(from === 0 ? text : text.slice(from)).digest("hex");
	}

	async read(file: string): Promise<string | null> {
		if (!this.usableFolder(false) || !ownFolder(this.dir, false, true)) return null;
		return readOwn(path.join(this.dir, file));
	}

	async write(file: string, text: string): Promise<void> {
		writeWhole(path.join(this.dir, file), text, 0o600);
	}

	async remove(file: string): Promise<void> {
		fs.rmSync(path.join(this.dir, file), { force: true });
	}

	async names(): Promise<string[]> {
		return fs.readdirSync(this.dir);
	}

	async ready(): Promise<boolean> {
		if (this.key(true) === null || !ownFolder(this.dir, true, true)) {
			this.onProblem(`${this.folder} cannot hold the history index (it must be a folder of this user's, closed to others, outside the vault): commands read the history whole`);
			return false;
		}
		fs.rmSync(`${this.dir}.json`, { force: true });
		this.keepNewest();
		return true;
	}

	problem(message: string): void {
		this.onProblem(`${message} (in ${this.folder})`);
	}

	/** Removes the copies of the vaults used longest ago, beyond MAX_COPIES (a copy's folder is touched at each save). */
	private keepNewest(): void {
		const now = new Date();
		fs.utimesSync(this.dir, now, now);
		const copies = fs
			.readdirSync(this.folder)
			.filter((name) => COPY_NAME.test(name))
			.map((name) => ({ name, mtime: fs.lstatSync(path.join(this.folder, name)).mtimeMs }));
		if (copies.length <= MAX_COPIES) return;
		copies.sort((a, b) => b.mtime - a.mtime);
		for (const old of copies.slice(MAX_COPIES)) fs.rmSync(path.join(this.folder, old.name), { recursive: true, force: true });
	}
}

export class HistoryCacheFolder extends PartedHistoryCopy {
	/** The folder this vault's copy is kept in. */
	readonly dir: string;

	constructor(folder: string, vaultDir: string, root: string, onProblem: (message: string) => void = () => undefined) {
		const files = new CacheFiles(folder, vaultDir, root, onProblem);
		super(files, root);
		this.dir = files.dir;
	}
}
