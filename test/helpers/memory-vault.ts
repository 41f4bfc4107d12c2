import { updateFrontmatterText } from "../../src/core/frontmatter";
import { utf8Length } from "../../src/core/text";
import type { FileInfo, KnownContent, MoveResult, VaultPort } from "../../src/router/vault-port";

// An in-memory VaultPort with the semantics of cli/node-vault.ts, for tests that push thousands of
// notes through the router: a Map of "disk" path -> { text, mtime } plus the set of folders.
//
// - Paths are looked up exactly as NodeVault.abs does (separators tidied, names as given), and a
//   path that climbs above the vault root throws like NodeVault's "outside the vault" check.
// - create: false (nothing written) when the path is taken, by a file or a folder; makes parents.
// - move: never overwrites ("exists"), "missing" when the source is gone; makes the destination
//   folder; keeps the mtime (a rename does).
// - process / updateFrontmatter: false when the file is gone; updateFrontmatter goes through
//   updateFrontmatterText and so throws its YamlError on bad YAML, writing nothing.
// - leases: a JSON record { holder, at }; refused while another holder's lease is younger than
//   the TTL and not marked dead with `killLeaseHolder`.
// Every mutating call records the paths it wrote in `writes`, for "nothing outside A2A" checks.

interface Entry {
	text: string;
	mtime: number;
}

export class MemoryVault implements VaultPort {
	readonly files = new Map<string, Entry>();
	readonly folders = new Set<string>();
	/** Every path a mutating call wrote (created, moved to, rewritten, appended, made as a folder). */
	readonly writes: string[] = [];
	private readonly deadHolders = new Set<string>();

	constructor(private readonly clock: () => number = () => Date.now()) {}

	/** NodeVault.abs: the path with its separators tidied (names used as given), refusing anything that would leave the vault. */
	key(vaultPath: string): string {
		const normal = vaultPath.replace(/\/+/g, "/").replace(/^\/+|\/+$/g, "");
		if (normal === "") return "";
		const out: string[] = [];
		for (const segment of normal.split("/")) {
			if (segment === "." || segment === "") continue;
			if (segment === "..") {
				if (out.length === 0) throw new Error(`path ${vaultPath} is outside the vault`);
				out.pop();
			} else out.push(segment);
		}
		return out.join("/");
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
		return entry ? { path: key, size: utf8Length(entry.text), mtime: entry.mtime } : null;
	}

	private put(key: string, text: string, mtime = this.clock()): void {
		this.files.set(key, { text, mtime });
		this.writes.push(key);
	}

	// ---- test helpers (the "outside world") -----------------------------------------------

	/** Writes a file under exactly this name, like another program would (no event, no normalisation). */
	writeRaw(path: string, text: string, mtime = this.clock()): void {
		const key = this.key(path);
		this.mkdirs(this.parentOf(key));
		this.files.set(key, { text, mtime });
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

	/** Makes `holder`'s lease count as abandoned (its process died). */
	killLeaseHolder(holder: string): void {
		this.deadHolders.add(holder);
	}

	// ---- VaultPort ---------------------------------------------------------------------------

	list(folder: string): Promise<FileInfo[]> {
		const dir = this.key(folder);
		const out: FileInfo[] = [];
		for (const key of this.files.keys()) {
			if (this.parentOf(key) === dir) out.push(this.info(key) as FileInfo);
		}
		return Promise.resolve(out);
	}

	listRecursive(folder: string): Promise<FileInfo[]> {
		const dir = this.key(folder);
		const out: FileInfo[] = [];
		for (const key of this.files.keys()) {
			if (dir === "" || key.startsWith(`${dir}/`)) out.push(this.info(key) as FileInfo);
		}
		return Promise.resolve(out);
	}

	stat(path: string): Promise<FileInfo | null> {
		return Promise.resolve(this.info(this.key(path)));
	}

	read(path: string): Promise<string | null> {
		return Promise.resolve(this.files.get(this.key(path))?.text ?? null);
	}

	create(path: string, content: string): Promise<boolean> {
		const key = this.key(path);
		this.mkdirs(this.parentOf(key));
		if (this.files.has(key) || this.folders.has(key)) return Promise.resolve(false);
		this.put(key, content);
		return Promise.resolve(true);
	}

	move(from: string, to: string): Promise<MoveResult> {
		const src = this.key(from);
		const dest = this.key(to);
		if (this.files.has(dest) || this.folders.has(dest)) return Promise.resolve("exists");
		const entry = this.files.get(src);
		if (!entry) return Promise.resolve("missing");
		this.mkdirs(this.parentOf(dest));
		this.files.delete(src);
		this.put(dest, entry.text, entry.mtime);
		return Promise.resolve("moved");
	}

	process(path: string, edit: (text: string) => string, known?: KnownContent): Promise<boolean> {
		const key = this.key(path);
		const entry = this.files.get(key);
		if (!entry) return Promise.resolve(false);
		// Like NodeVault: the caller's text stands in for the file while size and mtime still match.
		const current = known && known.size === utf8Length(entry.text) && known.mtime === entry.mtime ? known.text : entry.text;
		try {
			const next = edit(current);
			if (next !== current) this.put(key, next);
			return Promise.resolve(true);
		} catch (error) {
			return Promise.reject(error as Error);
		}
	}

	updateFrontmatter(path: string, edit: (frontmatter: Record<string, unknown>) => void, known?: KnownContent): Promise<boolean> {
		return this.process(path, (text) => updateFrontmatterText(text, edit), known);
	}

	append(path: string, text: string, header: string): Promise<void> {
		const key = this.key(path);
		this.mkdirs(this.parentOf(key));
		const entry = this.files.get(key);
		this.put(key, entry ? entry.text + text : header + text);
		return Promise.resolve();
	}

	ensureFolder(path: string): Promise<void> {
		const key = this.key(path);
		this.mkdirs(key);
		if (key !== "") this.writes.push(`${key}/`);
		return Promise.resolve();
	}

	acquireLease(path: string, holder: string, ttlMs: number): Promise<boolean> {
		const key = this.key(path);
		const now = this.clock();
		const existing = this.files.get(key);
		if (existing) {
			let lease: { holder?: unknown; at?: unknown } = {};
			try {
				lease = JSON.parse(existing.text) as typeof lease;
			} catch {
				if (now - existing.mtime <= ttlMs) return Promise.resolve(false);
			}
			const alive = typeof lease.holder === "string" && !this.deadHolders.has(lease.holder) && typeof lease.at === "number" && now - lease.at <= ttlMs;
			if (lease.holder !== holder && alive) return Promise.resolve(false);
		}
		this.mkdirs(this.parentOf(key));
		this.put(key, JSON.stringify({ holder, at: now }));
		return Promise.resolve(true);
	}

	releaseLease(path: string, holder: string): Promise<void> {
		const key = this.key(path);
		const existing = this.files.get(key);
		if (!existing) return Promise.resolve();
		try {
			if ((JSON.parse(existing.text) as { holder?: unknown }).holder === holder) this.files.delete(key);
		} catch {
			// Not a lease this holder wrote.
		}
		return Promise.resolve();
	}
}
