/**
 * `vault.adapter`: direct access to the Disk, dot-files included. Writes to visible paths are
 * noticed by the vault's watcher (asynchronously, like Obsidian's file watcher) and then fire the
 * normal vault events; writes to hidden paths never fire anything.
 */
import type { Disk } from "./disk";
import { diskKey, isHiddenPath, joinPath } from "./paths";

export interface DataWriteOptions {
	ctime?: number;
	mtime?: number;
}

export interface Stat {
	type: "file" | "folder";
	ctime: number;
	mtime: number;
	size: number;
}

export interface ListedFiles {
	files: string[];
	folders: string[];
}

type Notify = (paths: string[]) => void;

export class FileSystemAdapter {
	private readonly disk: Disk;
	private readonly notify: Notify;

	constructor(disk: Disk, notify: Notify = () => undefined) {
		this.disk = disk;
		this.notify = notify;
	}

	private changed(...paths: string[]): void {
		const visible = paths.filter((p) => !isHiddenPath(p));
		if (visible.length > 0) this.notify(visible);
	}

	getName(): string {
		return this.disk.name;
	}

	getBasePath(): string {
		return this.disk.basePath ?? "";
	}

	getFullPath(normalizedPath: string): string {
		const base = this.getBasePath();
		return base === "" ? normalizedPath : joinPath(base, normalizedPath);
	}

	getFilePath(normalizedPath: string): string {
		return `file://${this.getFullPath(normalizedPath)}`;
	}

	getResourcePath(normalizedPath: string): string {
		return `app://fake-obsidian/${encodeURI(diskKey(normalizedPath))}`;
	}

	async exists(normalizedPath: string, sensitive?: boolean): Promise<boolean> {
		void sensitive;
		return this.disk.exists(normalizedPath);
	}

	async stat(normalizedPath: string): Promise<Stat | null> {
		return this.disk.stat(normalizedPath);
	}

	async list(normalizedPath: string): Promise<ListedFiles> {
		return this.disk.list(normalizedPath);
	}

	async read(normalizedPath: string): Promise<string> {
		return this.disk.read(normalizedPath);
	}

	async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
		return (await this.disk.readBytes(normalizedPath)).slice().buffer as ArrayBuffer;
	}

	async write(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
		await this.disk.write(normalizedPath, data, options);
		this.changed(normalizedPath);
	}

	async writeBinary(normalizedPath: string, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
		await this.disk.write(normalizedPath, new Uint8Array(data.slice(0)), options);
		this.changed(normalizedPath);
	}

	async append(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
		void options;
		await this.disk.append(normalizedPath, data);
		this.changed(normalizedPath);
	}

	async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
		await this.append(normalizedPath, new TextDecoder().decode(data), options);
	}

	async process(normalizedPath: string, fn: (data: string) => string, options?: DataWriteOptions): Promise<string> {
		const next = fn(await this.disk.read(normalizedPath));
		await this.write(normalizedPath, next, options);
		return next;
	}

	async mkdir(normalizedPath: string): Promise<void> {
		await this.disk.mkdir(normalizedPath);
		this.changed(normalizedPath);
	}

	async trashSystem(normalizedPath: string): Promise<boolean> {
		const st = await this.disk.stat(normalizedPath);
		if (!st) return false;
		if (st.type === "folder") await this.disk.rmdir(normalizedPath, true);
		else await this.disk.remove(normalizedPath);
		this.changed(normalizedPath);
		return true;
	}

	async trashLocal(normalizedPath: string): Promise<void> {
		await this.disk.mkdir(".trash");
		const name = diskKey(normalizedPath).split("/").pop() ?? "file";
		let target = `.trash/${name}`;
		for (let i = 1; await this.disk.exists(target); i++) target = `.trash/${name} ${i}`;
		await this.disk.rename(normalizedPath, target);
		this.changed(normalizedPath);
	}

	async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
		await this.disk.rmdir(normalizedPath, recursive);
		this.changed(normalizedPath);
	}

	async remove(normalizedPath: string): Promise<void> {
		await this.disk.remove(normalizedPath);
		this.changed(normalizedPath);
	}

	async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
		await this.disk.rename(normalizedPath, normalizedNewPath);
		this.changed(normalizedPath, normalizedNewPath);
	}

	async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
		if (await this.disk.exists(normalizedNewPath)) throw new Error("Destination file already exists!");
		await this.disk.write(normalizedNewPath, await this.disk.read(normalizedPath));
		this.changed(normalizedNewPath);
	}
}
