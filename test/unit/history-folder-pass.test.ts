import { describe, expect, it } from "vitest";
import { MessageIndex } from "../../src/core/message-index";
import type { IndexEntry } from "../../src/core/message-index";
import { noChanges } from "../../src/router/history-changes";
import { indexFolder, readHead } from "../../src/router/history-folder-pass";
import type { HistoryIndexing } from "../../src/router/history-folder-pass";
import type { ReadFile } from "../../src/router/vault-port";

// What the history copy may keep of a note the folder pass read: the entry with the facts it was
// read under, unless those facts may not be the text's.

const PATH = "A2A/groups/g/archive/2026-11/a.md";
const TEXT = "---\nmessage_id: a\nkind: request\n---\nbody\n";
const READ_AT = 1_700_000_100_000;

function indexing(read: ReadFile): { sync: HistoryIndexing; indexed: string[] } {
	const indexed: string[] = [];
	const sync = {
		index: new MessageIndex(),
		port: { read: () => Promise.resolve(read) },
		indexText: (path: string): IndexEntry => {
			indexed.push(path);
			return { path, location: { area: "dead-letter" }, kind: "request", route: [], messageId: "a" };
		},
		readHead: () => Promise.resolve(read),
	} as unknown as HistoryIndexing;
	return { sync, indexed };
}

describe("a history note read by the folder pass", () => {
	const info = { path: PATH, size: TEXT.length, mtime: READ_AT - 60_000 };

	it("is kept for the copy with the facts it was read under", async () => {
		const { sync, indexed } = indexing({ text: TEXT, info });
		const kept = await readHead(sync, PATH, { area: "dead-letter" }, READ_AT);
		expect(indexed).toEqual([PATH]);
		expect(kept).toMatchObject({ size: info.size, mtime: info.mtime, entry: { messageId: "a" } });
	});

	it("is indexed but not kept when it changed during every read (its facts may be newer than its text)", async () => {
		const { sync, indexed } = indexing({ text: TEXT, info, unsettled: true });
		expect(await readHead(sync, PATH, { area: "dead-letter" }, READ_AT)).toBeNull();
		expect(indexed).toEqual([PATH]);
	});
});

describe("a history folder indexed by the folder pass", () => {
	const FOLDER = "A2A/groups/g/archive/2026-11";
	const info = { path: PATH, size: TEXT.length, mtime: READ_AT - 60_000 };

	/** The pass over one folder listing the note, whose read gives `read`; what the copy may keep afterwards. */
	async function pass(read: ReadFile) {
		const { sync, indexed } = indexing(read);
		const dropped: string[][] = [];
		Object.assign(sync, {
			port: { read: () => Promise.resolve(read), listInfo: () => Promise.resolve([info]), stat: () => Promise.resolve(info) },
			layout: () => ({ locate: () => ({ area: "box", group: "g", box: "archive" }) }),
			now: () => READ_AT,
			dueToYield: () => false,
			dropGone: (_folder: string, listed: ReadonlySet<string>) => dropped.push([...listed]),
		});
		const changes = noChanges(0);
		await indexFolder(sync, FOLDER, new Map(), changes, true);
		return { changes, indexed, dropped };
	}

	it("keeps a settled read for the copy, and vouches for the folder's listing with it", async () => {
		const { changes, indexed, dropped } = await pass({ text: TEXT, info });
		expect(indexed).toEqual([PATH]);
		expect([...changes.read.keys()]).toEqual([PATH]);
		expect(changes.digests.get(FOLDER)?.rows).toBe(1);
		expect(dropped).toEqual([[PATH]]);
	});

	it("indexes a note that changed during every read, but neither keeps it nor vouches for its folder", async () => {
		const { changes, indexed } = await pass({ text: TEXT, info, unsettled: true });
		expect(indexed).toEqual([PATH]);
		expect(changes.reads).toBe(1);
		expect(changes.read.size).toBe(0);
		expect(changes.digests.has(FOLDER)).toBe(false);
	});
});
