import type { IndexEntry } from "../core/message-index";
import { readRawMessage } from "../core/message-parse";
import { MAX_NOTE_BYTES } from "../core/protocol";
import { isCopyOfRequest, requestOutcome } from "../core/request-outcome";
import type { RequestOutcome, RequestOutcomeName } from "../core/request-outcome";
import { copiesOf, readMessage } from "./message-lookup";
import { detailOf, placeOf } from "./message-view";
import type { MessageDetail, Place } from "./message-view";
import type { Router } from "./router";

// The state of a request as its sender sees it (`a2a wait`, `wait_for_response`): answered,
// timed_out, rejected or pending, with the response that settles it read whole.

export interface RequestState {
	state: RequestOutcomeName;
	/** The request's message_id. */
	message_id: string;
	trace_id: string | null;
	target_group: string | null;
	/** Where the request is now. */
	request: Place;
	/** The target's answer, or the router's timeout or error response (envelope and payload). */
	response?: MessageDetail;
	/** The request's dead letter, when the router gave up on it. */
	dead_letter?: Place;
}

/** A message read where the index says it is; null when it is no longer there. */
async function readAt(router: Router, entry: IndexEntry): Promise<MessageDetail | null> {
	const read = await router.port.read(entry.path, { maxBytes: MAX_NOTE_BYTES });
	const parsed = read ? readRawMessage(read.text, entry.path) : null;
	return parsed?.ok ? detailOf(entry.path, entry.location, parsed.raw) : null;
}

/** The view of an outcome already worked out from the index; reads the response note. */
export async function describeOutcome(router: Router, request: IndexEntry, found: RequestOutcome): Promise<RequestState> {
	const id = request.messageId ?? "";
	// Where the request is now (it has moved since it was found, most likely): its best copy, read afresh,
	// and the outcome worked out again from that same look (a request only ever moves on).
	const now = (await copiesOf(router, id)).find((e) => isCopyOfRequest(e, request));
	const again = requestOutcome(router.index, request);
	const outcome = again.state !== "pending" ? again : found;
	const view: RequestState = {
		state: outcome.state,
		message_id: id,
		trace_id: request.traceId ?? null,
		target_group: request.targetGroup ?? null,
		request: placeOf(request.path, request.location),
	};
	if (now) view.request = placeOf(now.path, now.location);
	if (outcome.deadLetter) view.dead_letter = placeOf(outcome.deadLetter.path, outcome.deadLetter.location);
	if (outcome.response) view.response = (await readAt(router, outcome.response)) ?? (await readMessage(router, outcome.response.messageId ?? ""));
	return view;
}
