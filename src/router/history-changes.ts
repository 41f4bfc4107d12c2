import type { CachedNote } from "./history-cache";
import { textHash } from "./history-digest";
import { folderOf } from "./history-parts";

// What one reading of the history (src/router/history-from-copy.ts) took from its copy and what it
// read instead, and what the copy it saves may then vouch for.

/** What a start took from the history copy, and what it read instead. */
export interface HistoryChanges {
	/** Notes read (their heads), as the copy will keep them. */
	read: Map<string, CachedNote>;
	/** Saved notes that were read again (they changed). */
	replaced: Set<string>;
	/** Saved notes taken as they were. */
	used: number;
	reads: number;
	/** The listing's digest of each folder whose notes the copy will all keep, as listed, how many they are, and their paths (addPath). */
	digests: Map<string, { digest: string; rows: number; paths: number }>;
}

/** Nothing taken or read yet (`reads` read before). */
export function noChanges(reads: number): HistoryChanges {
	return { read: new Map(), replaced: new Set(), used: 0, reads, digests: new Map() };
}

/** True when the copy's parts carry the digests this reading found, and no part of a folder gone. */
export function sameDigests(parts: ReadonlyMap<string, string | null> | null, digests: HistoryChanges["digests"], folders: readonly string[]): boolean {
	if (parts === null) return true;
	if ([...parts.keys()].some((folder) => !folders.includes(folder))) return false;
	return folders.every((folder) => (parts.get(folder) ?? null) === (digests.get(folder)?.digest ?? null));
}

/** A set of paths summed up path by path, in any order (the sum of a 32-bit hash of each). */
export function addPath(sum: number, path: string): number {
	return (sum + textHash(path, 0x811c9dc5)) >>> 0;
}

/**
 * The digests the kept notes still stand for: a folder's, while the copy keeps exactly the notes its
 * listing had (a note dropped from the index since, or another kept in its place, would otherwise be
 * vouched for wrongly).
 */
export function wholeListings(kept: ReadonlyMap<string, CachedNote>, digests: HistoryChanges["digests"]): Map<string, string> {
	const held = new Map<string, { rows: number; paths: number }>();
	for (const path of kept.keys()) {
		const folder = folderOf(path);
		let sum = held.get(folder);
		if (!sum) held.set(folder, (sum = { rows: 0, paths: 0 }));
		sum.rows++;
		sum.paths = addPath(sum.paths, path);
	}
	const whole = new Map<string, string>();
	for (const [folder, { digest, rows, paths }] of digests) {
		const sum = held.get(folder);
		if (sum?.rows === rows && sum.paths === paths) whole.set(folder, digest);
	}
	return whole;
}
