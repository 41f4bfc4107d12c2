// The one narrow port through which the router touches a vault. Two adapters implement it: one over
// Obsidian's Vault (src/obsidian/obsidian-vault.ts), one over Node's fs for the CLI
// (node/node-vault.ts). Paths are vault-relative with `/`. A path the router got from `list` is used
// exactly as listed (a file name is data: it may hold any character a disk allows); paths the router
// builds are normalised.

/** What `stat` says of a file, but its path. */
export type FileFacts = Pick<FileInfo, "size" | "mtime" | "id" | "changed">;

/** Whether two looks at a file found the same facts. */
export function sameFacts(a: FileFacts, b: FileFacts): boolean {
	return a.size === b.size && a.mtime === b.mtime && a.id === b.id && a.changed === b.changed;
}

export interface FileInfo {
	path: string;
	/** Bytes. */
	size: number;
	/** Epoch ms of the last modification. */
	mtime: number;
	/** The file's identity where the adapter can tell it (kept across renames), e.g. device and inode. */
	id?: string;
	/** Epoch ms of the last change of the file or its status (ctime) where the adapter can tell it: no program can set it back. */
	changed?: number;
}

/** A file's text as read, with what the file was when it was read. */
export interface ReadFile {
	text: string;
	/** Facts the file had while its text was read, or older ones (which only cost a read again), never newer: unless `unsettled`. */
	info: FileInfo;
	/** True when only the first `maxBytes` were read. */
	truncated?: boolean;
	/** Adapter data (e.g. the original bytes of a file that is not valid UTF-8); the router never looks at it. */
	basis?: unknown;
	/** True when the file changed during every read the adapter tried: `info` may be newer than `text`, so nothing may vouch for this text by those facts. */
	unsettled?: boolean;
}

export type MoveResult = "moved" | "missing" | "exists";

/**
 * Where a transfer put the note; `existed` when an interrupted transfer had already put it there.
 * `finish`, given only when the transfer was asked to leave its last step (option leaveLastStep),
 * takes that step.
 */
export type TransferResult = { path: string; existed: boolean; finish?: () => Promise<void> } | "changed" | "missing";

export interface TransferOptions {
	/** True for a file already at a destination name that is this very note, written by an interrupted transfer. */
	isEarlierCopy?: (text: string) => boolean;
	/**
	 * Called once the note's place is settled and before the last step of the transfer (the one
	 * after which nothing shows that a transfer was under way): the router logs the move here, so
	 * that an interruption at any point leaves either the row or a transfer to finish.
	 */
	beforeFinish?: (path: string, existed: boolean) => Promise<void>;
	/**
	 * Leaves the last step (the removal of the note) to the caller, through the result's `finish`: a
	 * caller that logs many transfers at once calls it once the rows are written. Only for an
	 * adapter that says `canLeaveLastStep`.
	 */
	leaveLastStep?: boolean;
}
export type ChangeResult = "done" | "changed" | "missing";

export interface ReadOptions {
	/**
	 * The caller needs only this many bytes (the rest of a larger file is not needed). An adapter
	 * may read more; it sets `truncated` whenever the file is larger.
	 */
	maxBytes?: number;
}

export interface VaultPort {
	/** Paths of the files directly in a folder (not below it), dot-files included; empty when the folder does not exist. */
	list(folder: string): Promise<string[]>;
	/** Paths of the folders directly in a folder (not below it); empty when the folder does not exist. */
	listFolders(folder: string): Promise<string[]>;
	/** Files anywhere below a folder. */
	listRecursive(folder: string): Promise<FileInfo[]>;
	stat(path: string): Promise<FileInfo | null>;
	/**
	 * The files directly in a folder, as `list` gives them, each with what `stat` would say of it, in
	 * one call (the router then asks no `stat`): Obsidian's adapter has them at hand; the Node vault
	 * asks the file system for them one after another, which on a folder of 10,000 notes takes a
	 * third of the time of as many calls of `stat` between other work.
	 */
	listInfo?(folder: string): Promise<FileInfo[]>;
	/**
	 * Visits the files `listInfo` lists, each by its name (its path past `folder/`) and its facts,
	 * at once and making nothing per file: for an adapter that holds every file's facts (Obsidian's),
	 * so that a start can tell which folders changed before it reads anything.
	 */
	eachFileIn?(folder: string, visit: (name: string, facts: FileFacts) => void): void;
	/** A file's text (UTF-8), or null when there is no file at that path. */
	read(path: string, options?: ReadOptions): Promise<ReadFile | null>;
	/**
	 * Creates a file with all its content at once (a reader never sees part of it), making missing
	 * parent folders. Returns false, writing nothing, when the path is taken, however close two
	 * creates of one path come. `basis` is the read the text was made from, so that an adapter can
	 * keep bytes the text could not represent.
	 */
	create(path: string, text: string, basis?: ReadFile): Promise<boolean>;
	/**
	 * Creates `text` in `folder` under the first free name of `names`, as `create` would under each
	 * in turn, and returns its path (null when every name is taken). Optional: an adapter gives it
	 * when a taken name costs it less than a whole create (NodeVault writes the file once and links
	 * it to each name in turn); writers fall back to `create` name by name.
	 */
	createUnderFirstFree?(folder: string, names: Iterable<string>, text: string): Promise<string | null>;
	/**
	 * Creates a file with these bytes (an attachment: an image, a PDF), at once and never over another
	 * file, making missing parent folders. "same" when the path holds exactly these bytes already (the
	 * same file saved before), "taken" when it holds anything else.
	 */
	createBytes(path: string, bytes: Uint8Array): Promise<"created" | "same" | "taken">;
	/** Moves a file; never overwrites ("exists"), also when two moves race for one name. */
	move(from: string, to: string): Promise<MoveResult>;
	/** Replaces a file's text at once, only if the file is still the one `expected` read ("changed" otherwise). */
	replace(path: string, text: string, expected: ReadFile): Promise<ChangeResult>;
	/** Removes a file, only if it is still the one `expected` read, when given. */
	remove(path: string, expected?: ReadFile): Promise<ChangeResult>;
	/**
	 * Moves the note `source` read into `folder` as `text` (what the router made of what it read),
	 * under the first free name of `names`, never over another file. Nothing happens ("changed")
	 * when the note is no longer what was read. After it, the note is at the new path only: an
	 * adapter either writes the new file and then removes the note, or rewrites the note and then
	 * moves it.
	 */
	transfer(source: ReadFile, folder: string, names: Iterable<string>, text: string, options?: TransferOptions): Promise<TransferResult>;
	/**
	 * True when a transfer's last step is the removal of the note, which it can leave to its caller
	 * (option leaveLastStep): until then the note is in both places, as after an interrupted transfer.
	 */
	readonly canLeaveLastStep?: boolean;
	/**
	 * Appends `text` (whole lines), creating the file with `header` first when it does not exist.
	 * "present" when the file already holds those lines and nothing was written: a sync engine may
	 * have brought the same lines from another device. An adapter may skip that look while the file
	 * is as its own last append left it (nothing else wrote it since).
	 */
	append(path: string, text: string, header: string): Promise<"appended" | "present">;
	/** Releases what the adapter kept open during a pass (the router calls it when a pass ends). */
	flush?(): Promise<void>;
	ensureFolder(path: string): Promise<void>;
}
