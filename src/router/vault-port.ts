// The one narrow port through which the router touches a vault. Two adapters implement it: one over
// Obsidian's Vault and FileManager (src/obsidian/obsidian-vault.ts), one over Node's fs for the CLI
// (cli/node-vault.ts). Paths are vault-relative, normalised, with `/`.

export interface FileInfo {
	path: string;
	/** Bytes. */
	size: number;
	/** Epoch ms of the last modification. */
	mtime: number;
	/** The file's identity where the adapter can tell it (kept across renames), e.g. device and inode. */
	id?: string;
}

export type MoveResult = "moved" | "missing" | "exists";

/**
 * What the caller already read of a file. An adapter may use the text instead of reading the file
 * again when the file's size and modification time still match; it must read it otherwise.
 */
export interface KnownContent {
	text: string;
	size: number;
	mtime: number;
	/** FileInfo.id from the listing the text was read after, when the adapter gave one. */
	id?: string;
}

export interface VaultPort {
	/** Files directly in a folder (not below it); empty when the folder does not exist. */
	list(folder: string): Promise<FileInfo[]>;
	/** Files anywhere below a folder. */
	listRecursive(folder: string): Promise<FileInfo[]>;
	stat(path: string): Promise<FileInfo | null>;
	/** The file's text, or null when it does not exist. */
	read(path: string): Promise<string | null>;
	/**
	 * Creates a file with all its content at once (a reader never sees part of it), making missing
	 * parent folders. Returns false, writing nothing, when the path is already taken.
	 */
	create(path: string, content: string): Promise<boolean>;
	/** Moves a file atomically; never overwrites. */
	move(from: string, to: string): Promise<MoveResult>;
	/**
	 * Edits a note's frontmatter atomically; the body is kept byte for byte. Returns false when the
	 * file is gone. Throws when the existing frontmatter does not parse.
	 */
	updateFrontmatter(path: string, edit: (frontmatter: Record<string, unknown>) => void, known?: KnownContent): Promise<boolean>;
	/** Replaces a file's text atomically through a function of the current text; false when gone. */
	process(path: string, edit: (text: string) => string, known?: KnownContent): Promise<boolean>;
	/** Appends text, creating the file with `header` first when it does not exist. */
	append(path: string, text: string, header: string): Promise<void>;
	ensureFolder(path: string): Promise<void>;
	/**
	 * Takes or renews a lease so that two routers on one vault never route at the same time.
	 * Returns false while another live holder has it.
	 */
	acquireLease(path: string, holder: string, ttlMs: number): Promise<boolean>;
	releaseLease(path: string, holder: string): Promise<void>;
}
