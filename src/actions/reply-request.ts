import { buildResponse, messageFileName } from "../core/compose";
import { answerStatusReason, emptyAnswerReason, isAnswerStatus } from "../core/content-reasons";
import { unknownGroupReason } from "../core/group-reasons";
import { isAwaitingAnswer } from "../core/message-index";
import { alreadyAnsweredReason, requestAnswered } from "../core/routing";
import type { IndexEntry } from "../core/message-index";
import { serialiseMessage } from "../core/message-serialise";
import { checkOutgoing, refusal } from "../core/outgoing";
import { refreshFolders, refreshIndex } from "../router/index-refresh";
import { checkedId, outboxEntries } from "../router/message-lookup";
import { Refused } from "../router/refused";
import type { Router } from "../router/router";
import { createUnderFreeName } from "../router/free-names";

// An agent answers a request delivered to its group (`a2a reply`, the MCP tool `reply`): the
// response (in_reply_to the request, the same trace) is checked the way the router will check it
// and written into the outbox of the group that holds the request. The request is the one the
// router will take the response for, so both refuse alike: a late answer to a timed-out request is
// written, a second answer is not. With `group`, the request must have been delivered to that
// group: an agent answers only what was delivered to it.

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

function waitingHint(router: Router, group?: string): string {
	const waiting = [...router.index.inboxes()].filter((e) => isAwaitingAnswer(e) && e.messageId && (group === undefined || e.targetGroup === group));
	if (waiting.length === 0) return group ? ` No request waits in ${group}'s inbox.` : " No request is waiting in any inbox.";
	const shown = waiting.slice(0, 10).map((e) => (group ? e.messageId : `${e.messageId} (${e.targetGroup})`));
	return ` Requests waiting${group ? ` in ${group}'s inbox` : " in inboxes"}: ${shown.join(", ")}`;
}

/**
 * The request being answered: the one the router will take the response for (rule 7, by
 * in_reply_to): waiting in an inbox, answered in an archive, or a dead letter (a late answer to a
 * timed-out request is delivered; anything else there is refused by the router's own words).
 */
function requestToAnswer(router: Router, id: string, group?: string): IndexEntry {
	const request = requestAnswered(router.index, { in_reply_to: id });
	if (!request) throw new Refused(`no delivered request has message_id "${id}".${waitingHint(router, group)}`, "message_id");
	if (group !== undefined && request.targetGroup !== group) {
		throw new Refused(`request "${id}" was delivered to ${request.targetGroup ?? "another group"}, not to ${group}: a group answers only the requests in its own inbox.${waitingHint(router, group)}`, "message_id");
	}
	return request;
}

/**
 * An answer of the responder's that waits in its outbox: the router has not seen it yet, and will
 * refuse this second answer once it delivers the first. Read from the disk now.
 */
async function pendingAnswer(router: Router, request: IndexEntry, id: string): Promise<IndexEntry | undefined> {
	const responder = request.targetGroup ?? "";
	return (await outboxEntries(router, [responder])).find((e) => e.kind === "response" && e.inReplyTo === id && e.sourceGroup === responder);
}

export async function replyToRequest(router: Router, input: ReplyInput): Promise<SentReply> {
	const id = checkedId(input.messageId);
	if (!isAnswerStatus(input.status)) throw new Refused(answerStatusReason(input.status), "status");
	const artifacts = (input.artifacts ?? []).filter((a) => a.trim() !== "");
	if ((input.answer ?? "").trim() === "" && artifacts.length === 0 && (input.errorMessage ?? "").trim() === "") {
		throw new Refused(emptyAnswerReason(input.status), "answer");
	}
	await refreshIndex(router);
	// A request delivered a moment ago may not be indexed yet by a cheap refresh: look at everything then.
	if (!router.index.withId(id).some((e) => e.kind === "request")) await refreshIndex(router, { thorough: true });
	const request = requestToAnswer(router, id, input.group);
	const now = router.now();
	const message = buildResponse({ request, status: input.status, answer: input.answer, artifacts, errorCode: input.errorCode, errorMessage: input.errorMessage }, now);
	const responder = message.envelope.source_group;
	const folder = router.layout.box(responder, "outbox");
	if (!folder) throw new Refused(unknownGroupReason(responder, router.layout.groupIds()), "message_id");
	const text = serialiseMessage(message);
	// The requester's inbox and archive as they are now: an answer delivered a moment ago is seen by the router's check.
	if (request.sourceGroup) {
		const inbox = router.layout.box(request.sourceGroup, "inbox");
		await refreshFolders(router, [...(inbox === null ? [] : [inbox]), ...(await router.indexSync.archiveFolders(request.sourceGroup))]);
	}
	const refused = refusal(checkOutgoing(text, responder, router.context()));
	if (refused !== null) throw new Refused(refused);
	const pending = await pendingAnswer(router, request, id);
	if (pending) {
		throw new Refused(`the router would reject it (INVALID_MESSAGE): ${alreadyAnsweredReason(id)} (response ${pending.messageId ?? "?"} waits in ${responder}'s outbox: ${pending.path})`, "message_id");
	}
	const path = await createUnderFreeName(router.port, folder, messageFileName(message, now), text);
	const env = message.envelope;
	return { path, message_id: env.message_id as string, trace_id: env.trace_id, in_reply_to: env.in_reply_to as string };
}
