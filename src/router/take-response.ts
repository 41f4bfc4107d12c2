import type { IndexEntry } from "../core/message-index";
import { basename } from "../core/paths";
import { isOwnResponse, responsesSettling } from "../core/request-outcome";
import { stampNoteText, stampTaken } from "../core/stamps";
import { refreshIndex } from "./index-refresh";
import { checkedId, copiesOf, requestAmong, unknownId } from "./message-lookup";
import { Refused } from "./refused";
import type { Router } from "./router";

// `a2a take` and `take_response`: the requester has read a response and takes it out of its inbox.
// The response is stamped `state: taken` where it is (only if it is still the note that was read),
// then moved to the requester's archive under a free name (never over another note). Given a
// request's id, every response to it that waits in the inbox is taken (an answer that came late
// after the router's timeout response, too). Taking what is already taken changes nothing. Only a
// response that settles a request of the group holding it is taken (src/core/request-outcome.ts):
// a note of another group that reuses an id, or answers a request it never held, is not.

export interface TakenResponse {
	message_id: string;
	in_reply_to: string | null;
	/** Where the response is now: the requester's archive. */
	path: string;
}

export interface TakeResult {
	/** The path of the (first) response taken: in the requester's archive. */
	path: string;
	taken: TakenResponse[];
	/** True when everything named was taken before this call. */
	already_taken: boolean;
}

/** The group whose `box` holds the entry, or null. */
function holder(e: IndexEntry, box: "inbox" | "archive"): string | null {
	return e.location.area === "box" && e.location.box === box ? e.location.group : null;
}

const heldBy = (e: IndexEntry, box: "inbox" | "archive", group?: string): boolean => {
	const owner = holder(e, box);
	return owner !== null && (group === undefined || owner === group);
};

/**
 * The responses `id` names: the response itself, or those that settle the request `id` (the one
 * `group` sent; without `group`, the one its best copy says sent it).
 */
function responsesNamed(router: Router, id: string, copies: IndexEntry[], group?: string): IndexEntry[] {
	const own = copies.filter((e) => e.kind === "response" && isOwnResponse(router.index, e));
	if (own.length > 0) return own;
	const request = requestAmong(copies, group);
	return request ? responsesSettling(router.index, request) : [];
}

async function takeOne(router: Router, response: IndexEntry): Promise<TakenResponse> {
	const archive = router.layout.archiveFolder(holder(response, "inbox") ?? "", new Date(router.now()));
	const read = await router.port.read(response.path);
	if (!read || archive === null) throw new Refused(`the response at ${response.path} moved while it was being taken: look at the inbox again`, "message_id");
	const stamped = stampNoteText(read.text, response.path, "flat", stampTaken);
	if ((await router.port.replace(response.path, stamped.text, read)) !== "done") {
		throw new Refused(`the response at ${response.path} changed while it was being taken: take it again`, "message_id");
	}
	const id = response.messageId ?? basename(response.path);
	const dest = await router.writerMove(response.path, archive, basename(response.path), id);
	router.indexSync.remove(response.path);
	if (dest === null) throw new Refused(`the response at ${response.path} was moved by someone else while it was being taken`, "message_id");
	await router.indexSync.refresh(dest);
	return { message_id: id, in_reply_to: response.inReplyTo ?? null, path: dest };
}

/** Takes the response `id` names (its own id or its request's); with `group`, only from that group's inbox. */
export async function takeResponse(router: Router, id: string, group?: string): Promise<TakeResult> {
	let copies = await copiesOf(router, checkedId(id));
	let named = responsesNamed(router, id, copies, group);
	if (named.length === 0 && copies.some((e) => e.kind === "response")) {
		// The request it answers may be moving between the router's folders (answered, archived): look at everything again.
		await refreshIndex(router, { thorough: true });
		copies = await copiesOf(router, id);
		named = responsesNamed(router, id, copies, group);
	}
	const waiting = named.filter((e) => heldBy(e, "inbox", group));
	if (waiting.length > 0) {
		const taken: TakenResponse[] = [];
		for (const response of waiting) taken.push(await takeOne(router, response));
		return { path: taken[0].path, taken, already_taken: false };
	}
	const done = named.filter((e) => heldBy(e, "archive", group) && e.state === "taken");
	if (done.length > 0) {
		const taken = done.map((e) => ({ message_id: e.messageId ?? basename(e.path), in_reply_to: e.inReplyTo ?? null, path: e.path }));
		return { path: taken[0].path, taken, already_taken: true };
	}
	if (named.length > 0) {
		const owner = holder(named[0], "inbox") ?? holder(named[0], "archive") ?? "another group";
		throw new Refused(`the response "${id}" names is for ${owner}, not for ${group ?? "?"}: only the group that sent the request takes its answer`, "message_id");
	}
	const request = requestAmong(copies, group);
	const others = requestAmong(copies);
	if (!request && others) {
		throw new Refused(`request "${id}" was sent by ${others.sourceGroup ?? "another group"}, not by ${group ?? "?"}: only the group that sent the request takes its answer`, "message_id");
	}
	if (request) {
		throw new Refused(`no response to request "${id}" has arrived yet: wait for it first (wait_for_response, or a2a wait --message ${id}), then take it`, "message_id");
	}
	if (copies.length > 0) throw new Refused(`message "${id}" is not a delivered response or a request: nothing to take`, "message_id");
	throw unknownId(id);
}
