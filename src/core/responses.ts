import { fitBytes } from "./file-names";
import { shortHash } from "./hash";
import type { Message, ResponseEnvelope } from "./message";
import { serialiseMessage } from "./message-serialise";
import { basename, linkByName, safeFileSegment } from "./paths";
import { ROUTER_SENDER } from "./protocol";
import { uuidFromText } from "./hash";
import { iso } from "./time";

// The responses the router itself writes (contract v2, rule 7): an error response for a rejected
// message (rule 9) and a timeout response for a request nobody answered (rule 8). They come from
// `a2a-relay`, never from the peer, and name the dead message in in_reply_to. Their names and ids
// derive from what they report on: writing one again after an interruption finds it already there,
// while a corrected note that is rejected again gets a response of its own.

export { ROUTER_SENDER };

/** Marks the responses the router writes itself: they report on a message, they do not answer it. */
export const GENERATED_BY_FIELD = "generated_by";

export interface RouterResponse {
	fileName: string;
	text: string;
	messageId: string;
}

export interface RouterResponseInput {
	kind: "error" | "timeout";
	/** The message_id of the rejected or timed-out message. */
	deadMessageId: string;
	traceId: string;
	/** The group the response goes to (the sender of the dead message). */
	sender: string;
	/** The group the dead message was addressed to, when known. */
	intendedTarget?: string;
	code: string;
	reason: string;
	deadLetterPath: string;
	/** What makes this rejection this one: the rejected note's text (a corrected note gets a new response). */
	occasion: string;
	now: number;
}

export function routerResponse(input: RouterResponseInput): RouterResponse {
	const key = `${input.kind}\n${input.deadMessageId}\n${input.code}\n${input.occasion}`;
	const messageId = uuidFromText(`router-response\n${key}`);
	const envelope: ResponseEnvelope = {
		kind: "response",
		message_id: messageId,
		trace_id: input.traceId,
		in_reply_to: input.deadMessageId,
		source_group: ROUTER_SENDER,
		target_group: input.sender,
		status: input.kind === "error" ? "error" : "timeout",
		created: iso(input.now),
		error_code: input.code,
		error_message: input.reason,
		state: "delivered",
		delivered_at: iso(input.now),
	};
	const to = input.intendedTarget ? ` to ${input.intendedTarget}` : "";
	const summary =
		input.kind === "error"
			? `Your message${to} was not delivered: ${input.reason}. Fix it and send it again; the original is kept in the dead-letter folder.`
			: `Nobody answered your request${to} in time: ${input.reason}.`;
	const message: Message = { envelope, payload: { answer: summary, dead_letter: linkByName(input.deadLetterPath) ?? basename(input.deadLetterPath) }, extra: { [GENERATED_BY_FIELD]: ROUTER_SENDER } };
	const idPart = fitBytes(safeFileSegment(input.deadMessageId), 100);
	return { fileName: `${input.kind}-${idPart}-${shortHash(key, 10)}.md`, text: serialiseMessage(message), messageId };
}
