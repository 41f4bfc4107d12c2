import { isAcceptableMessageId } from "../core/ids";
import { ignoreReason } from "../core/ignore";
import { entryFromRaw } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { isMessagePath, readRawMessage } from "../core/message-parse";
import { MAX_FRONTMATTER_BYTES, MAX_NOTE_BYTES } from "../core/protocol";
import { oneLine } from "../core/text";
import { refreshIndex } from "./index-refresh";
import { detailOf } from "./message-view";
import type { MessageDetail } from "./message-view";
import { Refused } from "./refused";
import type { Router } from "./router";
import { readable } from "./visibility";
import type { Reader } from "./visibility";

// Finding a message by its message_id wherever it is now: an inbox, an archive, the dead-letter
// folder (through the router's index) or still in an outbox (read on demand: the index only counts
// outbox notes until the router routes them). With a reader (the group an MCP server speaks for),
// only the copies that group may read are found (src/router/visibility.ts): another pair's message
// is "not found", in the very words of an unknown id.

/** A message_id given by a caller, checked before it is looked for (it may be anything an agent typed). */
export function checkedId(id: string, field = "message_id"): string {
	if (isAcceptableMessageId(id)) return id;
	throw new Refused(`${JSON.stringify(oneLine(id, 60))} is not a message_id (1 to 128 printable characters, no line breaks or edge spaces): copy the id from the inbox listing or from what send returned`, field);
}

/** The notes waiting in outboxes (all groups', or one group's), read into entries the index does not hold. */
export function outboxEntries(router: Router, groups = router.layout.groupIds()): Promise<IndexEntry[]> {
	return boxEntries(router, "outbox", groups);
}

/** The notes of one box of some groups as they are on disk now (the index may lag behind a change of a moment ago). */
export async function boxEntries(router: Router, box: "inbox" | "outbox", groups: string[]): Promise<IndexEntry[]> {
	const out: IndexEntry[] = [];
	for (const group of groups) {
		const folder = router.layout.box(group, box);
		if (folder === null) continue;
		for (const path of await router.port.list(folder)) {
			if (ignoreReason(path) || !isMessagePath(path)) continue;
			const read = await router.port.read(path, { maxBytes: 4 * MAX_FRONTMATTER_BYTES });
			const parsed = read ? readRawMessage(read.text, path, false) : null;
			if (parsed?.ok) out.push(entryFromRaw(path, router.layout.locate(path), parsed.raw));
		}
	}
	return out;
}

function rank(entry: IndexEntry): number {
	const loc = entry.location;
	// A note in an inbox or an archive without the router's delivered_at was not put there by the router.
	if (loc.area === "box" && loc.box !== "outbox" && entry.deliveredAt === undefined) return 6;
	if (loc.area === "box") return loc.box === "inbox" ? 0 : loc.box === "archive" ? 1 : 2;
	if (loc.area === "dead-letter") return entry.errorCode === "DUPLICATE" ? 4 : 3;
	return 5;
}

/**
 * Every copy of message `id`, the one that stands for it first: in an inbox, an archive, an
 * outbox, the dead-letter folder, then a duplicate's dead letter, and last a note in an inbox or
 * an archive that the router did not deliver there. Refreshes the index first. With `reader`, only
 * the copies that group may read.
 */
export async function copiesOf(router: Router, id: string, reader?: Reader): Promise<IndexEntry[]> {
	const indexed = () => readable(router.index.withId(id).filter((e) => e.kind !== null), reader);
	await refreshIndex(router);
	let copies = indexed();
	if (copies.length === 0) copies = readable((await outboxEntries(router)).filter((e) => e.messageId === id && e.kind !== null), reader);
	if (copies.length === 0) {
		// The router may have carried it out of its outbox between the two looks: look at everything again.
		await refreshIndex(router, { thorough: true });
		copies = indexed();
	}
	return copies.sort((a, b) => rank(a) - rank(b));
}

export function unknownId(id: string, field = "message_id"): Refused {
	return new Refused(`no message with message_id "${id}" is in the relay: check the id (the inbox listing shows the ids waiting for a group, send shows the id of a new request)`, field);
}

/** The copy of a message that stands for it; refused when the relay holds none (that `reader` may read). */
export async function findMessage(router: Router, id: string, reader?: Reader): Promise<IndexEntry> {
	const [best] = await copiesOf(router, checkedId(id), reader);
	if (!best) throw unknownId(id);
	return best;
}

/** One message whole: envelope fields, payload by section, where it is; with `reader`, only one that group may read. */
export async function readMessage(router: Router, id: string, reader?: Reader): Promise<MessageDetail> {
	const entry = await findMessage(router, id, reader);
	const read = await router.port.read(entry.path, { maxBytes: MAX_NOTE_BYTES });
	const parsed = read ? readRawMessage(read.text, entry.path) : null;
	if (!parsed) throw new Refused(`message "${id}" moved while it was being read (it was at ${entry.path}): ask again`, "message_id");
	if (!parsed.ok) throw new Refused(`message "${id}" at ${entry.path} cannot be read: ${parsed.reason}`, "message_id");
	const detail = detailOf(entry.path, entry.location, parsed.raw);
	// Only a dead letter can be larger than a message may be (rule 3): it is shown cut.
	if (read?.truncated) detail.truncated = true;
	return detail;
}

/** The copy of request `id` that stands for it among `copies` (best first); with `group`, of a request that group sent. */
export function requestAmong(copies: IndexEntry[], group?: string): IndexEntry | undefined {
	return copies.find((e) => e.kind === "request" && (group === undefined || e.sourceGroup === group));
}

/**
 * A request by its message_id; with `group`, one that this group sent (without it, the request's
 * own note says who sent it: the best copy's source_group). Refused for an unknown id, a response,
 * or another group's request; with `group`, a message that group may not read is an unknown id.
 */
export async function findRequest(router: Router, id: string, group?: string): Promise<IndexEntry> {
	const copies = await copiesOf(router, checkedId(id), group);
	const request = requestAmong(copies, group);
	if (request) return request;
	const other = requestAmong(copies);
	if (other) throw new Refused(`request "${id}" was sent by ${other.sourceGroup ?? "another group"}, not by ${group ?? "?"}: only its sender waits for its answer`, "message_id");
	if (copies.length > 0) throw new Refused(`message "${id}" is a response, not a request: give the message_id of the request it answers (its in_reply_to${copies[0].inReplyTo ? `, "${copies[0].inReplyTo}"` : ""})`, "message_id");
	throw unknownId(id);
}
