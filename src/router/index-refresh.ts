import type { Router } from "./router";

// Brings a router's index up to date for a reader that is not the router (the CLI's and the MCP
// server's mailbox commands). By default: the registry read again, the live folders and the history
// listed, and only notes the index does not hold yet read. The first call reads every message's
// head; later ones cost a listing of the message folders. A long-lived process that learns of
// changes by its own means (file events: servers/mcp/index-watch.ts) registers a cheaper way, and a
// caller that must not miss a note that moved a moment ago asks for the thorough one. A note changed
// in place keeps its entry until it moves, in the default way: the router moves a note at every step
// that matters to a reader (delivered, answered, timed out, taken).

export type IndexFreshener = (router: Router) => Promise<void>;

const fresheners = new WeakMap<Router, IndexFreshener>();

/** From now on `refreshIndex(router)` runs `freshener` (a thorough refresh still lists everything). */
export function keepIndexFreshWith(router: Router, freshener: IndexFreshener): void {
	fresheners.set(router, freshener);
}

/** The default refresh: everything listed again (the history too, unless told), new notes read. */
export async function rescanIndex(router: Router, options: { history?: boolean } = {}): Promise<void> {
	await router.loadRegistry();
	const sync = router.indexSync;
	await sync.ensureLive();
	if (options.history !== false) await sync.ensureHistory();
	// Right after a first load this only lists the folders again: nothing new to read.
	await sync.rescan(true, options.history !== false);
}

/**
 * Brings the live part up to date (the registry read again, inboxes and outboxes listed, new notes
 * read), leaving the history unread: for a question no history note can answer.
 */
export async function refreshLive(router: Router): Promise<void> {
	const own = fresheners.get(router);
	await (own ? own(router) : rescanIndex(router, { history: false }));
}

export async function refreshIndex(router: Router, options: { thorough?: boolean } = {}): Promise<void> {
	const own = options.thorough ? undefined : fresheners.get(router);
	await (own ? own(router) : rescanIndex(router));
}

/** Indexes the notes of `folders` the index does not hold yet (read from the disk now, in this order). */
export async function refreshFolders(router: Router, folders: string[]): Promise<void> {
	for (const folder of folders) {
		for (const path of await router.port.list(folder)) if (!router.index.has(path)) await router.indexSync.refresh(path);
	}
}
