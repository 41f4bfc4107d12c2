import type * as fs from "node:fs";
import { constants } from "node:fs";

// Small facts about files and file-system errors that the CLI's vault adapter relies on.

/** A file's identity on disk (device and inode): kept by a rename, changed by a replacement. */
export function fileId(st: fs.Stats): string {
	return `${st.dev}:${st.ino}`;
}

export function isCode(error: unknown, ...codes: string[]): boolean {
	return typeof error === "object" && error !== null && codes.includes((error as NodeJS.ErrnoException).code ?? "");
}

/** Errors of a file system without hard links (some network and FUSE file systems). */
export const NO_LINKS = ["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS"];

/** Open flag that refuses a symbolic link (0 where the platform has none). */
export const NO_FOLLOW: number = constants.O_NOFOLLOW ?? 0;

/**
 * Open flag that makes opening a named pipe (or a device) return at once instead of waiting for a
 * writer; it changes nothing for a regular file. Every open of a vault path uses it: any writer of
 * the vault can leave a pipe named like a note, and a blocked open would stop the process.
 */
export const NO_WAIT: number = constants.O_NONBLOCK ?? 0;
