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
