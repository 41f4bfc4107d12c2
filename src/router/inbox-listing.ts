import { unknownGroupReason } from "../core/group-reasons";
import { ignoreReason } from "../core/ignore";
import { entryFromRaw, isAwaitingAnswer } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { isMessagePath, readRawMessage } from "../core/message-parse";
import { sortForRouting } from "../core/priority";
import { MAX_NOTE_BYTES } from "../core/protocol";
import { isDeliveredResponse } from "../core/request-outcome";
import { outboxEntries } from "./message-lookup";
import { summaryOf } from "./message-view";
import type { MessageSummary } from "./message-view";
import { Refused } from "./refused";
import type { Router } from "./router";

// What waits for a group (`a2a inbox`, `list_inbox`): the requests delivered to it that it has not
// answered, highest priority first and then the oldest, and the responses to its own requests that
// it has not taken yet, oldest first. A request whose answer waits in the group's outbox for the
// router is answered already: it is not listed (an agent never answers it twice). Only the group's
// inbox and outbox folders are read, however large the rest of the vault is.

export const INBOX_KINDS = ["requests", "responses", "all"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export interface InboxListing {
	group: string;
	requests: MessageSummary[];
	responses: MessageSummary[];
}

/** The inbox folder of a group of the registry; refused with the router's words for any other id. */
export function inboxFolder(router: Router, group: string): string {
	const folder = router.layout.box(group, "inbox");
	if (folder === null) throw new Refused(`${unknownGroupReason(group, router.layout.groupIds())}`, "group");
	return folder;
}

export async function listInbox(router: Router, group: string, kind: InboxKind = "all"): Promise<InboxListing> {
	const folder = inboxFolder(router, group);
	const replied = new Set(kind === "responses" ? [] : (await outboxEntries(router, [group])).filter((e) => e.kind === "response" && e.inReplyTo).map((e) => e.inReplyTo as string));
	const requests: { entry: IndexEntry; summary: MessageSummary }[] = [];
	const responses: { entry: IndexEntry; summary: MessageSummary }[] = [];
	for (const path of await router.port.list(folder)) {
		if (ignoreReason(path) || !isMessagePath(path)) continue;
		// One that cannot be read is left out, and said once (the router's warning).
		const read = await router.indexSync.readWhole(path, { maxBytes: MAX_NOTE_BYTES });
		if (!read) continue;
		const parsed = readRawMessage(read.text, path);
		// A note that does not parse was not delivered by the router: it is on its way to the dead-letter folder.
		if (!parsed.ok) continue;
		const entry = entryFromRaw(path, router.layout.locate(path), parsed.raw);
		if (!entry.messageId) continue;
		if (kind !== "responses" && isAwaitingAnswer(entry)) {
			if (!replied.has(entry.messageId)) requests.push({ entry, summary: summaryOf(entry, parsed.raw.payload) });
		} else if (kind !== "requests" && isDeliveredResponse(entry) && entry.state !== "taken") responses.push({ entry, summary: summaryOf(entry, parsed.raw.payload) });
	}
	// Requests in routing order, responses in the order they were delivered.
	const sortedRequests = sortForRouting(requests, (r) => r.entry);
	const sortedResponses = sortForRouting(responses, (r) => ({ path: r.entry.path, created: r.entry.deliveredAt ?? r.entry.created }));
	return { group, requests: sortedRequests.map((r) => r.summary), responses: sortedResponses.map((r) => r.summary) };
}
