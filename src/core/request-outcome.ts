import type { IndexEntry, MessageIndex } from "./message-index";

// Where a request stands for the group that sent it (`a2a wait`, `wait_for_response`): answered by
// its target, timed out or rejected by the router, or still pending. Read from the index alone.

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

const byDelivery = (a: IndexEntry, b: IndexEntry): number => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? -1 : (a.deliveredAt ?? "") > (b.deliveredAt ?? "") ? 1 : 0);

/**
 * The outcome of request `requestId`. An answer from the target wins (even a late one); else the
 * router's timeout or error response; else the request's own dead letter (a duplicate's dead letter
 * says nothing about the original and is not looked at); else it is pending.
 */
export function requestOutcome(index: MessageIndex, requestId: string): RequestOutcome {
	const responses = index.repliesTo(requestId).filter(isDeliveredResponse).sort(byDelivery);
	const answer = responses.find((r) => !r.routerWritten);
	if (answer) return { state: "answered", response: answer };
	const deadLetter = index.withId(requestId).find((e) => e.kind === "request" && e.location.area === "dead-letter" && e.errorCode !== "DUPLICATE");
	const fromRouter = responses.find((r) => r.routerWritten);
	if (fromRouter) return { state: fromRouter.status === "timeout" ? "timed_out" : "rejected", response: fromRouter, deadLetter };
	if (deadLetter) return { state: deadLetter.state === "timed_out" ? "timed_out" : "rejected", deadLetter };
	return { state: "pending" };
}
