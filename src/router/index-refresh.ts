import type { Router } from "./router";

// Brings a router's index up to date for a reader that is not the router (the CLI's and the MCP
// server's mailbox commands): the registry read again, the live folders and the history listed,
// and only notes the index does not hold yet read. The first call reads every message's head; in a
// long-lived process (`a2a mcp`) the later ones cost a listing of the message folders. A note
// changed in place keeps its entry until it moves: the router moves a note at every step that
// matters to a reader (delivered, answered, timed out, taken).

export async function refreshIndex(router: Router): Promise<void> {
	await router.loadRegistry();
	const sync = router.indexSync;
	await sync.ensureLive();
	await sync.ensureHistory();
	// Right after a first load this only lists the folders again: nothing new to read.
	await sync.rescan(true);
}
