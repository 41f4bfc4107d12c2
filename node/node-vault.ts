import * as fs from "node:fs";
import * as path from "node:path";
import { FolderGuard } from "./folder-guard";
import { holdsBytes, linkOrCreate, lstatFile, readFileBytes, unlinkQuietly } from "./file-ops";
import { FilePlacer } from "./file-placer";
import { NO_LINKS, fileId, isCode } from "./fs-facts";
import { entriesOf, fileInfo, filesBelow, filesIn } from "./folder-listing";
import { LogAppender } from "./log-appender";
import { keepOriginalBytes } from "./original-bytes";
import type { ChangeResult, FileInfo, MoveResult, ReadFile, ReadOptions, TransferOptions, TransferResult, VaultPort } from "../src/router/vault-port";

// The vault port over Node's fs, for the CLI. Calls are synchronous: one process routes one note at
// a time, and a synchronous call costs a system call where an asynchronous one also waits on the
// thread pool. Every new file is written under a hidden temporary name in its folder and then
// hard-linked into place: link() never replaces an existing file, so a reader never sees half a note
// and two writers of one name cannot overwrite each other. Symbolic links are never followed.

/** A vault path with no empty, "." or ".." segment (and no segment path.join would rewrite). */
const PLAIN_PATH = /^(?!\.{1,2}(?:\/|$))(?:[^/]+\/(?!\.{1,2}(?:\/|$)))*[^/]+$/;

export class NodeVault implements VaultPort {
	readonly dir: string;
	readonly canLeaveLastStep = true;
	private readonly guard: FolderGuard;
	/** Where every new file is written, linked into place and checked (file-placer.ts). */
	private readonly files: FilePlacer;
	private readonly appender = new LogAppender();

	constructor(vaultDir: string) {
		this.dir = path.resolve(vaultDir);
		this.guard = new FolderGuard(this.dir, (full) => this.rel(full));
		this.files = new FilePlacer(this.guard);
	}

	/**
	 * The absolute path of a vault path; refuses anything that would leave the vault folder. Only `/`
	 * separates: a name is used exactly as given (a backslash is a character of the name).
	 */
	abs(vaultPath: string): string {
		// The router's own paths are already plain ("A2A/groups/g/inbox/x.md"): joined as they are.
		if (PLAIN_PATH.test(vaultPath)) return `${this.dir}${path.sep}${path.sep === "/" ? vaultPath : vaultPath.split("/").join(path.sep)}`;
		const segments = vaultPath.split("/").filter((s) => s !== "" && s !== ".");
		if (segments.includes("..")) throw new Error(`path ${JSON.stringify(vaultPath)} is outside the vault`);
		return segments.length === 0 ? this.dir : path.join(this.dir, ...segments);
	}

	private rel(full: string): string {
		return path.relative(this.dir, full).split(path.sep).join("/");
	}

	async list(folder: string): Promise<string[]> {
		return entriesOf(this.abs(folder), folder, (e) => e.isFile());
	}

	async listFolders(folder: string): Promise<string[]> {
		return entriesOf(this.abs(folder), folder, (e) => e.isDirectory());
	}

	async listInfo(folder: string): Promise<FileInfo[]> {
		return filesIn(this.abs(folder), folder);
	}

	async listRecursive(folder: string): Promise<FileInfo[]> {
		return filesBelow(this.abs(folder), folder);
	}

	async stat(vaultPath: string): Promise<FileInfo | null> {
		const st = lstatFile(this.abs(vaultPath));
		return st ? fileInfo(vaultPath, st) : null;
	}

	async read(vaultPath: string, options: ReadOptions = {}): Promise<ReadFile | null> {
		const read = readFileBytes(this.abs(vaultPath), options.maxBytes);
		if (!read) return null;
		const text = read.bytes.toString("utf8");
		// The original bytes are kept only for a file that is not valid UTF-8, so that rewriting
		// its frontmatter never changes the rest of it.
		const basis = text.includes("\uFFFD") && !Buffer.from(text, "utf8").equals(read.bytes) ? read.bytes : undefined;
		return { text, info: fileInfo(vaultPath, read.st), truncated: read.bytes.length < read.st.size, basis };
	}

	private assertInside(folderFull: string): void {
		this.guard.assertInside(folderFull);
	}

	async create(vaultPath: string, text: string, basis?: ReadFile): Promise<boolean> {
		return this.createChecked(vaultPath, text, basis);
	}

	/** `checkedFolder`: a folder the caller has just checked; not checked again when it is this file's. */
	private createChecked(vaultPath: string, text: string, basis?: ReadFile, checkedFolder?: string): boolean {
		const full = this.abs(vaultPath);
		this.files.ensureParent(full, path.dirname(full) === checkedFolder);
		return this.files.place(full, keepOriginalBytes(text, basis)) !== null;
	}

	/**
	 * The file is written once, beside its first name, and linked to each name in turn until one is
	 * free: a taken name costs one link(). The folder is checked once for this one write, and the
	 * file checked where it landed, as `create` does.
	 */
	async createUnderFirstFree(folder: string, names: Iterable<string>, text: string): Promise<string | null> {
		const folderFull = this.abs(folder);
		let temp: string | null = null;
		let written: fs.Stats | null = null;
		try {
			for (const name of names) {
				const vaultPath = `${folder}/${name}`;
				const full = this.abs(vaultPath);
				if (path.dirname(full) !== folderFull) throw new Error(`${JSON.stringify(name)} is not a file name in ${folder}`);
				if (temp === null || written === null) {
					this.files.ensureParent(full);
					({ temp, written } = this.files.writeTemp(full, text));
				}
				const placed = linkOrCreate(temp, full, text);
				if (placed === null) continue;
				this.files.checkPlaced(full, placed, written, temp);
				return vaultPath;
			}
			return null;
		} finally {
			if (temp !== null) unlinkQuietly(temp);
		}
	}

	async createBytes(vaultPath: string, bytes: Uint8Array): Promise<"created" | "same" | "taken"> {
		const full = this.abs(vaultPath);
		this.files.ensureParent(full);
		const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		if (this.files.place(full, content)) return "created";
		return holdsBytes(full, content) ? "same" : "taken";
	}

	async move(from: string, to: string): Promise<MoveResult> {
		const src = this.abs(from);
		const dest = this.abs(to);
		const before = lstatFile(src);
		if (!before) return "missing";
		this.assertInside(path.dirname(src));
		this.files.ensureParent(dest);
		try {
			fs.linkSync(src, dest);
		} catch (error) {
			if (isCode(error, "EEXIST")) {
				// Both names are one file: a move stopped between its link and its unlink. Finish it.
				const there = lstatFile(dest);
				if (!there || fileId(there) !== fileId(before)) return "exists";
			} else {
				return this.moveFailed(error, from, to, src, dest);
			}
		}
		// The note is still at its source: a link that landed outside the vault is removed, the move refused.
		this.guard.assertPlaced(dest, before);
		// Unlink the source only if it is still the file just linked: a file put in its place meanwhile stays.
		const now = lstatFile(src);
		if (now && fileId(now) === fileId(before)) fs.unlinkSync(src);
		return "moved";
	}

	/** A link that failed for another reason than a taken name: a folder gone, or no hard links here. */
	private async moveFailed(error: unknown, from: string, to: string, src: string, dest: string): Promise<MoveResult> {
		if (isCode(error, "ENOENT")) {
			if (!lstatFile(src)) return "missing";
			// The destination folder went away since it was made: make it again.
			this.files.remakeParent(dest);
			return this.move(from, to);
		}
		if (!isCode(error, ...NO_LINKS)) throw error;
		if (lstatFile(dest) || fs.existsSync(dest)) return "exists";
		fs.renameSync(src, dest);
		return "moved";
	}

	/** "done" when the file is still the one `expected` read (same identity, size and time). */
	private unchanged(full: string, expected: ReadFile): ChangeResult {
		const now = lstatFile(full);
		if (!now) return "missing";
		const was = expected.info;
		return fileId(now) === was.id && now.size === was.size && now.mtimeMs === was.mtime ? "done" : "changed";
	}

	async replace(vaultPath: string, text: string, expected: ReadFile): Promise<ChangeResult> {
		const full = this.abs(vaultPath);
		const check = this.unchanged(full, expected);
		if (check !== "done") return check;
		this.assertInside(path.dirname(full));
		const { temp, written } = this.files.writeTemp(full, keepOriginalBytes(text, expected));
		try {
			fs.renameSync(temp, full);
		} catch (error) {
			unlinkQuietly(temp);
			throw error;
		}
		this.guard.assertPlaced(full, written);
		return "done";
	}

	async remove(vaultPath: string, expected?: ReadFile): Promise<ChangeResult> {
		const full = this.abs(vaultPath);
		const check = expected ? this.unchanged(full, expected) : lstatFile(full) ? "done" : "missing";
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
		const folderFull = this.abs(folder);
		this.assertInside(folderFull);
		for (const name of names) {
			const path = `${folder}/${name}`;
			let existed = false;
			// Its folder was checked just above: not twice for one write.
			if (!this.createChecked(path, text, source, folderFull)) {
				const there = await this.read(path);
				if (!there || !options.isEarlierCopy?.(there.text)) continue;
				existed = true;
			}
			await options.beforeFinish?.(path, existed);
			const finish = async () => {
				await this.remove(source.info.path, source);
			};
			if (options.leaveLastStep) return { path, existed, finish };
			await finish();
			return { path, existed };
		}
		throw new Error(`no free name in ${folder} for ${source.info.path}`);
	}

	/** See node/log-appender.ts. */
	async append(vaultPath: string, text: string, header: string): Promise<"appended" | "present"> {
		const full = this.abs(vaultPath);
		return this.appender.append(full, { stat: () => lstatFile(full), create: (content) => this.create(vaultPath, content), assertInside: () => this.assertInside(path.dirname(full)), assertOpened: (st) => this.guard.assertPlaced(full, st, false) }, text, header);
	}

	async flush(): Promise<void> {
		this.appender.flush();
	}

	async isFolder(vaultPath: string): Promise<boolean> {
		try {
			return fs.statSync(this.abs(vaultPath)).isDirectory();
		} catch {
			return false;
		}
	}

	async ensureFolder(vaultPath: string): Promise<void> {
		this.files.ensureFolder(this.abs(vaultPath));
	}
}
