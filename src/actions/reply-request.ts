import { buildResponse, messageFileName } from "../core/compose";
import { isAwaitingAnswer } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { serialiseMessage } from "../core/message-serialise";
import { checkOutgoing, refusal } from "../core/outgoing";
import { refreshFolders, refreshIndex } from "../router/index-refresh";
import { checkedId, outboxEntries } from "../router/message-lookup";
import { Refused } from "../router/refused";
import type { Router } from "../router/router";
import { createUnderFreeName } from "./write-note";

// An agent answers a request delivered to its group (`a2a reply`, the MCP tool `reply`): the
// response (in_reply_to the request, the same trace) is checked the way the router will check it
// and written into the outbox of the group that holds the request. With `group`, the request must
// wait in that group's inbox: an agent answers only what was delivered to it.

export interface ReplyInput {
	/** The request's message_id. */
	messageId: string;
	status: string;
	answer?: string;
	artifacts?: string[];
	errorCode?: string;
	errorMessage?: string;
	/** The group that answers (the MCP server's); any group holding the request when absent (the CLI). */
	group?: string;
}

export interface SentReply {
	path: string;
	message_id: string;
	trace_id: string;
	in_reply_to: string;
}

const inInbox = (e: IndexEntry): boolean => e.kind === "request" && e.location.area === "box" && e.location.box === "inbox";
const inArchive = (e: IndexEntry): boolean => e.kind === "request" && e.location.area === "box" && e.location.box === "archive";

function waitingHint(router: Router, group?: string): string {
	const waiting = [...router.index.inboxes()].filter((e) => isAwaitingAnswer(e) && e.messageId && (group === undefined || e.targetGroup === group));
	if (waiting.length === 0) return group ? ` No request waits in ${group}'s inbox.` : " No request is waiting in any inbox.";
	const shown = waiting.slice(0, 10).map((e) => (group ? e.messageId : `${e.messageId} (${e.targetGroup})`));
	return ` Requests waiting${group ? ` in ${group}'s inbox` : " in inboxes"}: ${shown.join(", ")}`;
}

/** The request being answered: the copy in an inbox (else in an archive, for the router's own "already answered" words). */
function requestToAnswer(router: Router, id: string, group?: string): IndexEntry {
	const copies = router.index.withId(id);
	const request = copies.find(inInbox) ?? copies.find(inArchive);
	if (!request) throw new Refused(`no delivered request has message_id "${id}".${waitingHint(router, group)}`, "message_id");
	if (group !== undefined && request.targetGroup !== group) {
		throw new Refused(`request "${id}" was delivered to ${request.targetGroup ?? "another group"}, not to ${group}: a group answers only the requests in its own inbox.${waitingHint(router, group)}`, "message_id");
	}
	return request;
}

/**
 * Refused when the group already answered the request. The response is looked for where the router
 * carries it, in that order: the group's outbox (waiting), the requester's inbox (delivered), the
 * requester's archive (taken). Each is read from the disk now, so a response on its way from one to
 * the next is seen in one of them, however fresh the index is.
 */
async function checkNotAnswered(router: Router, request: IndexEntry, id: string): Promise<void> {
	const responder = request.targetGroup ?? "";
	const ours = (e: IndexEntry) => e.kind === "response" && e.inReplyTo === id && e.sourceGroup === responder;
	let found = (await outboxEntries(router, [responder])).find(ours);
	if (!found && request.sourceGroup) {
		const requester = request.sourceGroup;
		await refreshFolders(router, [router.layout.box(requester, "inbox"), router.layout.box(requester, "archive")].filter((f): f is string => f !== null));
		found = router.index.repliesTo(id).find((r) => ours(r) && !r.routerWritten && r.location.area === "box" && r.location.box !== "outbox");
	}
	if (found) throw new Refused(`${responder} already answered request "${id}" (response ${found.messageId ?? "?"}, at ${found.path}): answer each request once`, "message_id");
}

export async function replyToRequest(router: Router, input: ReplyInput): Promise<SentReply> {
	const id = checkedId(input.messageId);
	if (input.status !== "success" && input.status !== "error") throw new Refused(`must be success or error, got "${input.status.slice(0, 40)}"`, "status");
	const artifacts = (input.artifacts ?? []).filter((a) => a.trim() !== "");
	if ((input.answer ?? "").trim() === "" && artifacts.length === 0 && (input.errorMessage ?? "").trim() === "") {
		throw new Refused(input.status === "error" ? "say what went wrong" : "write the answer (or give artifacts)", "answer");
	}
	await refreshIndex(router);
	// A request delivered a moment ago may not be indexed yet by a cheap refresh: look at everything then.
	if (!router.index.withId(id).some((e) => e.kind === "request")) await refreshIndex(router, { thorough: true });
	const request = requestToAnswer(router, id, input.group);
	const now = router.now();
	const message = buildResponse({ request, status: input.status, answer: input.answer, artifacts, errorCode: input.errorCode, errorMessage: input.errorMessage }, now);
	const responder = message.envelope.source_group;
	const folder = router.layout.box(responder, "outbox");
	if (!folder) throw new Refused(`the answering group "${responder}" is not in the registry`, "message_id");
	const text = serialiseMessage(message);
	const check = checkOutgoing(text, responder, router.context());
	const refused = refusal(check);
	if (refused !== null) throw new Refused(refused);
	// After the router's own check, so that both front ends refuse a routed answer with the router's words.
	await checkNotAnswered(router, request, id);
	const path = await createUnderFreeName(router.port, folder, messageFileName(message, now), text);
	const env = message.envelope;
	return { path, message_id: env.message_id as string, trace_id: env.trace_id, in_reply_to: env.in_reply_to as string };
}
