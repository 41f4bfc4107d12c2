import type { IndexEntry, MessageIndex } from "./message-index";
import { ROUTER_SENDER } from "./protocol";

// Where a request stands for the group that sent it (`a2a wait`, `wait_for_response`, `a2a take`):
// answered by its target, timed out or rejected by the router, or still pending. Read from the index
// alone. A message_id is only a name any note may carry: what settles request R is what the router
// carried into R's sender's inbox in reply to R, from R's target or from the router itself, and R's
// own dead letter (R's sender and trace); a note of another group that reuses R's id, or answers R
// without holding it, settles nothing.

export const REQUEST_OUTCOMES = ["answered", "timed_out", "rejected", "pending"] as const;
export type RequestOutcomeName = (typeof REQUEST_OUTCOMES)[number];

export interface RequestOutcome {
	state: RequestOutcomeName;
	/** The response that settles it: the target's answer, or the router's timeout or error response. */
	response?: IndexEntry;
	/** The request's dead letter, when the router gave up on it. */
	deadLetter?: IndexEntry;
}

/** A response the router carried to its requester: in an inbox (waiting to be taken) or an archive (taken). */
export function isDeliveredResponse(entry: IndexEntry): boolean {
	return entry.kind === "response" && entry.location.area === "box" && entry.location.box !== "outbox" && entry.deliveredAt !== undefined;
}

/** A response the router wrote itself (an error or timeout response): from `a2a-relay`, marked generated_by it. */
export function isRouterResponse(entry: IndexEntry): boolean {
	return entry.routerWritten === true && entry.sourceGroup === ROUTER_SENDER;
}

/** A copy of `request` itself: the same message_id, sender and trace (not another note reusing its id). */
export function isCopyOfRequest(entry: IndexEntry, request: IndexEntry): boolean {
	return entry.kind === "request" && entry.messageId === request.messageId && entry.sourceGroup === request.sourceGroup && entry.traceId === request.traceId;
}

/** The group whose inbox or archive holds a delivered response, or null. */
function holderOf(entry: IndexEntry): string | null {
	return entry.location.area === "box" && entry.location.box !== "outbox" ? entry.location.group : null;
}

/**
 * True when `response` settles `request` for its sender: delivered into the sender's inbox or
 * archive, in reply to it, and written by the request's target (an answer) or by the router.
 */
export function settles(response: IndexEntry, request: IndexEntry): boolean {
	if (!isDeliveredResponse(response) || request.messageId === undefined || response.inReplyTo !== request.messageId) return false;
	if (request.sourceGroup === undefined || holderOf(response) !== request.sourceGroup) return false;
	if (isRouterResponse(response)) return true;
	return response.routerWritten !== true && response.sourceGroup !== undefined && response.sourceGroup === request.targetGroup;
}

/**
 * True when a delivered response is where it belongs: the router's own response in the inbox of the
 * group it is addressed to, or an answer that settles a request its holder sent.
 */
export function isOwnResponse(index: MessageIndex, response: IndexEntry): boolean {
	if (!isDeliveredResponse(response)) return false;
	if (isRouterResponse(response)) return response.targetGroup === holderOf(response);
	if (response.inReplyTo === undefined) return false;
	return index.withId(response.inReplyTo).some((request) => request.kind === "request" && settles(response, request));
}

const byDelivery = (a: IndexEntry, b: IndexEntry): number => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? -1 : (a.deliveredAt ?? "") > (b.deliveredAt ?? "") ? 1 : 0);

/** Every delivered response that settles `request`, oldest delivery first. */
export function responsesSettling(index: MessageIndex, request: IndexEntry): IndexEntry[] {
	if (request.messageId === undefined) return [];
	return index
		.repliesTo(request.messageId)
		.filter((r) => settles(r, request))
		.sort(byDelivery);
}

/** The target's answer to `request` (in time or late) that the router delivered, if any: a request has one. */
export function answerOf(index: MessageIndex, request: IndexEntry): IndexEntry | undefined {
	return responsesSettling(index, request).find((r) => !isRouterResponse(r));
}

/** A copy of the request that reached its target and is neither answered away nor given up: it still counts as alive. */
function isLiveDelivery(entry: IndexEntry): boolean {
	return entry.location.area === "box" && entry.location.box !== "outbox" && entry.deliveredAt !== undefined && entry.state !== "timed_out";
}

/**
 * The request's own dead letter: a copy of it (its sender and trace) in the dead-letter folder, not
 * a duplicate's. While a delivered copy of the request is alive (in an inbox or an archive) only a
 * timeout (or a cancel) counts: a dead letter stamped `dead` with the request's id is then some other note's.
 */
export function deadLetterOf(index: MessageIndex, request: IndexEntry): IndexEntry | undefined {
	if (request.messageId === undefined) return undefined;
	const copies = index.withId(request.messageId).filter((e) => isCopyOfRequest(e, request));
	const alive = copies.some(isLiveDelivery);
	const givenUp = (e: IndexEntry) => e.state === "timed_out" || e.errorCode === "CANCELED";
	return copies.find((e) => e.location.area === "dead-letter" && e.errorCode !== "DUPLICATE" && (!alive || givenUp(e)));
}

/**
 * The outcome of `request` (a copy of it: its id, sender, target and trace are what count). An
 * answer from the target wins (even a late one); else the router's timeout or error response; else
 * the request's own dead letter; else it is pending.
 */
export function requestOutcome(index: MessageIndex, request: IndexEntry): RequestOutcome {
	const responses = responsesSettling(index, request);
	const answer = responses.find((r) => !isRouterResponse(r));
	if (answer) return { state: "answered", response: answer };
	const deadLetter = deadLetterOf(index, request);
	const fromRouter = responses.find(isRouterResponse);
	if (fromRouter) return { state: fromRouter.status === "timeout" ? "timed_out" : "rejected", response: fromRouter, deadLetter };
	if (deadLetter) return { state: deadLetter.state === "timed_out" ? "timed_out" : "rejected", deadLetter };
	return { state: "pending" };
}
