/** In-memory `Disk` for the browser bundle and fast tests. No Node imports. */
import { diskError, type Disk, type DiskListing, type DiskStat, type DiskWriteOptions } from "./disk";
import { diskKey, parentPath } from "./paths";

interface FileEntry {
	type: "file";
	/** The text (UTF-8 decoding of `bytes` when the file was written as bytes). */
	data: string;
	/** The exact bytes of a file written as bytes. */
	bytes?: Uint8Array;
	ctime: number;
	mtime: number;
}

interface FolderEntry {
	type: "folder";
	ctime: number;
	mtime: number;
}

type Entry = FileEntry | FolderEntry;

const encoder = new TextEncoder();

export class MemoryDisk implements Disk {
	readonly name: string;
	private readonly entries = new Map<string, Entry>();

	constructor(name = "Test Vault", files: Record<string, string> = {}) {
		this.name = name;
		const now = Date.now();
		this.entries.set("", { type: "folder", ctime: now, mtime: now });
		for (const [path, data] of Object.entries(files)) this.writeSync(path, data);
	}

	/** Synchronous seeding helper (creates parent folders). */
	writeSync(path: string, content: string | Uint8Array, options: DiskWriteOptions = {}): void {
		const key = diskKey(path);
		if (key === "") throw diskError("EISDIR", "open", path);
		this.mkdirSync(parentPath(key));
		const existing = this.entries.get(key);
		if (existing?.type === "folder") throw diskError("EISDIR", "open", path);
		const now = Date.now();
		const bytes = typeof content === "string" ? undefined : content.slice();
		this.entries.set(key, {
			type: "file",
			data: bytes === undefined ? (content as string) : new TextDecoder().decode(bytes),
			bytes,
			ctime: options.ctime ?? existing?.ctime ?? now,
			mtime: options.mtime ?? now,
		});
	}

	private mkdirSync(path: string): void {
		const key = diskKey(path);
		if (key === "") return;
		const existing = this.entries.get(key);
		if (existing?.type === "folder") return;
		if (existing) throw diskError("EEXIST", "mkdir", path);
		this.mkdirSync(parentPath(key));
		const now = Date.now();
		this.entries.set(key, { type: "folder", ctime: now, mtime: now });
	}

	private children(key: string): string[] {
		const prefix = key === "" ? "" : `${key}/`;
		const out: string[] = [];
		for (const k of this.entries.keys()) {
			if (k !== "" && k.startsWith(prefix) && !k.slice(prefix.length).includes("/")) out.push(k);
		}
		return out.sort();
	}

	async exists(path: string): Promise<boolean> {
		return this.entries.has(diskKey(path));
	}

	async stat(path: string): Promise<DiskStat | null> {
		const entry = this.entries.get(diskKey(path));
		if (!entry) return null;
		const size = entry.type === "file" ? (entry.bytes ?? encoder.encode(entry.data)).length : 0;
		return { type: entry.type, ctime: entry.ctime, mtime: entry.mtime, size };
	}

	async read(path: string): Promise<string> {
		const entry = this.entries.get(diskKey(path));
		if (!entry) throw diskError("ENOENT", "open", path);
		if (entry.type === "folder") throw diskError("EISDIR", "read", path);
		return entry.data;
	}

	async readBytes(path: string): Promise<Uint8Array> {
		const entry = this.entries.get(diskKey(path));
		if (!entry) throw diskError("ENOENT", "open", path);
		if (entry.type === "folder") throw diskError("EISDIR", "read", path);
		return (entry.bytes ?? encoder.encode(entry.data)).slice();
	}

	async write(path: string, data: string | Uint8Array, options?: DiskWriteOptions): Promise<void> {
		this.writeSync(path, data, options);
	}

	async append(path: string, data: string): Promise<void> {
		const key = diskKey(path);
		const entry = this.entries.get(key);
		if (entry?.type === "folder") throw diskError("EISDIR", "open", path);
		this.writeSync(key, (entry?.data ?? "") + data);
	}

	async mkdir(path: string): Promise<void> {
		this.mkdirSync(path);
	}

	async list(path: string): Promise<DiskListing> {
		const key = diskKey(path);
		const entry = this.entries.get(key);
		if (!entry) throw diskError("ENOENT", "scandir", path);
		if (entry.type !== "folder") throw diskError("ENOTDIR", "scandir", path);
		const files: string[] = [];
		const folders: string[] = [];
		for (const child of this.children(key)) {
			(this.entries.get(child)?.type === "folder" ? folders : files).push(child);
		}
		return { files, folders };
	}

	async remove(path: string): Promise<void> {
		const key = diskKey(path);
		const entry = this.entries.get(key);
		if (!entry) throw diskError("ENOENT", "unlink", path);
		if (entry.type === "folder") throw diskError("EISDIR", "unlink", path);
		this.entries.delete(key);
	}

	async rmdir(path: string, recursive: boolean): Promise<void> {
		const key = diskKey(path);
		const entry = this.entries.get(key);
		if (!entry) throw diskError("ENOENT", "rmdir", path);
		if (entry.type !== "folder") throw diskError("ENOTDIR", "rmdir", path);
		if (key === "") throw diskError("EINVAL", "rmdir", path);
		const inside = [...this.entries.keys()].filter((k) => k.startsWith(`${key}/`));
		if (inside.length > 0 && !recursive) throw diskError("ENOTEMPTY", "rmdir", path);
		for (const k of inside) this.entries.delete(k);
		this.entries.delete(key);
	}

	async rename(from: string, to: string): Promise<void> {
		const src = diskKey(from);
		const dst = diskKey(to);
		const entry = this.entries.get(src);
		if (!entry || src === "") throw diskError("ENOENT", "rename", from, to);
		if (src === dst) return;
		if (this.entries.has(dst)) throw diskError("EEXIST", "rename", from, to);
		if (this.entries.get(parentPath(dst))?.type !== "folder") throw diskError("ENOENT", "rename", from, to);
		if (dst.startsWith(`${src}/`)) throw diskError("EINVAL", "rename", from, to);
		if (entry.type !== "folder") {
			// A file moves alone: no walk over the whole disk (the benchmarks rename into vaults of 20,000 notes).
			this.entries.delete(src);
			this.entries.set(dst, entry);
			return;
		}
		const moved: Array<[string, Entry]> = [];
		for (const [k, e] of this.entries) {
			if (k === src || k.startsWith(`${src}/`)) moved.push([k, e]);
		}
		for (const [k] of moved) this.entries.delete(k);
		for (const [k, e] of moved) this.entries.set(dst + k.slice(src.length), e);
	}
}
