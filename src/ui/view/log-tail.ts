import { TFile } from "obsidian";
import type { App } from "obsidian";
import { parseLogLines } from "../../core/routing-log";
import type { RelayState } from "../../obsidian/relay-state";
import { fromLogRow } from "./flow-state";
import type { DecisionRow } from "./flow-state";

// The latest rows of the routing log (`log/YYYY-MM-DD.md`), newest first: what the sidebar lists
// as the latest decisions before this session routed anything (after a restart, or on a device
// that does not route). Each row names its message by message_id and file name, so its link
// still opens the message after the router moved it on.

export async function readLogTail(app: App, state: RelayState, limit: number): Promise<DecisionRow[]> {
	const folder = app.vault.getFolderByPath(state.layout().logFolder);
	if (!folder) return [];
	const days = folder.children
		.filter((f): f is TFile => f instanceof TFile && /^\d{4}-\d{2}-\d{2}\.md$/.test(f.name))
		.sort((a, b) => (a.name < b.name ? 1 : -1));
	const rows: DecisionRow[] = [];
	for (const file of days.slice(0, 2)) {
		const day = file.basename;
		const parsed = parseLogLines(await app.vault.cachedRead(file)).map((row) => fromLogRow(row, day));
		rows.push(...parsed.reverse());
		if (rows.length >= limit) break;
	}
	return rows.slice(0, limit);
}
