import * as fs from "node:fs";
import * as path from "node:path";
import { NO_LINKS, fileId, isCode } from "./fs-facts";
import { keepOriginalBytes } from "./original-bytes";
import { holdsLines } from "../src/core/text";
import type { ChangeResult, FileInfo, MoveResult, ReadFile, ReadOptions, TransferOptions, TransferResult, VaultPort } from "../src/router/vault-port";

// The vault port over Node's fs, for the CLI. Calls are synchronous: one process routes one note at
// a time, and a synchronous call costs a system call where an asynchronous one also waits on the
// thread pool. Every new file is written under a hidden temporary name in its folder and then
// hard-linked into place: link() never replaces an existing file, so a reader never sees half a note
// and two writers of one name cannot overwrite each other. Symbolic links are never followed.

/**
 * The real path of `full` (links resolved); for a path that does not exist (yet), that of its
 * nearest existing parent with the rest of the path after it.
 */
function realPathOf(full: string): { real: string; exists: boolean } {
	let existing = full;
	const rest: string[] = [];
	for (;;) {
		try {
			return { real: path.join(fs.realpathSync(existing), ...rest), exists: rest.length === 0 };
		} catch (error) {
			const parent = path.dirname(existing);
			if (!isCode(error, "ENOENT", "ENOTDIR") || parent === existing) throw error;
			rest.unshift(path.basename(existing));
			existing = parent;
		}
	}
}

function unlinkQuietly(full: string): void {
	try {
		fs.unlinkSync(full);
	} catch (error) {
		if (!isCode(error, "ENOENT")) throw error;
	}
}

/** Our temporary files: `.a2a-<pid>-<n>-<start of the name>.tmp`, removed by the router once stale. */
export const TEMP_PREFIX = ".a2a-";
let tempCounter = 0;

const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** True when `now` is the file `known` recorded (same inode, same size): nothing else wrote it since. */
function sameFile(known: { ino: number; size: number } | undefined, now: { ino: number; size: number } | null | undefined): boolean {
	return known !== undefined && !!now && now.ino === known.ino && now.size === known.size;
}

export class NodeVault implements VaultPort {
	readonly dir: string;
	private readonly folders = new Set<string>();
	private readonly appending = new Map<string, number>();
	/** Each appended file's inode and size after this vault's last append to it. */
	private readonly appended = new Map<string, { ino: number; size: number }>();
	/** The vault folder's real path, once looked up. */
	private vaultReal: string | undefined;
	/** Folders whose real path was looked up: null when inside the vault, else why nothing is written there. */
	private readonly placement = new Map<string, string | null>();

	constructor(vaultDir: string) {
		this.dir = path.resolve(vaultDir);
	}

	/**
	 * The absolute path of a vault path; refuses anything that would leave the vault folder. Only `/`
	 * separates: a name is used exactly as given (a backslash is a character of the name).
	 */
	abs(vaultPath: string): string {
		const segments = vaultPath.split("/").filter((s) => s !== "" && s !== ".");
		if (segments.includes("..")) throw new Error(`path ${JSON.stringify(vaultPath)} is outside the vault`);
		return segments.length === 0 ? this.dir : path.join(this.dir, ...segments);
	}

	private rel(full: string): string {
		return path.relative(this.dir, full).split(path.sep).join("/");
	}

	private info(vaultPath: string, st: fs.Stats): FileInfo {
		return { path: vaultPath, size: st.size, mtime: st.mtimeMs, id: fileId(st) };
	}

	/** The lstat of a regular file, or null (missing, a folder, a link). */
	private lstatFile(full: string): fs.Stats | null {
		try {
			const st = fs.lstatSync(full);
			return st.isFile() ? st : null;
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR")) return null;
			throw error;
		}
	}

	async list(folder: string): Promise<string[]> {
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(this.abs(folder), { withFileTypes: true });
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR")) return [];
			throw error;
		}
		const prefix = folder.replace(/\/+$/, "");
		return entries.filter((e) => e.isFile()).map((e) => (prefix === "" ? e.name : `${prefix}/${e.name}`));
	}

	async listRecursive(folder: string): Promise<FileInfo[]> {
		const out: FileInfo[] = [];
		const walk = (dir: string): void => {
			let entries: fs.Dirent[];
			try {
				entries = fs.readdirSync(dir, { withFileTypes: true });
			} catch (error) {
				if (isCode(error, "ENOENT", "ENOTDIR")) return;
				throw error;
			}
			for (const entry of entries) {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) walk(full);
				else if (entry.isFile()) {
					const st = this.lstatFile(full);
					if (st) out.push(this.info(this.rel(full), st));
				}
			}
		};
		walk(this.abs(folder));
		return out;
	}

	async stat(vaultPath: string): Promise<FileInfo | null> {
		const st = this.lstatFile(this.abs(vaultPath));
		return st ? this.info(vaultPath, st) : null;
	}

	async read(vaultPath: string, options: ReadOptions = {}): Promise<ReadFile | null> {
		let fd: number;
		try {
			fd = fs.openSync(this.abs(vaultPath), fs.constants.O_RDONLY | NO_FOLLOW);
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR", "ELOOP", "EISDIR")) return null;
			throw error;
		}
		try {
			const st = fs.fstatSync(fd);
			if (!st.isFile()) return null;
			const wanted = options.maxBytes !== undefined ? Math.min(st.size, options.maxBytes) : st.size;
			const bytes = Buffer.allocUnsafe(wanted);
			let got = 0;
			while (got < wanted) {
				const n = fs.readSync(fd, bytes, got, wanted - got, got);
				if (n === 0) break;
				got += n;
			}
			const raw = got === wanted ? bytes : bytes.subarray(0, got);
			const text = raw.toString("utf8");
			// The original bytes are kept only for a file that is not valid UTF-8, so that rewriting
			// its frontmatter never changes the rest of it.
			const basis = text.includes("\uFFFD") && !Buffer.from(text, "utf8").equals(raw) ? raw : undefined;
			return { text, info: this.info(vaultPath, st), truncated: got < st.size, basis };
		} finally {
			fs.closeSync(fd);
		}
	}

	private tempPathFor(full: string): string {
		tempCounter += 1;
		// The start of the name is enough to recognise it; the whole of a long name plus the prefix
		// would be too long to create.
		const start = Array.from(path.basename(full)).slice(0, 40).join("").replace(/^\.+/, "");
		return path.join(path.dirname(full), `${TEMP_PREFIX}${process.pid}-${tempCounter}-${start}.tmp`);
	}

	private ensureParent(full: string): void {
		const parent = path.dirname(full);
		if (this.folders.has(parent)) return;
		this.assertInside(parent);
		fs.mkdirSync(parent, { recursive: true });
		this.folders.add(parent);
	}

	/**
	 * Refuses a write into a folder whose real path is outside the vault's (a box or the log folder
	 * that is a link to a folder elsewhere): whatever links the vault holds, nothing is written
	 * outside it. A folder is looked up once (one realpath, then cached), never once per note; one
	 * that does not exist yet is judged by its nearest existing parent, where mkdir would write.
	 */
	private assertInside(folderFull: string): void {
		const known = this.placement.get(folderFull);
		if (known === null) return;
		if (known !== undefined) throw new Error(known);
		if (this.vaultReal === undefined) {
			const vault = realPathOf(this.dir);
			if (vault.exists) this.vaultReal = vault.real;
		}
		const vaultReal = this.vaultReal ?? realPathOf(this.dir).real;
		const folder = realPathOf(folderFull);
		const relative = path.relative(vaultReal, folder.real);
		const inside = relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
		const verdict = inside ? null : `${this.rel(folderFull) || "."} leads to ${folder.real}, outside the vault (a link to a folder elsewhere): nothing is written there; make it a folder of the vault`;
		if (folder.exists) this.placement.set(folderFull, verdict);
		if (verdict !== null) throw new Error(verdict);
	}

	/** Writes a temporary file next to `full`; the caller links or renames it into place. */
	private writeTemp(full: string, content: string | Buffer): string {
		const temp = this.tempPathFor(full);
		try {
			fs.writeFileSync(temp, content, { flag: "wx" });
		} catch (error) {
			if (!isCode(error, "ENOENT")) throw error;
			// The folder went away (or was never made): make it and write again.
			this.folders.delete(path.dirname(full));
			this.ensureParent(full);
			fs.writeFileSync(temp, content, { flag: "wx" });
		}
		return temp;
	}

	async create(vaultPath: string, text: string, basis?: ReadFile): Promise<boolean> {
		const full = this.abs(vaultPath);
		this.ensureParent(full);
		const content = keepOriginalBytes(text, basis);
		const temp = this.writeTemp(full, content);
		try {
			fs.linkSync(temp, full);
			return true;
		} catch (error) {
			if (isCode(error, "EEXIST")) return false;
			if (!isCode(error, ...NO_LINKS)) throw error;
			return this.createWithoutLinks(full, content);
		} finally {
			unlinkQuietly(temp);
		}
	}

	async createBytes(vaultPath: string, bytes: Uint8Array): Promise<"created" | "same" | "taken"> {
		const full = this.abs(vaultPath);
		this.ensureParent(full);
		const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		const temp = this.writeTemp(full, content);
		let created: boolean;
		try {
			fs.linkSync(temp, full);
			created = true;
		} catch (error) {
			if (isCode(error, "EEXIST")) created = false;
			else if (isCode(error, ...NO_LINKS)) created = this.createWithoutLinks(full, content);
			else throw error;
		} finally {
			unlinkQuietly(temp);
		}
		if (created) return "created";
		// What holds the name is compared only when it is a plain file of the vault (a link is never followed).
		let fd: number | null = null;
		try {
			fd = fs.openSync(full, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
			return fs.fstatSync(fd).isFile() && fs.readFileSync(fd).equals(content) ? "same" : "taken";
		} catch {
			return "taken";
		} finally {
			if (fd !== null) fs.closeSync(fd);
		}
	}

	/** Exclusive create where the file system has no hard links: never overwrites, but is not atomic for readers. */
	private createWithoutLinks(full: string, content: string | Buffer): boolean {
		try {
			fs.writeFileSync(full, content, { flag: "wx" });
			return true;
		} catch (error) {
			if (isCode(error, "EEXIST")) return false;
			throw error;
		}
	}

	async move(from: string, to: string): Promise<MoveResult> {
		const src = this.abs(from);
		const dest = this.abs(to);
		const before = this.lstatFile(src);
		if (!before) return "missing";
		this.assertInside(path.dirname(src));
		this.ensureParent(dest);
		try {
			fs.linkSync(src, dest);
		} catch (error) {
			if (isCode(error, "EEXIST")) return "exists";
			if (isCode(error, "ENOENT")) {
				if (!this.lstatFile(src)) return "missing";
				// The destination folder went away since it was made: make it again.
				this.folders.delete(path.dirname(dest));
				this.ensureParent(dest);
				return this.move(from, to);
			}
			if (!isCode(error, ...NO_LINKS)) throw error;
			if (this.lstatFile(dest) || fs.existsSync(dest)) return "exists";
			fs.renameSync(src, dest);
			return "moved";
		}
		// Unlink the source only if it is still the file just linked: a file put in its place meanwhile stays.
		const now = this.lstatFile(src);
		if (now && fileId(now) === fileId(before)) fs.unlinkSync(src);
		return "moved";
	}

	/** "done" when the file is still the one `expected` read (same identity, size and time). */
	private unchanged(full: string, expected: ReadFile): ChangeResult {
		const now = this.lstatFile(full);
		if (!now) return "missing";
		const was = expected.info;
		return fileId(now) === was.id && now.size === was.size && now.mtimeMs === was.mtime ? "done" : "changed";
	}

	async replace(vaultPath: string, text: string, expected: ReadFile): Promise<ChangeResult> {
		const full = this.abs(vaultPath);
		const check = this.unchanged(full, expected);
		if (check !== "done") return check;
		this.assertInside(path.dirname(full));
		const temp = this.writeTemp(full, keepOriginalBytes(text, expected));
		try {
			fs.renameSync(temp, full);
		} catch (error) {
			unlinkQuietly(temp);
			throw error;
		}
		return "done";
	}

	async remove(vaultPath: string, expected?: ReadFile): Promise<ChangeResult> {
		const full = this.abs(vaultPath);
		const check = expected ? this.unchanged(full, expected) : this.lstatFile(full) ? "done" : "missing";
		if (check !== "done") return check;
		this.assertInside(path.dirname(full));
		try {
			fs.unlinkSync(full);
		} catch (error) {
			if (isCode(error, "ENOENT")) return "missing";
			throw error;
		}
		return "done";
	}

	/**
	 * The new file first (linked into place, never over another), then the note is removed if it is
	 * still what was read: a note rewritten meanwhile stays, to be routed as what it now is. An
	 * interruption between the two leaves both; the next transfer finds its copy (`existed`).
	 */
	async transfer(source: ReadFile, folder: string, names: Iterable<string>, text: string, options: TransferOptions = {}): Promise<TransferResult> {
		const sourceFull = this.abs(source.info.path);
		const before = this.unchanged(sourceFull, source);
		if (before !== "done") return before;
		// Both ends are checked before anything is written: a refused transfer leaves the note where it is, alone.
		this.assertInside(path.dirname(sourceFull));
		this.assertInside(this.abs(folder));
		for (const name of names) {
			const path = `${folder}/${name}`;
			let existed = false;
			if (!(await this.create(path, text, source))) {
				const there = await this.read(path);
				if (!there || !options.isEarlierCopy?.(there.text)) continue;
				existed = true;
			}
			await options.beforeFinish?.(path, existed);
			await this.remove(source.info.path, source);
			return { path, existed };
		}
		throw new Error(`no free name in ${folder} for ${source.info.path}`);
	}

	/**
	 * Appends through a descriptor kept open until `flush` (a pass appends one log row per decision):
	 * a write() reaches the kernel at once, so a killed process loses no row it wrote. The file is
	 * read only when something else wrote it since this vault's last append (its inode or size
	 * differs), to see whether it holds the lines already; a file a sync engine replaced is reopened.
	 */
	async append(vaultPath: string, text: string, header: string): Promise<"appended" | "present"> {
		const full = this.abs(vaultPath);
		const now = this.lstatFile(full);
		const known = this.appended.get(full);
		let fd = this.appending.get(full);
		if (fd !== undefined && !sameFile(known, now)) {
			fs.closeSync(fd);
			this.appending.delete(full);
			fd = undefined;
		}
		if (fd === undefined) {
			this.assertInside(path.dirname(full));
			if (!now && (await this.create(vaultPath, header + text))) {
				const made = this.lstatFile(full);
				if (made) this.appended.set(full, { ino: made.ino, size: made.size });
				return "appended";
			}
			fd = fs.openSync(full, fs.constants.O_RDWR | fs.constants.O_APPEND | NO_FOLLOW);
			this.appending.set(full, fd);
			const opened = fs.fstatSync(fd);
			this.appended.set(full, { ino: opened.ino, size: opened.size });
			if (!sameFile(known, opened) && holdsLines(fs.readFileSync(fd, "utf8"), text)) return "present";
		}
		(this.appended.get(full) as { ino: number; size: number }).size += fs.writeSync(fd, text);
		return "appended";
	}

	/** Closes what `append` kept open (what it knows of each file stays, so an unchanged log is not read again). */
	async flush(): Promise<void> {
		for (const fd of this.appending.values()) fs.closeSync(fd);
		this.appending.clear();
	}

	async isFolder(vaultPath: string): Promise<boolean> {
		try {
			return fs.statSync(this.abs(vaultPath)).isDirectory();
		} catch {
			return false;
		}
	}

	async ensureFolder(vaultPath: string): Promise<void> {
		const full = this.abs(vaultPath);
		if (!this.folders.has(full)) {
			this.assertInside(full);
			fs.mkdirSync(full, { recursive: true });
			this.folders.add(full);
		}
		return ;
	}
}
