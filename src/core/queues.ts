import type { VaultLayout } from "./layout";
import type { MessageIndex } from "./message-index";
import { parseTime } from "./time";

// Per-group message counts for the sidebar and `a2a status`.

export interface GroupQueue {
	group: string;
	inbox: number;
	outbox: number;
	archive: number;
	/** Requests this group sent that are delivered and not answered yet. */
	inFlight: number;
	/** Of those, the ones past their expires_at. */
	overdue: number;
}

export interface QueueSummary {
	groups: GroupQueue[];
	deadLetters: number;
}

export function queueSummary(index: MessageIndex, layout: VaultLayout, now: number): QueueSummary {
	const groups = new Map<string, GroupQueue>();
	for (const id of layout.groupIds()) groups.set(id, { group: id, inbox: 0, outbox: 0, archive: 0, inFlight: 0, overdue: 0 });
	let deadLetters = 0;
	for (const entry of index.all()) {
		const loc = entry.location;
		if (loc.area === "dead-letter") {
			deadLetters++;
			continue;
		}
		if (loc.area !== "box") continue;
		const queue = groups.get(loc.group);
		if (queue) queue[loc.box]++;
		if (loc.box === "inbox" && entry.kind === "request" && (entry.state === "delivered" || entry.state === "retrying") && entry.sourceGroup) {
			const sender = groups.get(entry.sourceGroup);
			if (!sender) continue;
			sender.inFlight++;
			const expires = parseTime(entry.expiresAt);
			if (!Number.isNaN(expires) && expires <= now) sender.overdue++;
		}
	}
	return { groups: [...groups.values()], deadLetters };
}
