import { ignoreReason } from "../core/ignore";
import { isMessagePath } from "../core/message-parse";
import type { Router } from "./router";

// How many notes each group's archive (with its month folders) and the dead-letter folder hold,
// counted from their listings with the filters the index applies: the counts the index would give
// once it held the history, without reading a note of it.

export interface HistoryCounts {
	archives: Map<string, number>;
	deadLetters: number;
}

export async function historyCounts(router: Router): Promise<HistoryCounts> {
	const counted = async (folder: string) => (await router.port.list(folder)).filter((p) => !ignoreReason(p) && isMessagePath(p)).length;
	const archives = new Map<string, number>();
	for (const group of router.layout.groupIds()) {
		let notes = 0;
		for (const folder of await router.indexSync.archiveFolders(group)) notes += await counted(folder);
		archives.set(group, notes);
	}
	return { archives, deadLetters: await counted(router.layout.deadLetterFolder) };
}
