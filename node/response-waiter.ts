import * as fs from "node:fs";
import type { IndexEntry } from "../src/core/message-index";
import { requestOutcome } from "../src/core/request-outcome";
import type { RequestOutcome } from "../src/core/request-outcome";
import type { Router } from "../src/router/router";

// `a2a wait` and `wait_for_response`: sleeps until the request's outcome is settled, without
// polling busily. Everything that settles a request lands in one of two folders: the requester's
// inbox (the target's answer, the router's timeout or error response) and the dead-letter folder
// (the request itself, given up on). Both are watched (inotify and its kin through fs.watch); each
// event re-reads only the file it names. A slow listing of the two folders catches what no event
// reported; when a folder cannot be watched the listing is the only way and runs more often.

export interface WaitOptions {
	/** Give up after this many milliseconds; null waits until the outcome is settled. */
	timeoutMs: number | null;
	signal?: AbortSignal;
	/** The absolute path of a vault path (the vault adapter's). */
	abs: (vaultPath: string) => string;
	/** How often to list the folders while they are watched (ms). */
	pollMs?: number;
	/** How often to list them when a folder cannot be watched (ms). */
	fallbackPollMs?: number;
}

export interface WaitCounts {
	/** Change events received from the file system. */
	events: number;
	/** Listings of the watched folders. */
	listings: number;
	/** Notes read again. */
	reads: number;
	/** True when every folder could be watched. */
	watched: boolean;
}

export interface WaitResult {
	outcome: RequestOutcome;
	counts: WaitCounts;
}

export const DEFAULT_POLL_MS = 1000;
export const FALLBACK_POLL_MS = 200;

export async function waitForOutcome(router: Router, request: IndexEntry, options: WaitOptions): Promise<WaitResult> {
	const id = request.messageId ?? "";
	const inbox = request.sourceGroup ? router.layout.box(request.sourceGroup, "inbox") : null;
	const folders = [...(inbox ? [inbox] : []), router.layout.deadLetterFolder];
	const counts: WaitCounts = { events: 0, listings: 0, reads: 0, watched: true };
	const changed = new Set<string>();
	// The first round lists both folders: a response may have landed before the watchers were set up.
	let listAll = true;
	let wake: (() => void) | null = null;
	const poke = () => {
		const w = wake;
		wake = null;
		w?.();
	};
	const watchers: fs.FSWatcher[] = [];
	for (const folder of folders) {
		try {
			const watcher = fs.watch(options.abs(folder), { persistent: true }, (_event, name) => {
				counts.events++;
				if (name === null) listAll = true;
				else changed.add(`${folder}/${name.toString()}`);
				poke();
			});
			watcher.on("error", () => {
				counts.watched = false;
				listAll = true;
				poke();
			});
			watchers.push(watcher);
		} catch {
			// A folder that does not exist yet, or a file system without change events.
			counts.watched = false;
		}
	}
	options.signal?.addEventListener("abort", poke);
	const deadline = options.timeoutMs === null ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
	const pollMs = () => (counts.watched ? (options.pollMs ?? DEFAULT_POLL_MS) : (options.fallbackPollMs ?? FALLBACK_POLL_MS));
	let nextListing = Date.now() + pollMs();
	let timer: NodeJS.Timeout | null = null;
	try {
		for (;;) {
			const paths = [...changed];
			changed.clear();
			let deadLetterSeen = false;
			const refresh = async (path: string) => {
				counts.reads++;
				const entry = await router.indexSync.refresh(path);
				if (entry?.location.area === "dead-letter" && entry.messageId === id) deadLetterSeen = true;
			};
			for (const path of paths) await refresh(path);
			if (listAll || Date.now() >= nextListing) {
				listAll = false;
				counts.listings++;
				for (const folder of folders) {
					for (const path of await router.port.list(folder)) if (!router.index.has(path)) await refresh(path);
				}
				nextListing = Date.now() + pollMs();
			}
			// A dead letter with the request's id counts only once no delivered copy of the request is
			// alive: the copies the index holds elsewhere (no folder of theirs is watched) are looked at again.
			if (deadLetterSeen) {
				for (const copy of router.index.withId(id)) if (copy.location.area === "box") await refresh(copy.path);
			}
			const outcome = requestOutcome(router.index, request);
			if (outcome.state !== "pending" || options.signal?.aborted || Date.now() >= deadline) return { outcome, counts };
			if (changed.size > 0 || listAll) continue;
			await new Promise<void>((resolve) => {
				wake = resolve;
				timer = setTimeout(poke, Math.max(0, Math.min(nextListing, deadline) - Date.now()));
			});
			if (timer) clearTimeout(timer);
			timer = null;
		}
	} finally {
		if (timer) clearTimeout(timer);
		for (const watcher of watchers) watcher.close();
		options.signal?.removeEventListener("abort", poke);
	}
}
