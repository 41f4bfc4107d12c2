/** `Disk` over a real folder (node:fs/promises). Node only: index.ts must never import this file. */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { diskError, type Disk, type DiskListing, type DiskStat, type DiskWriteOptions } from "./disk";
import { diskKey, joinPath } from "./paths";

function codeOf(error: unknown): string | undefined {
	return (error as { code?: string } | null)?.code;
}

export class NodeDisk implements Disk {
	readonly name: string;
	readonly basePath: string;

	constructor(basePath: string, name?: string) {
		this.basePath = nodePath.resolve(basePath);
		this.name = name ?? nodePath.basename(this.basePath);
	}

	private abs(path: string): string {
		const key = diskKey(path);
		return key === "" ? this.basePath : nodePath.join(this.basePath, ...key.split("/"));
	}

	async exists(path: string): Promise<boolean> {
		return (await this.stat(path)) !== null;
	}

	async stat(path: string): Promise<DiskStat | null> {
		try {
			const s = await fs.stat(this.abs(path));
			return {
				type: s.isDirectory() ? "folder" : "file",
				ctime: Math.round(s.birthtimeMs || s.ctimeMs),
				mtime: Math.round(s.mtimeMs),
				size: s.isDirectory() ? 0 : s.size,
			};
		} catch (error) {
			if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return null;
			throw error;
		}
	}

	async read(path: string): Promise<string> {
		try {
			return await fs.readFile(this.abs(path), "utf8");
		} catch (error) {
			if (codeOf(error) === "ENOENT") throw diskError("ENOENT", "open", path);
			if (codeOf(error) === "EISDIR") throw diskError("EISDIR", "read", path);
			throw error;
		}
	}

	async readBytes(path: string): Promise<Uint8Array> {
		try {
			return new Uint8Array(await fs.readFile(this.abs(path)));
		} catch (error) {
			if (codeOf(error) === "ENOENT") throw diskError("ENOENT", "open", path);
			if (codeOf(error) === "EISDIR") throw diskError("EISDIR", "read", path);
			throw error;
		}
	}

	async write(path: string, data: string | Uint8Array, options: DiskWriteOptions = {}): Promise<void> {
		const target = this.abs(path);
		if ((await this.stat(path))?.type === "folder") throw diskError("EISDIR", "open", path);
		await fs.mkdir(nodePath.dirname(target), { recursive: true });
		await fs.writeFile(target, data);
		if (options.mtime !== undefined) {
			const mtime = new Date(options.mtime);
			await fs.utimes(target, mtime, mtime);
		}
	}

	async append(path: string, data: string): Promise<void> {
		const target = this.abs(path);
		if ((await this.stat(path))?.type === "folder") throw diskError("EISDIR", "open", path);
		await fs.mkdir(nodePath.dirname(target), { recursive: true });
		await fs.appendFile(target, data, "utf8");
	}

	async mkdir(path: string): Promise<void> {
		const existing = await this.stat(path);
		if (existing?.type === "folder") return;
		if (existing) throw diskError("EEXIST", "mkdir", path);
		await fs.mkdir(this.abs(path), { recursive: true });
	}

	async list(path: string): Promise<DiskListing> {
		const st = await this.stat(path);
		if (!st) throw diskError("ENOENT", "scandir", path);
		if (st.type !== "folder") throw diskError("ENOTDIR", "scandir", path);
		const entries = await fs.readdir(this.abs(path), { withFileTypes: true });
		const files: string[] = [];
		const folders: string[] = [];
		for (const entry of entries) {
			(entry.isDirectory() ? folders : files).push(joinPath(path, entry.name));
		}
		return { files: files.sort(), folders: folders.sort() };
	}

	async remove(path: string): Promise<void> {
		const st = await this.stat(path);
		if (!st) throw diskError("ENOENT", "unlink", path);
		if (st.type === "folder") throw diskError("EISDIR", "unlink", path);
		await fs.unlink(this.abs(path));
	}

	async rmdir(path: string, recursive: boolean): Promise<void> {
		const st = await this.stat(path);
		if (!st) throw diskError("ENOENT", "rmdir", path);
		if (st.type !== "folder") throw diskError("ENOTDIR", "rmdir", path);
		if (diskKey(path) === "") throw diskError("EINVAL", "rmdir", path);
		if (recursive) {
			await fs.rm(this.abs(path), { recursive: true, force: true });
			return;
		}
		try {
			await fs.rmdir(this.abs(path));
		} catch (error) {
			if (codeOf(error) === "ENOTEMPTY" || codeOf(error) === "EEXIST") throw diskError("ENOTEMPTY", "rmdir", path);
			throw error;
		}
	}

	async rename(from: string, to: string): Promise<void> {
		const src = diskKey(from);
		const dst = diskKey(to);
		if (src === "" || !(await this.exists(src))) throw diskError("ENOENT", "rename", from, to);
		if (src === dst) return;
		if (await this.exists(dst)) throw diskError("EEXIST", "rename", from, to);
		const parent = dst.includes("/") ? dst.slice(0, dst.lastIndexOf("/")) : "";
		if ((await this.stat(parent))?.type !== "folder") throw diskError("ENOENT", "rename", from, to);
		if (dst.startsWith(`${src}/`)) throw diskError("EINVAL", "rename", from, to);
		await fs.rename(this.abs(src), this.abs(dst));
	}
}
