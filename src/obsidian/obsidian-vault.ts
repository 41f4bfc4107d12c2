import { TFile, TFolder, normalizePath } from "obsidian";
import type { App } from "obsidian";
import { dirname } from "../core/paths";
import { holdsLines } from "../core/text";
import { sameFacts } from "../router/vault-port";
import type { ChangeResult, FileFacts, FileInfo, MoveResult, ReadFile, ReadOptions, TransferOptions, TransferResult, VaultPort } from "../router/vault-port";

// The vault port over Obsidian's Vault: new notes are vault.create, moves the vault's rename (no
// link rewriting), rewrites vault.process, removals vault.delete. Obsidian's adapter has neither an
// exclusive create nor a rename that refuses to overwrite, so both are made exclusive here: a name
// is reserved synchronously (the app runs one script at a time) before it is checked in the vault's
// tree and on disk, and only then written. A rewrite or removal happens only if the note's text is
// still what the router read.

/** Reads of a file whose facts change while it is read, before its text is given as unsettled (not to be vouched for by its facts). */
const READ_ATTEMPTS = 3;

export class ObsidianVault implements VaultPort {
	/** Names a create or move in flight is about to take. */
	private readonly reserved = new Set<string>();
	/** Each appended file's size and modification time after this vault's last append to it. */
	private readonly appended = new Map<string, { size: number; mtime: number }>();

	constructor(private readonly app: App) {}

	private file(path: string): TFile | null {
		// A path the router listed is the vault's own (normalised) path: found without normalising it again.
		return this.app.vault.getFileByPath(path) ?? this.app.vault.getFileByPath(normalizePath(path));
	}

	private info(file: TFile): FileInfo {
		return { path: file.path, size: file.stat.size, mtime: file.stat.mtime };
	}

	list(folder: string): Promise<string[]> {
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		const files = dir ? dir.children.filter((c): c is TFile => c instanceof TFile) : [];
		return Promise.resolve(files.map((f) => f.path));
	}

	listInfo(folder: string): Promise<FileInfo[]> {
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		const files = dir ? dir.children.filter((c): c is TFile => c instanceof TFile) : [];
		return Promise.resolve(files.map((f) => this.info(f)));
	}

	eachFileIn(folder: string, visit: (name: string, facts: FileFacts) => void): void {
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		// A file's stat is the facts `info` copies (size, mtime; its ctime is not one of them).
		if (dir) for (const child of dir.children) if (child instanceof TFile) visit(child.name, child.stat);
	}

	listFolders(folder: string): Promise<string[]> {
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		const folders = dir ? dir.children.filter((c): c is TFolder => c instanceof TFolder) : [];
		return Promise.resolve(folders.map((f) => f.path));
	}

	listRecursive(folder: string): Promise<FileInfo[]> {
		const out: FileInfo[] = [];
		const walk = (dir: TFolder) => {
			for (const child of dir.children) {
				if (child instanceof TFile) out.push(this.info(child));
				else if (child instanceof TFolder) walk(child);
			}
		};
		const dir = this.app.vault.getFolderByPath(normalizePath(folder));
		if (dir) walk(dir);
		return Promise.resolve(out);
	}

	stat(path: string): Promise<FileInfo | null> {
		const file = this.file(path);
		return Promise.resolve(file ? this.info(file) : null);
	}

	/**
	 * The text with the facts it was read under: Obsidian may update a file's stat while the text is
	 * read, so the facts are taken before and after, and the file is read again while they differ
	 * (facts newer than their text would let the history copy vouch for a text that is not the file's).
	 * A file rewritten through every attempt is given as `unsettled`, with its latest facts: no copy
	 * keeps them, and an outbox note with them (recent) waits its grace period.
	 */
	async read(path: string, options: ReadOptions = {}): Promise<ReadFile | null> {
		const file = this.file(path);
		if (!file) return null;
		try {
			for (let attempt = 1; ; attempt++) {
				const before = this.info(file);
				const text = await this.app.vault.read(file);
				const info = this.info(file);
				const settled = sameFacts(info, before);
				if (settled || attempt === READ_ATTEMPTS) {
					return { text, info, truncated: options.maxBytes !== undefined && info.size > options.maxBytes, ...(settled ? {} : { unsettled: true }) };
				}
			}
		} catch (error) {
			// A note deleted while it was read is gone. One that is there and cannot be read concerns
			// itself alone (src/router/unreadable-notes.ts): the desktop app passes on the file system's
			// error and its code; an error without one (the mobile app's) is taken as the file's own.
			if (this.file(path) === null || !(await this.app.vault.adapter.exists(file.path))) return null;
			if (typeof (error as { code?: unknown } | null)?.code === "string") throw error;
			throw Object.assign(new Error(error instanceof Error ? error.message : String(error)), { code: "EIO" });
		}
	}

	/** True when a path is taken in the vault's tree or on disk (a file another process just wrote). */
	private async taken(path: string): Promise<boolean> {
		return this.app.vault.getAbstractFileByPath(path) !== null || (await this.app.vault.adapter.exists(path));
	}

	async create(path: string, text: string): Promise<boolean> {
		const target = normalizePath(path);
		if (this.reserved.has(target)) return false;
		this.reserved.add(target);
		try {
			if (await this.taken(target)) return false;
			await this.ensureFolder(dirname(target));
			try {
				await this.app.vault.create(target, text);
				return true;
			} catch (error) {
				if (await this.taken(target)) return false;
				throw error;
			}
		} finally {
			this.reserved.delete(target);
		}
	}

	async createBytes(path: string, bytes: Uint8Array): Promise<"created" | "same" | "taken"> {
		const target = normalizePath(path);
		if (this.reserved.has(target)) return "taken";
		this.reserved.add(target);
		try {
			if (await this.taken(target)) return (await this.holds(target, bytes)) ? "same" : "taken";
			await this.ensureFolder(dirname(target));
			try {
				await this.app.vault.createBinary(target, bytes.slice().buffer);
				return "created";
			} catch (error) {
				if (await this.taken(target)) return (await this.holds(target, bytes)) ? "same" : "taken";
				throw error;
			}
		} finally {
			this.reserved.delete(target);
		}
	}

	/** True when the file at `path` holds exactly `bytes`. */
	private async holds(path: string, bytes: Uint8Array): Promise<boolean> {
		try {
			const held = new Uint8Array(await this.app.vault.adapter.readBinary(path));
			return held.length === bytes.length && held.every((byte, i) => byte === bytes[i]);
		} catch {
			return false;
		}
	}

	async move(from: string, to: string): Promise<MoveResult> {
		const file = this.file(from);
		const target = normalizePath(to);
		if (!file) return "missing";
		if (this.reserved.has(target)) return "exists";
		this.reserved.add(target);
		try {
			if (await this.taken(target)) return "exists";
			await this.ensureFolder(dirname(target));
			try {
				await this.app.vault.rename(file, target);
				return "moved";
			} catch (error) {
				if (!(await this.app.vault.adapter.exists(file.path))) return "missing";
				if (await this.taken(target)) return "exists";
				throw error;
			}
		} finally {
			this.reserved.delete(target);
		}
	}

	async replace(path: string, text: string, expected: ReadFile): Promise<ChangeResult> {
		const file = this.file(path);
		if (!file) return "missing";
		let result: ChangeResult = "changed";
		await this.app.vault.process(file, (current) => {
			if (current !== expected.text) return current;
			result = "done";
			return text;
		});
		return result;
	}

	/**
	 * The note is rewritten where it is (only if it is still what was read), then moved under a free
	 * name with the vault's rename: an open editor follows it, nothing goes to the trash. An
	 * interruption between the two leaves the rewritten note where it was, and the router decides it
	 * again as any note.
	 */
	async transfer(source: ReadFile, folder: string, names: Iterable<string>, text: string, options: TransferOptions = {}): Promise<TransferResult> {
		const rewritten = await this.replace(source.info.path, text, source);
		if (rewritten !== "done") return rewritten;
		const file = this.file(source.info.path);
		if (!file) return "missing";
		await this.ensureFolder(folder);
		for (const name of names) {
			const target = normalizePath(`${folder}/${name}`);
			if (this.reserved.has(target) || (await this.taken(target))) continue;
			this.reserved.add(target);
			try {
				await options.beforeFinish?.(target, false);
				await this.app.vault.rename(file, target);
				return { path: target, existed: false };
			} catch (error) {
				if (!(await this.taken(target)) || !this.file(source.info.path)) throw error;
			} finally {
				this.reserved.delete(target);
			}
		}
		throw new Error(`no free name in ${folder} for ${source.info.path}`);
	}

	async remove(path: string, expected?: ReadFile): Promise<ChangeResult> {
		const file = this.file(path);
		if (!file) return "missing";
		if (expected && (await this.app.vault.read(file)) !== expected.text) return "changed";
		// Only what the router removes for good (a merged conflict copy) comes here; routing moves notes.
		await this.app.fileManager.trashFile(file);
		return "done";
	}

	async append(path: string, text: string, header: string): Promise<"appended" | "present"> {
		let file = this.file(path);
		if (!file) {
			if (await this.create(path, header + text)) {
				await this.noteAppended(path);
				return "appended";
			}
			file = this.file(path);
			if (!file) throw new Error(`${path} is not a file that can be appended to`);
		}
		// The file is read only when something else wrote it since this vault's last append. Asked of
		// the disk, not of the vault's tree: a sync engine's write may not have reached the tree yet.
		const known = this.appended.get(file.path);
		const now = known ? await this.app.vault.adapter.stat(file.path) : null;
		if (!(known && now && known.size === now.size && known.mtime === now.mtime) && holdsLines(await this.app.vault.adapter.read(file.path), text)) {
			await this.noteAppended(file.path);
			return "present";
		}
		await this.app.vault.append(file, text);
		await this.noteAppended(file.path);
		return "appended";
	}

	private async noteAppended(path: string): Promise<void> {
		const now = await this.app.vault.adapter.stat(normalizePath(path));
		if (now) this.appended.set(normalizePath(path), { size: now.size, mtime: now.mtime });
	}

	async ensureFolder(path: string): Promise<void> {
		const folder = normalizePath(path);
		if (folder === "/" || this.app.vault.getFolderByPath(folder)) return;
		await this.ensureFolder(dirname(folder) || "/");
		try {
			await this.app.vault.createFolder(folder);
		} catch {
			// Created meanwhile (by an event, or by another process): fine.
		}
	}
}
