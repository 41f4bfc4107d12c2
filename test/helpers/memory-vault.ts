import { holdsLines, utf8Length } from "../../src/core/text";
import type { ChangeResult, FileInfo, MoveResult, ReadFile, ReadOptions, TransferOptions, TransferResult, VaultPort } from "../../src/router/vault-port";

// An in-memory VaultPort with the semantics of node/node-vault.ts, for tests that push thousands of
// notes through the router: a Map of "disk" path -> { text, mtime } plus the set of folders.
//
// - Paths are looked up exactly as NodeVault.abs does (only "/" separates, names as given), and a
//   path with a ".." segment throws like NodeVault's "outside the vault" check.
// - create: false (nothing written) when the path is taken, by a file or a folder; makes parents.
// - move: never overwrites ("exists"), "missing" when the source is gone; makes the destination
//   folder; keeps the mtime and the identity (a rename does).
// - replace / remove: only while the file is the one read (identity, size, mtime), else "changed".
// Every mutating call records the paths it wrote in `writes`, for "nothing outside A2A" checks.

interface Entry {
	text: string;
	/** The exact bytes of a file made by createBytes (`text` is then their Latin-1 reading). */
	bytes?: Uint8Array;
	mtime: number;
	/** Identity: a new one for every write, kept by a move. */
	id: number;
}

export class MemoryVault implements VaultPort {
	readonly files = new Map<string, Entry>();
	readonly canLeaveLastStep = true;
	readonly folders = new Set<string>();
	/** Every path a mutating call wrote (created, moved to, rewritten, appended, made as a folder). */
	readonly writes: string[] = [];
	private nextId = 0;

	constructor(private readonly clock: () => number = () => Date.now()) {}

	/** NodeVault.abs: the path with its separators tidied (names used as given), refusing anything that would leave the vault. */
	key(vaultPath: string): string {
		const segments = vaultPath.split("/").filter((s) => s !== "" && s !== ".");
		if (segments.includes("..")) throw new Error(`path ${JSON.stringify(vaultPath)} is outside the vault`);
		return segments.join("/");
	}

	private parentOf(key: string): string {
		const i = key.lastIndexOf("/");
		return i < 0 ? "" : key.slice(0, i);
	}

	private mkdirs(key: string): void {
		for (let folder = key; folder !== ""; folder = this.parentOf(folder)) {
			if (this.files.has(folder)) throw new Error(`ENOTDIR: ${folder} is a file`);
			this.folders.add(folder);
		}
	}

	private info(key: string): FileInfo | null {
		const entry = this.files.get(key);
		return entry ? { path: key, size: entry.bytes?.length ?? utf8Length(entry.text), mtime: entry.mtime, id: String(entry.id) } : null;
	}

	private put(key: string, text: string, mtime = this.clock()): void {
		this.files.set(key, { text, mtime, id: ++this.nextId });
		this.writes.push(key);
	}

	// ---- test helpers (the "outside world") -----------------------------------------------

	/** Writes a file under exactly this name, like another program would (no event, no normalisation). */
	writeRaw(path: string, text: string, mtime = this.clock()): void {
		const key = this.key(path);
		this.mkdirs(this.parentOf(key));
		this.files.set(key, { text, mtime, id: ++this.nextId });
	}

	/** The text under exactly this name, or undefined. */
	readRaw(path: string): string | undefined {
		return this.files.get(path)?.text;
	}

	deleteRaw(path: string): void {
		this.files.delete(path);
	}

	/** Every file path, sorted. */
	paths(): string[] {
		return [...this.files.keys()].sort();
	}

	// ---- VaultPort ---------------------------------------------------------------------------

	async list(folder: string): Promise<string[]> {
		const dir = this.key(folder);
		const out: string[] = [];
		for (const key of this.files.keys()) {
			if (this.parentOf(key) === dir) out.push(key);
		}
		return out;
	}

	async listFolders(folder: string): Promise<string[]> {
		const dir = this.key(folder);
		return [...this.folders].filter((f) => f !== dir && this.parentOf(f) === dir);
	}

	async listRecursive(folder: string): Promise<FileInfo[]> {
		const dir = this.key(folder);
		const out: FileInfo[] = [];
		for (const key of this.files.keys()) {
			if (dir === "" || key.startsWith(`${dir}/`)) out.push(this.info(key) as FileInfo);
		}
		return out;
	}

	async stat(path: string): Promise<FileInfo | null> {
		return this.info(this.key(path));
	}

	async read(path: string, options: ReadOptions = {}): Promise<ReadFile | null> {
		const key = this.key(path);
		const entry = this.files.get(key);
		if (!entry) return null;
		const info = this.info(key) as FileInfo;
		const truncated = options.maxBytes !== undefined && info.size > options.maxBytes;
		return { text: entry.text, info, truncated };
	}

	async create(path: string, content: string): Promise<boolean> {
		const key = this.key(path);
		this.mkdirs(this.parentOf(key));
		if (this.files.has(key) || this.folders.has(key)) return false;
		this.put(key, content);
		return true;
	}

	async createBytes(path: string, bytes: Uint8Array): Promise<"created" | "same" | "taken"> {
		const key = this.key(path);
		const latin1 = Buffer.from(bytes).toString("latin1");
		if (await this.create(path, latin1)) {
			(this.files.get(key) as Entry).bytes = bytes.slice();
			return "created";
		}
		const held = this.files.get(key);
		return held?.bytes !== undefined && held.text === latin1 ? "same" : "taken";
	}

	async move(from: string, to: string): Promise<MoveResult> {
		const src = this.key(from);
		const dest = this.key(to);
		if (this.files.has(dest) || this.folders.has(dest)) return "exists";
		const entry = this.files.get(src);
		if (!entry) return "missing";
		this.mkdirs(this.parentOf(dest));
		this.files.delete(src);
		this.files.set(dest, entry);
		this.writes.push(dest);
		return "moved";
	}

	/** "done" when the file is still the one `expected` read (same identity, size and time). */
	private unchanged(key: string, expected: ReadFile): ChangeResult {
		const entry = this.files.get(key);
		if (!entry) return "missing";
		return String(entry.id) === expected.info.id && entry.mtime === expected.info.mtime && utf8Length(entry.text) === expected.info.size ? "done" : "changed";
	}

	async replace(path: string, text: string, expected: ReadFile): Promise<ChangeResult> {
		const key = this.key(path);
		const check = this.unchanged(key, expected);
		if (check === "done") this.put(key, text);
		return check;
	}

	async remove(path: string, expected?: ReadFile): Promise<ChangeResult> {
		const key = this.key(path);
		const check = expected ? this.unchanged(key, expected) : this.files.has(key) ? "done" : "missing";
		if (check === "done") this.files.delete(key);
		return check;
	}

	/** As NodeVault: the new file, then the note removed if it is still what was read. */
	async transfer(source: ReadFile, folder: string, names: Iterable<string>, text: string, options: TransferOptions = {}): Promise<TransferResult> {
		const check = this.unchanged(this.key(source.info.path), source);
		if (check !== "done") return check;
		for (const name of names) {
			const path = `${folder}/${name}`;
			let existed = false;
			if (!(await this.create(path, text))) {
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

	async append(path: string, text: string, header: string): Promise<"appended" | "present"> {
		const key = this.key(path);
		this.mkdirs(this.parentOf(key));
		if (this.folders.has(key)) throw new Error(`${path} is a folder`);
		const entry = this.files.get(key);
		if (entry && holdsLines(entry.text, text)) return "present";
		this.put(key, entry ? entry.text + text : header + text);
		return "appended";
	}

	async ensureFolder(path: string): Promise<void> {
		const key = this.key(path);
		this.mkdirs(key);
		if (key !== "") this.writes.push(`${key}/`);
		return ;
	}
}
