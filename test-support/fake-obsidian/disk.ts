/**
 * The storage under the fake vault. Two implementations share one contract
 * (see disk-contract.test.ts): `MemoryDisk` (memory-disk.ts, browser-safe) and `NodeDisk`
 * (node-disk.ts, a real folder; never imported by index.ts so the fake bundles for a browser).
 *
 * Paths are vault-relative with `/` separators; "" and "/" are the root.
 */

export interface DiskStat {
	type: "file" | "folder";
	ctime: number;
	mtime: number;
	size: number;
}

export interface DiskWriteOptions {
	ctime?: number;
	mtime?: number;
}

export interface DiskListing {
	/** Full vault-relative paths of the direct child files, sorted. */
	files: string[];
	/** Full vault-relative paths of the direct child folders, sorted. */
	folders: string[];
}

export interface Disk {
	/** Name of the vault folder (what `vault.getName()` returns). */
	readonly name: string;
	/** Absolute base path when the disk is a real folder (for `FileSystemAdapter.getBasePath`). */
	readonly basePath?: string;
	exists(path: string): Promise<boolean>;
	stat(path: string): Promise<DiskStat | null>;
	/** Throws an `ENOENT` error (with `code`) when the file is missing. */
	read(path: string): Promise<string>;
	/** The file's bytes as stored (an attachment's, or a note's UTF-8); errors as `read`. */
	readBytes(path: string): Promise<Uint8Array>;
	/** Creates missing parent folders. Overwrites an existing file; throws `EISDIR` on a folder. Text is stored as UTF-8. */
	write(path: string, data: string | Uint8Array, options?: DiskWriteOptions): Promise<void>;
	/** Creates the file when missing. */
	append(path: string, data: string): Promise<void>;
	/** Recursive; no error when the folder exists; `EEXIST` when a file is in the way. */
	mkdir(path: string): Promise<void>;
	/** Throws `ENOENT` when the folder is missing, `ENOTDIR` on a file. */
	list(path: string): Promise<DiskListing>;
	/** Removes a file; `ENOENT` when missing, `EISDIR` on a folder. */
	remove(path: string): Promise<void>;
	/** Removes a folder; `ENOTEMPTY` when not empty and not recursive. */
	rmdir(path: string, recursive: boolean): Promise<void>;
	/**
	 * Renames a file or folder. Never overwrites: `EEXIST` when the destination exists,
	 * `ENOENT` when the source or the destination's parent folder is missing.
	 */
	rename(from: string, to: string): Promise<void>;
}

export type DiskErrorCode = "ENOENT" | "EEXIST" | "EISDIR" | "ENOTDIR" | "ENOTEMPTY" | "EINVAL";

export interface DiskError extends Error {
	code: DiskErrorCode;
	path: string;
}

export function diskError(code: DiskErrorCode, syscall: string, path: string, dest?: string): DiskError {
	const messages: Record<DiskErrorCode, string> = {
		ENOENT: "no such file or directory",
		EEXIST: "file already exists",
		EISDIR: "illegal operation on a directory",
		ENOTDIR: "not a directory",
		ENOTEMPTY: "directory not empty",
		EINVAL: "invalid argument",
	};
	const where = dest === undefined ? `'${path}'` : `'${path}' -> '${dest}'`;
	const error = new Error(`${code}: ${messages[code]}, ${syscall} ${where}`) as DiskError;
	error.code = code;
	error.path = path;
	return error;
}

export function isDiskError(error: unknown, code?: DiskErrorCode): error is DiskError {
	if (!(error instanceof Error)) return false;
	const c = (error as Partial<DiskError>).code;
	return typeof c === "string" && (code === undefined || c === code);
}
