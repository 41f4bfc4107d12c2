import type { VaultLayout } from "./layout";
import type { MessageIndex } from "./message-index";
import { hasExpired, isInFlightState } from "./message-index";

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
	/** Requests in this group's inbox that the router forwarded to the group's remote agent (a `url:` group) and that wait for its answer. */
	forwarded: number;
}

export interface QueueSummary {
	groups: GroupQueue[];
	deadLetters: number;
}

/** The counts from the index's running tallies and its inbox entries: no walk over the history. */
export function queueSummary(index: MessageIndex, layout: VaultLayout, now: number): QueueSummary {
	const groups = new Map<string, GroupQueue>();
	for (const id of layout.groupIds()) groups.set(id, { group: id, inbox: index.countIn(id, "inbox"), outbox: index.countIn(id, "outbox"), archive: index.countIn(id, "archive"), inFlight: 0, overdue: 0, forwarded: 0 });
	for (const entry of index.inboxes()) {
		// A request forwarded to a remote agent is in flight too, until its answer comes back.
		if (entry.kind !== "request" || !isInFlightState(entry.state) || !entry.sourceGroup) continue;
		const holder = entry.location.area === "box" ? groups.get(entry.location.group) : undefined;
		if (holder && entry.state === "forwarded") holder.forwarded++;
		const sender = groups.get(entry.sourceGroup);
		if (!sender) continue;
		sender.inFlight++;
		if (hasExpired(entry, now)) sender.overdue++;
	}
	return { groups: [...groups.values()], deadLetters: index.countIn() };
}
