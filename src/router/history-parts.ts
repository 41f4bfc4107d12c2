import type { CachedNote, PartRows } from "./history-cache";
import type { KeyFilter } from "./history-digest";
import { textHash } from "./history-digest";

// A history copy split by folder (the plugin's, src/obsidian/history-index-folder.ts): one part for
// each history folder, with its rows, the digest of the listing they stand for (when they stand for
// a whole listing) and a filter of their keys, so that a start reads only the parts it needs.

/** One folder's part, as a store writes it. */
export interface PartToSave extends PartRows {
	folder: string;
}

/** The folder a note's row belongs to: the folder its path is directly in. */
export function folderOf(path: string): string {
	return path.slice(0, path.lastIndexOf("/"));
}

/** The notes of a copy by folder, each part with its digest (from `digests`); `pause` is awaited now and then (a year of history is grouped in slices). */
export async function partsOf(notes: ReadonlyMap<string, CachedNote>, digests: ReadonlyMap<string, string>, pause: () => Promise<void>): Promise<PartToSave[]> {
	const rows = new Map<string, [string, CachedNote][]>();
	let count = 0;
	for (const row of notes) {
		const folder = folderOf(row[0]);
		const list = rows.get(folder);
		if (list) list.push(row);
		else rows.set(folder, [row]);
		if ((++count & 4095) === 0) await pause();
	}
	return [...rows].map(([folder, list]) => ({ folder, rows: list, digest: digests.get(folder) ?? null }));
}

/** Adds the keys of a part's rows to its filter. */
export function addKeys(filter: KeyFilter, rows: readonly [string, CachedNote][]): void {
	for (const [, note] of rows) {
		const { messageId, traceId, inReplyTo } = note.entry;
		for (const key of [messageId, traceId, inReplyTo]) if (key !== undefined) filter.add(key);
	}
}

/** A part's file name: the same for a folder on every start, and only letters, digits and one dot. */
export function partFileName(folder: string): string {
	return `${textHash(folder, 0x811c9dc5).toString(36)}${textHash(folder, 0x050c5d1f).toString(36)}.tsv`;
}
