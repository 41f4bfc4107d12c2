/**
 * Obsidian's `Vault` over a `Disk`. What it copies from Obsidian:
 * - events ('create' | 'modify' | 'delete' | 'rename'(file, oldPath)) fire asynchronously after the
 *   disk operation, from a queue drained in a microtask (before the operation's promise resolves);
 * - dot-files and anything in a dot-folder are not in the tree and fire nothing (use `adapter`);
 * - `create` throws "File already exists." and creates missing parent folders; `rename` throws
 *   when the destination exists (and when its parent folder is missing); TFile objects keep their
 *   identity across renames (mutated in place);
 * - `process` is an atomic read-modify-write with a synchronous callback.
 * All mutating operations are serialised (one at a time), reads are not.
 */
import { FileSystemAdapter, type DataWriteOptions } from "./adapter";
import type { Disk } from "./disk";
import { bindRuntime, Events, type EventRef } from "./events";
import { FaultInjector, type FaultOperation } from "./faults";
import { setFilePath, TAbstractFile, TFile, TFolder, type FileStats } from "./files";
import { ancestorPaths, diskKey, isHiddenPath, isSameOrInside, normalizePath, parentPath } from "./paths";
import { isThenable, type Runtime } from "./runtime";

export type VaultEventName = "create" | "modify" | "delete" | "rename";

/** Internal hooks (metadata cache, plugin settings watcher); not plugin-visible listeners. */
export interface VaultHooks {
	/** Synchronously, when an item moved in the tree (each item of a moved folder too). */
	moved?(file: TAbstractFile, oldPath: string): void;
	/** Right before plugin handlers see a vault event. */
	beforeEvent?(name: VaultEventName, file: TAbstractFile, oldPath?: string): void;
	/** Right after plugin handlers saw a vault event. */
	afterEvent?(name: VaultEventName, file: TAbstractFile, oldPath?: string): void;
	/** The watcher noticed a change under a hidden path (e.g. a plugin's data.json). */
	hiddenChanged?(path: string): void;
}

export interface VaultOptions {
	/** Delay before the watcher notices a change made outside the vault API (ms). */
	watcherDelayMs?: number;
}

function fingerprint(text: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return `${text.length}:${(h >>> 0).toString(16)}`;
}

function hiddenPathError(path: string): Error {
	return new Error(
		`fake-obsidian: '${path}' is inside a dot-folder or is a dot-file; Obsidian does not index it. Use vault.adapter.`,
	);
}

export class Vault extends Events {
	adapter: FileSystemAdapter;
	configDir = ".obsidian";

	/** Fake-only internals (the host and the App use these). */
	readonly disk: Disk;
	readonly runtime: Runtime;
	readonly faults = new FaultInjector();
	hooks: VaultHooks = {};
	watcherDelayMs: number;

	private readonly fileMap = new Map<string, TAbstractFile>();
	private readonly root: TFolder;
	private readonly fingerprints = new Map<string, string>();
	private lockChain: Promise<unknown> = Promise.resolve();
	private readonly eventQueue: Array<() => void> = [];
	private drainPromise: Promise<void> | null = null;

	constructor(disk: Disk, runtime: Runtime, options: VaultOptions = {}) {
		super();
		bindRuntime(this, runtime);
		this.disk = disk;
		this.runtime = runtime;
		this.watcherDelayMs = options.watcherDelayMs ?? 5;
		this.root = new TFolder(this, "/");
		this.fileMap.set("/", this.root);
		this.adapter = new FileSystemAdapter(disk, (paths) => this.notifyWatcher(paths));
	}

	on(name: "create", callback: (file: TAbstractFile) => unknown, ctx?: unknown): EventRef;
	on(name: "modify", callback: (file: TAbstractFile) => unknown, ctx?: unknown): EventRef;
	on(name: "delete", callback: (file: TAbstractFile) => unknown, ctx?: unknown): EventRef;
	on(name: "rename", callback: (file: TAbstractFile, oldPath: string) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
		return super.on(name, callback, ctx);
	}

	// ---- lookups ---------------------------------------------------------------------------

	getName(): string {
		return this.disk.name;
	}

	getRoot(): TFolder {
		return this.root;
	}

	/** Exact lookup like Obsidian (no normalisation): "/" is the root. */
	getAbstractFileByPath(path: string): TAbstractFile | null {
		return this.fileMap.get(path) ?? null;
	}

	getFileByPath(path: string): TFile | null {
		const f = this.getAbstractFileByPath(path);
		return f instanceof TFile ? f : null;
	}

	getFolderByPath(path: string): TFolder | null {
		const f = this.getAbstractFileByPath(path);
		return f instanceof TFolder ? f : null;
	}

	getAllLoadedFiles(): TAbstractFile[] {
		return [...this.fileMap.values()];
	}

	getAllFolders(includeRoot = false): TFolder[] {
		return [...this.fileMap.values()].filter(
			(f): f is TFolder => f instanceof TFolder && (includeRoot || !f.isRoot()),
		);
	}

	getFiles(): TFile[] {
		return [...this.fileMap.values()].filter((f): f is TFile => f instanceof TFile);
	}

	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((f) => f.extension === "md");
	}

	static recurseChildren(root: TFolder, cb: (file: TAbstractFile) => unknown): void {
		const walk = (f: TAbstractFile): void => {
			cb(f);
			if (f instanceof TFolder) for (const c of f.children.slice()) walk(c);
		};
		walk(root);
	}

	getResourcePath(file: TFile): string {
		return `app://fake-obsidian/${encodeURI(file.path)}?${file.stat.mtime}`;
	}

	// ---- reads -----------------------------------------------------------------------------

	// Reads are in-flight work too: settled() waits for them (and for what a caller does next).
	read(file: TFile): Promise<string> {
		return this.runtime.watch(this.disk.read(file.path));
	}

	cachedRead(file: TFile): Promise<string> {
		return this.runtime.watch(this.disk.read(file.path));
	}

	async readBinary(file: TFile): Promise<ArrayBuffer> {
		return (await this.disk.readBytes(file.path)).slice().buffer as ArrayBuffer;
	}

	// ---- writes ----------------------------------------------------------------------------

	create(path: string, data: string, options?: DataWriteOptions): Promise<TFile> {
		return this.createFile(path, data, options);
	}

	/** vault.create and vault.createBinary: the same checks and events; bytes are written as they are. */
	private async createFile(path: string, data: string | Uint8Array, options?: DataWriteOptions): Promise<TFile> {
		const p = normalizePath(path);
		if (isHiddenPath(p)) throw hiddenPathError(p);
		return this.exclusive(async () => {
			this.faults.check("create", "before");
			if (p === "/" || this.fileMap.has(p) || (await this.disk.exists(p))) throw new Error("File already exists.");
			await this.ensureFolders(parentPath(p));
			await this.disk.write(p, data, options);
			const file = new TFile(this, p);
			file.stat = await this.statOf(p);
			this.fingerprints.set(p, fingerprint(typeof data === "string" ? data : new TextDecoder().decode(data)));
			this.attach(file);
			this.emit("create", file);
			this.faults.check("create", "after");
			return file;
		});
	}

	createBinary(path: string, data: ArrayBuffer, options?: DataWriteOptions): Promise<TFile> {
		return this.createFile(path, new Uint8Array(data.slice(0)), options);
	}

	async createFolder(path: string): Promise<TFolder> {
		const p = normalizePath(path);
		if (isHiddenPath(p)) throw hiddenPathError(p);
		return this.exclusive(async () => {
			this.faults.check("createFolder", "before");
			if (p === "/" || this.fileMap.has(p) || (await this.disk.exists(p))) throw new Error("Folder already exists.");
			await this.ensureFolders(p);
			const folder = this.fileMap.get(p) as TFolder;
			this.faults.check("createFolder", "after");
			return folder;
		});
	}

	async modify(file: TFile, data: string, options?: DataWriteOptions): Promise<void> {
		await this.exclusive(async () => {
			this.faults.check("modify", "before");
			this.assertInTree(file);
			await this.writeFile(file, data, options);
			this.faults.check("modify", "after");
		});
	}

	async modifyBinary(file: TFile, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
		return this.modify(file, new TextDecoder().decode(data), options);
	}

	async append(file: TFile, data: string, options?: DataWriteOptions): Promise<void> {
		await this.exclusive(async () => {
			this.faults.check("append", "before");
			this.assertInTree(file);
			await this.disk.append(file.path, data);
			const content = await this.disk.read(file.path);
			if (options?.mtime !== undefined) await this.disk.write(file.path, content, options);
			this.fingerprints.set(file.path, fingerprint(content));
			file.stat = await this.statOf(file.path);
			this.emit("modify", file);
			this.faults.check("append", "after");
		});
	}

	async appendBinary(file: TFile, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
		return this.append(file, new TextDecoder().decode(data), options);
	}

	/**
	 * Atomic read-modify-write; `fn` must be synchronous (a returned promise is an error).
	 * Fake-only 4th argument: which fault-injection queue applies (FileManager passes its own).
	 */
	async process(
		file: TFile,
		fn: (data: string) => string,
		options?: DataWriteOptions,
		faultOperation: FaultOperation = "process",
	): Promise<string> {
		return this.exclusive(async () => {
			this.faults.check(faultOperation, "before");
			this.assertInTree(file);
			const data = await this.disk.read(file.path);
			const next: unknown = fn(data);
			if (isThenable(next)) {
				throw new TypeError("fake-obsidian: the vault.process callback must be synchronous (it returned a promise)");
			}
			if (typeof next !== "string") throw new TypeError("fake-obsidian: the vault.process callback must return a string");
			await this.writeFile(file, next, options);
			this.faults.check(faultOperation, "after");
			return next;
		});
	}

	async delete(file: TAbstractFile, force = false): Promise<void> {
		await this.exclusive(async () => {
			this.faults.check("delete", "before");
			this.assertInTree(file);
			if (file instanceof TFolder) {
				if (file.isRoot()) throw new Error("Cannot delete the vault root.");
				if (!force && (await this.hasHiddenChildren(file.path))) {
					throw new Error(`Folder '${file.path}' has hidden children; pass force = true.`);
				}
				await this.disk.rmdir(file.path, true);
			} else {
				await this.disk.remove(file.path);
			}
			this.detachAndEmit(file);
			this.faults.check("delete", "after");
		});
	}

	/** system = true: the OS trash (removed from the vault folder); false: the vault's `.trash` folder. */
	async trash(file: TAbstractFile, system: boolean): Promise<void> {
		await this.exclusive(async () => {
			this.faults.check("trash", "before");
			this.assertInTree(file);
			if (file instanceof TFolder && file.isRoot()) throw new Error("Cannot trash the vault root.");
			if (system) {
				if (file instanceof TFolder) await this.disk.rmdir(file.path, true);
				else await this.disk.remove(file.path);
			} else {
				await this.disk.mkdir(".trash");
				let target = `.trash/${file.name}`;
				for (let i = 1; await this.disk.exists(target); i++) target = `.trash/${file.name} ${i}`;
				await this.disk.rename(file.path, target);
			}
			this.detachAndEmit(file);
			this.faults.check("trash", "after");
		});
	}

	async rename(file: TAbstractFile, newPath: string): Promise<void> {
		const target = normalizePath(newPath);
		await this.exclusive(async () => {
			this.faults.check("rename", "before");
			this.assertInTree(file);
			if (file instanceof TFolder && file.isRoot()) throw new Error("Cannot rename the vault root.");
			if (target === file.path) return;
			if (isHiddenPath(target)) throw hiddenPathError(target);
			if (target === "/" || this.fileMap.has(target) || (await this.disk.exists(target))) {
				throw new Error("Destination file already exists!");
			}
			if (file instanceof TFolder && isSameOrInside(target, file.path)) {
				throw new Error("Cannot move a folder into itself.");
			}
			const parent = this.fileMap.get(parentPath(target) || "/");
			if (!(parent instanceof TFolder)) {
				// Like the desktop adapter (fs.rename): the destination folder must exist.
				throw new Error(`ENOENT: no such file or directory, rename '${file.path}' -> '${target}'`);
			}
			await this.disk.rename(file.path, target);
			this.move(file, target);
			this.faults.check("rename", "after");
		});
	}

	async copy<T extends TAbstractFile>(file: T, newPath: string): Promise<T> {
		const target = normalizePath(newPath);
		if (isHiddenPath(target)) throw hiddenPathError(target);
		return this.exclusive(async () => {
			this.faults.check("copy", "before");
			this.assertInTree(file);
			if (this.fileMap.has(target) || (await this.disk.exists(target))) throw new Error("Destination file already exists!");
			const copyOne = async (src: TAbstractFile, dst: string): Promise<TAbstractFile> => {
				if (src instanceof TFolder) {
					await this.ensureFolders(dst);
					for (const child of src.children.slice()) await copyOne(child, `${dst}/${child.name}`);
					return this.fileMap.get(dst) as TFolder;
				}
				await this.ensureFolders(parentPath(dst));
				const data = await this.disk.read(src.path);
				await this.disk.write(dst, data);
				const created = new TFile(this, dst);
				created.stat = await this.statOf(dst);
				this.fingerprints.set(dst, fingerprint(data));
				this.attach(created);
				this.emit("create", created);
				return created;
			};
			const result = await copyOne(file, target);
			this.faults.check("copy", "after");
			return result as T;
		});
	}

	// ---- fake-only: loading, watcher, rescan --------------------------------------------------

	/**
	 * Builds the tree from the disk and fires 'create' for every item, like Obsidian at startup.
	 * `beforeEvents` runs once the tree is built and before the events are queued.
	 */
	async loadFromDisk(beforeEvents?: () => Promise<void>): Promise<void> {
		await this.exclusive(async () => {
			const added: TAbstractFile[] = [];
			const walk = async (folder: TFolder): Promise<void> => {
				const listing = await this.disk.list(diskKey(folder.path));
				for (const p of listing.folders) {
					if (isHiddenPath(p) || this.fileMap.has(p)) continue;
					const child = new TFolder(this, p);
					this.attach(child);
					added.push(child);
					await walk(child);
				}
				for (const p of listing.files) {
					if (isHiddenPath(p) || this.fileMap.has(p)) continue;
					const child = new TFile(this, p);
					child.stat = await this.statOf(p);
					this.fingerprints.set(p, fingerprint(await this.disk.read(p)));
					this.attach(child);
					added.push(child);
				}
			};
			await walk(this.root);
			await beforeEvents?.();
			for (const item of added) this.emit("create", item);
		});
	}

	/** The watcher notices changes at these paths after `watcherDelayMs` (asynchronously). */
	notifyWatcher(paths: string[], force = true): void {
		this.runtime.schedule(this.watcherDelayMs, () => this.reconcile(paths, force), "vault watcher");
	}

	/**
	 * Brings the tree in line with the disk at these paths (recursively for folders) and fires
	 * the events a watcher would: create / modify / delete (a rename arrives as delete + create).
	 * force: fire 'modify' for an existing file even when its content looks unchanged.
	 */
	async reconcile(paths: string[], force = false): Promise<void> {
		await this.exclusive(async () => {
			for (const path of paths) await this.reconcileOne(normalizePath(path), force);
		});
	}

	private async reconcileOne(path: string, force: boolean): Promise<void> {
		if (path !== "/" && isHiddenPath(path)) {
			this.hooks.hiddenChanged?.(path);
			return;
		}
		const st = await this.disk.stat(diskKey(path));
		const existing = this.fileMap.get(path);
		if (!st) {
			if (existing && existing !== this.root) this.detachAndEmit(existing);
			return;
		}
		if (st.type === "folder") {
			if (existing instanceof TFile) this.detachAndEmit(existing);
			await this.adoptFolders(path);
			const folder = this.fileMap.get(path) as TFolder;
			const listing = await this.disk.list(diskKey(path));
			const present = new Set([...listing.files, ...listing.folders]);
			for (const child of folder.children.slice()) if (!present.has(child.path)) this.detachAndEmit(child);
			for (const p of listing.folders) if (!isHiddenPath(p)) await this.reconcileOne(p, false);
			for (const p of listing.files) if (!isHiddenPath(p)) await this.reconcileOne(p, false);
			return;
		}
		if (existing instanceof TFolder) this.detachAndEmit(existing);
		let content: string;
		try {
			content = await this.disk.read(path);
		} catch {
			return; // vanished between stat and read; a later notification handles it
		}
		const fp = fingerprint(content);
		const file = this.fileMap.get(path);
		if (!(file instanceof TFile)) {
			await this.adoptFolders(parentPath(path));
			const created = new TFile(this, path);
			created.stat = await this.statOf(path);
			this.fingerprints.set(path, fp);
			this.attach(created);
			this.emit("create", created);
			return;
		}
		const stat = await this.statOf(path);
		if (force || this.fingerprints.get(path) !== fp || stat.mtime !== file.stat.mtime || stat.size !== file.stat.size) {
			file.stat = stat;
			this.fingerprints.set(path, fp);
			this.emit("modify", file);
		}
	}

	/** Resolves once the vault's queued events have been delivered. */
	async drained(): Promise<void> {
		while (this.drainPromise) await this.drainPromise;
	}

	/** Number of paths in the tree (for tests). */
	get size(): number {
		return this.fileMap.size;
	}

	// ---- internals --------------------------------------------------------------------------

	private exclusive<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.lockChain.then(fn, fn).then(async (value) => {
			await this.drained();
			return value;
		});
		this.lockChain = run.then(
			() => undefined,
			() => undefined,
		);
		return this.runtime.watch(run);
	}

	private emit(name: VaultEventName, file: TAbstractFile, oldPath?: string): void {
		this.eventQueue.push(() => this.dispatch(name, file, oldPath));
		if (!this.drainPromise) {
			this.drainPromise = this.runtime.watch(Promise.resolve().then(() => this.drain()));
		}
	}

	private drain(): void {
		this.drainPromise = null;
		while (this.eventQueue.length > 0) this.eventQueue.shift()?.();
	}

	private dispatch(name: VaultEventName, file: TAbstractFile, oldPath?: string): void {
		try {
			this.hooks.beforeEvent?.(name, file, oldPath);
		} catch (error) {
			this.runtime.recordError(`vault hook before '${name}'`, error);
		}
		if (name === "rename") this.trigger("rename", file, oldPath);
		else this.trigger(name, file);
		try {
			this.hooks.afterEvent?.(name, file, oldPath);
		} catch (error) {
			this.runtime.recordError(`vault hook after '${name}'`, error);
		}
	}

	private assertInTree(file: TAbstractFile): void {
		if (this.fileMap.get(file.path) !== file) {
			throw new Error(`fake-obsidian: '${file.path}' is not in the vault (deleted, or a stale TFile).`);
		}
	}

	private async statOf(path: string): Promise<FileStats> {
		const st = await this.disk.stat(path);
		return { ctime: st?.ctime ?? 0, mtime: st?.mtime ?? 0, size: st?.size ?? 0 };
	}

	private async writeFile(file: TFile, data: string, options?: DataWriteOptions): Promise<void> {
		await this.disk.write(file.path, data, options);
		this.fingerprints.set(file.path, fingerprint(data));
		file.stat = await this.statOf(file.path);
		this.emit("modify", file);
	}

	private attach(file: TAbstractFile): void {
		const parent = this.fileMap.get(parentPath(file.path) || "/");
		if (!(parent instanceof TFolder)) throw new Error(`fake-obsidian: no parent folder for '${file.path}'`);
		file.parent = parent;
		parent.children.push(file);
		this.fileMap.set(file.path, file);
	}

	/** Creates (on disk and in the tree) every missing folder down to `path`, firing 'create'. */
	private async ensureFolders(path: string): Promise<void> {
		const key = diskKey(path);
		if (key === "") return;
		for (const folderPath of [...ancestorPaths(key), key]) {
			const existing = this.fileMap.get(folderPath);
			if (existing instanceof TFolder) continue;
			if (existing) throw new Error(`fake-obsidian: '${folderPath}' is a file, not a folder`);
			const st = await this.disk.stat(folderPath);
			if (st?.type === "file") throw new Error(`fake-obsidian: '${folderPath}' is a file, not a folder`);
			if (!st) await this.disk.mkdir(folderPath);
			const folder = new TFolder(this, folderPath);
			this.attach(folder);
			this.emit("create", folder);
		}
	}

	/** Adds folders that already exist on disk to the tree, firing 'create'. */
	private async adoptFolders(path: string): Promise<void> {
		await this.ensureFolders(path);
	}

	private async hasHiddenChildren(path: string): Promise<boolean> {
		const listing = await this.disk.list(path);
		for (const p of [...listing.files, ...listing.folders]) {
			if (isHiddenPath(p.slice(p.lastIndexOf("/") + 1))) return true;
		}
		for (const p of listing.folders) if (!isHiddenPath(p) && (await this.hasHiddenChildren(p))) return true;
		return false;
	}

	/** Removes an item (and its subtree) from the tree; 'delete' fires children first. */
	private detachAndEmit(file: TAbstractFile): void {
		const removed: TAbstractFile[] = [];
		const walk = (f: TAbstractFile): void => {
			if (f instanceof TFolder) for (const c of f.children.slice()) walk(c);
			removed.push(f);
		};
		walk(file);
		const parent = file.parent;
		if (parent) parent.children = parent.children.filter((c) => c !== file);
		for (const f of removed) {
			this.fileMap.delete(f.path);
			this.fingerprints.delete(f.path);
		}
		for (const f of removed) this.emit("delete", f);
	}

	private move(file: TAbstractFile, target: string): void {
		const items: Array<{ item: TAbstractFile; oldPath: string }> = [];
		const walk = (f: TAbstractFile): void => {
			items.push({ item: f, oldPath: f.path });
			if (f instanceof TFolder) for (const c of f.children) walk(c);
		};
		walk(file);
		const oldRoot = file.path;
		const oldParent = file.parent;
		if (oldParent) oldParent.children = oldParent.children.filter((c) => c !== file);
		const prints = new Map<string, string | undefined>();
		for (const { oldPath } of items) {
			this.fileMap.delete(oldPath);
			prints.set(oldPath, this.fingerprints.get(oldPath));
			this.fingerprints.delete(oldPath);
		}
		for (const { item, oldPath } of items) {
			const newPath = target + oldPath.slice(oldRoot.length);
			setFilePath(item, newPath);
			this.fileMap.set(newPath, item);
			const fp = prints.get(oldPath);
			if (fp !== undefined) this.fingerprints.set(newPath, fp);
		}
		const newParent = this.fileMap.get(parentPath(target) || "/") as TFolder;
		file.parent = newParent;
		newParent.children.push(file);
		for (const { item, oldPath } of items) {
			try {
				this.hooks.moved?.(item, oldPath);
			} catch (error) {
				this.runtime.recordError("vault hook moved", error);
			}
		}
		for (const { item, oldPath } of items) this.emit("rename", item, oldPath);
	}
}

export type { FaultOperation };
