import { promises as fs, constants as fsConstants } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { updateFrontmatterText } from "../src/core/frontmatter";
import type { FileInfo, KnownContent, MoveResult, VaultPort } from "../src/router/vault-port";

// The vault port over Node's fs, for the CLI. Every new or rewritten file is written under a hidden
// temporary name in the same folder, then renamed (or hard-linked) into place, so neither Obsidian
// nor an agent ever reads half a note.

let tempCounter = 0;

/** A file's identity on disk (device and inode): kept by a rename, changed by a replacement. */
function fileId(st: import("node:fs").Stats): string {
	return `${st.dev}:${st.ino}`;
}

interface Lease {
	holder: string;
	pid: number;
	host: string;
	at: number;
}

function isCode(error: unknown, ...codes: string[]): boolean {
	return typeof error === "object" && error !== null && codes.includes((error as NodeJS.ErrnoException).code ?? "");
}

export class NodeVault implements VaultPort {
	readonly dir: string;

	constructor(vaultDir: string) {
		this.dir = path.resolve(vaultDir);
	}

	/**
	 * The absolute path of a vault path; refuses anything that would leave the vault folder. Only
	 * separators are tidied: a name is used exactly as given, because the paths the router hands back
	 * are the names `list` read from the disk. (normalizeVaultPath would turn a non-breaking space
	 * into a space and decomposed unicode into composed: a note so named could then never be read,
	 * moved or reported, and sat in its outbox for ever.) Paths the router builds are normalised
	 * already by joinPath.
	 */
	abs(vaultPath: string): string {
		const normal = vaultPath.replace(/\/+/g, "/").replace(/^\/+|\/+$/g, "") || "/";
		const full = path.resolve(this.dir, normal === "/" ? "." : normal);
		if (full !== this.dir && !full.startsWith(this.dir + path.sep)) throw new Error(`path ${vaultPath} is outside the vault`);
		return full;
	}

	private rel(full: string): string {
		return path.relative(this.dir, full).split(path.sep).join("/");
	}

	private async info(full: string): Promise<FileInfo | null> {
		try {
			const st = await fs.stat(full);
			return st.isFile() ? { path: this.rel(full), size: st.size, mtime: st.mtimeMs, id: fileId(st) } : null;
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR")) return null;
			throw error;
		}
	}

	async list(folder: string): Promise<FileInfo[]> {
		let entries: import("node:fs").Dirent[];
		try {
			entries = await fs.readdir(this.abs(folder), { withFileTypes: true });
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR")) return [];
			throw error;
		}
		const infos = await Promise.all(entries.filter((e) => e.isFile()).map((e) => this.info(path.join(this.abs(folder), e.name))));
		return infos.filter((i): i is FileInfo => i !== null);
	}

	async listRecursive(folder: string): Promise<FileInfo[]> {
		const out: FileInfo[] = [];
		const walk = async (dir: string): Promise<void> => {
			let entries: import("node:fs").Dirent[];
			try {
				entries = await fs.readdir(dir, { withFileTypes: true });
			} catch (error) {
				if (isCode(error, "ENOENT", "ENOTDIR")) return;
				throw error;
			}
			for (const entry of entries) {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) await walk(full);
				else if (entry.isFile()) {
					const info = await this.info(full);
					if (info) out.push(info);
				}
			}
		};
		await walk(this.abs(folder));
		return out;
	}

	stat(vaultPath: string): Promise<FileInfo | null> {
		return this.info(this.abs(vaultPath));
	}

	async read(vaultPath: string): Promise<string | null> {
		try {
			return await fs.readFile(this.abs(vaultPath), "utf8");
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR", "EISDIR")) return null;
			throw error;
		}
	}

	private tempPathFor(full: string): string {
		tempCounter += 1;
		// The start of the name is enough to recognise it; the whole of a long name (up to 255 bytes)
		// plus this suffix made the temp name too long to create, and the note could not be written.
		const start = Array.from(path.basename(full)).slice(0, 40).join("");
		return path.join(path.dirname(full), `.${start}.${process.pid}.${tempCounter}.tmp`);
	}

	private async writeTemp(full: string, content: string | Buffer, makeFolder = true): Promise<string> {
		if (makeFolder) await fs.mkdir(path.dirname(full), { recursive: true });
		const temp = this.tempPathFor(full);
		// Atomic for readers (the rename), not a durability barrier: like Obsidian, no fsync per note.
		await fs.writeFile(temp, content, { encoding: "utf8", flag: "wx" });
		return temp;
	}

	async create(vaultPath: string, content: string): Promise<boolean> {
		const full = this.abs(vaultPath);
		const temp = await this.writeTemp(full, content);
		try {
			// link() refuses to replace an existing file: an atomic "create if absent" with the full content.
			await fs.link(temp, full);
			return true;
		} catch (error) {
			if (isCode(error, "EEXIST")) return false;
			if (!isCode(error, "EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV")) throw error;
			if (await this.info(full)) return false;
			await fs.rename(temp, full);
			return true;
		} finally {
			await fs.rm(temp, { force: true });
		}
	}

	async move(from: string, to: string): Promise<MoveResult> {
		const src = this.abs(from);
		const dest = this.abs(to);
		try {
			await fs.access(dest, fsConstants.F_OK);
			return "exists";
		} catch {
			// The name is free.
		}
		try {
			await fs.rename(src, dest);
			return "moved";
		} catch (error) {
			if (!isCode(error, "ENOENT")) throw error;
			if (!(await this.info(src))) return "missing";
			// The destination folder was missing.
			await fs.mkdir(path.dirname(dest), { recursive: true });
			await fs.rename(src, dest);
			return "moved";
		}
	}

	/** The file's stat, or null when there is no file at that path. */
	private async statFile(full: string): Promise<import("node:fs").Stats | null> {
		try {
			const st = await fs.stat(full);
			return st.isFile() ? st : null;
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR")) return null;
			throw error;
		}
	}

	async process(vaultPath: string, edit: (text: string) => string, known?: KnownContent): Promise<boolean> {
		const full = this.abs(vaultPath);
		let text: string | null = null;
		let identity = known?.id;
		if (identity === undefined) {
			const before = await this.statFile(full);
			if (!before) return false;
			identity = fileId(before);
			// The caller's text stands in for a read when the file is still what the caller read (a rename keeps both).
			if (known && before.size === known.size && before.mtimeMs === known.mtime) text = known.text;
		} else {
			// The caller knows which file it read: the check before the rename below covers it.
			text = known?.text ?? null;
		}
		text ??= await this.read(vaultPath);
		if (text === null) return false;
		const next = edit(text);
		if (next === text) return true;
		const content = text.includes("\uFFFD") ? await this.keepUndecodedBytes(full, text, next) : next;
		const temp = await this.writeTemp(full, content, false);
		try {
			// Replace the file only if it is still the one that was read. Renaming the new text into
			// place after another router moved the note away (its claim) brought the old note back
			// under its old name, to be routed a second time. The check leaves a window of one
			// syscall instead of the whole read-edit-write; the lease keeps routers apart anyway.
			const now = await this.statFile(full);
			if (!now || fileId(now) !== identity) {
				await fs.rm(temp, { force: true });
				return false;
			}
			if (known?.id !== undefined && (now.size !== known.size || now.mtimeMs !== known.mtime)) {
				// Written to since the caller read it: edit what is there now instead.
				await fs.rm(temp, { force: true });
				return this.process(vaultPath, edit);
			}
			await fs.rename(temp, full);
			return true;
		} catch (error) {
			await fs.rm(temp, { force: true });
			throw error;
		}
	}

	/**
	 * A file that is not valid UTF-8 (a binary file, a note saved as Latin-1) reads with U+FFFD in
	 * place of its undecodable bytes; writing that text back changed its bytes for good. The router
	 * only ever rewrites the start of a note (it prepends the block of a quarantined note, it edits
	 * the frontmatter), so the part of the file after the rewritten start is taken from the original
	 * bytes, unchanged. When the rewritten start itself held undecodable bytes, the text is written.
	 */
	private async keepUndecodedBytes(full: string, text: string, next: string): Promise<string | Buffer> {
		const bytes = await fs.readFile(full).catch(() => null);
		if (bytes === null || bytes.toString("utf8") !== text || Buffer.from(text, "utf8").equals(bytes)) return next;
		let same = 0;
		while (same < text.length && same < next.length && text.charCodeAt(text.length - 1 - same) === next.charCodeAt(next.length - 1 - same)) same++;
		// Never split a surrogate pair.
		if (same > 0 && same < text.length && /[\uDC00-\uDFFF]/.test(text[text.length - same])) same--;
		const head = text.slice(0, text.length - same);
		if (head.includes("\uFFFD")) return next;
		return Buffer.concat([Buffer.from(next.slice(0, next.length - same), "utf8"), bytes.subarray(Buffer.byteLength(head, "utf8"))]);
	}

	updateFrontmatter(vaultPath: string, edit: (frontmatter: Record<string, unknown>) => void, known?: KnownContent): Promise<boolean> {
		return this.process(vaultPath, (text) => updateFrontmatterText(text, edit), known);
	}

	async append(vaultPath: string, text: string, header: string): Promise<void> {
		const full = this.abs(vaultPath);
		await fs.mkdir(path.dirname(full), { recursive: true });
		if (await this.create(vaultPath, header + text)) return;
		await fs.appendFile(full, text, "utf8");
	}

	async isFolder(vaultPath: string): Promise<boolean> {
		try {
			return (await fs.stat(this.abs(vaultPath))).isDirectory();
		} catch {
			return false;
		}
	}

	async ensureFolder(vaultPath: string): Promise<void> {
		await fs.mkdir(this.abs(vaultPath), { recursive: true });
	}

	async acquireLease(vaultPath: string, holder: string, ttlMs: number): Promise<boolean> {
		const full = this.abs(vaultPath);
		const record: Lease = { holder, pid: process.pid, host: os.hostname(), at: Date.now() };
		await fs.mkdir(path.dirname(full), { recursive: true });
		for (let attempt = 0; attempt < 3; attempt++) {
			const temp = await this.writeTemp(full, JSON.stringify(record));
			try {
				await fs.link(temp, full);
				return true;
			} catch (error) {
				if (!isCode(error, "EEXIST")) throw error;
			} finally {
				await fs.rm(temp, { force: true });
			}
			const current = await this.readLease(full);
			if (current?.holder === holder) {
				await this.process(vaultPath, () => JSON.stringify(record));
				return true;
			}
			if (!(await this.leaseIsDead(full, current, ttlMs))) return false;
			// Take a dead holder's lease over: move it aside (only one taker can), and put it back
			// if what was moved turns out to be a fresh lease someone else took meanwhile.
			const aside = this.tempPathFor(full);
			try {
				await fs.rename(full, aside);
			} catch (error) {
				if (isCode(error, "ENOENT")) continue;
				throw error;
			}
			const moved = await this.readLease(aside);
			if (current && moved && moved.at !== current.at) {
				await fs.link(aside, full).catch(() => undefined);
				await fs.rm(aside, { force: true });
				return false;
			}
			await fs.rm(aside, { force: true });
		}
		return false;
	}

	private async readLease(full: string): Promise<Lease | null> {
		try {
			return JSON.parse(await fs.readFile(full, "utf8")) as Lease;
		} catch {
			return null;
		}
	}

	private async leaseIsDead(full: string, lease: Lease | null, ttlMs: number): Promise<boolean> {
		if (lease === null) {
			const info = await this.info(full);
			return info !== null && Date.now() - info.mtime > ttlMs;
		}
		if (Date.now() - lease.at > ttlMs) return true;
		if (lease.host !== os.hostname()) return false;
		try {
			process.kill(lease.pid, 0);
			return false;
		} catch (error) {
			return isCode(error, "ESRCH");
		}
	}

	async releaseLease(vaultPath: string, holder: string): Promise<void> {
		const full = this.abs(vaultPath);
		const current = await this.readLease(full);
		if (current?.holder === holder) await fs.rm(full, { force: true });
	}
}
