import { newId } from "./ids";
import type { Message, ResponseEnvelope } from "./message";
import { serialiseMessage } from "./message-serialise";
import { safeFileSegment } from "./paths";
import { iso } from "./stamps";

// The responses the router itself writes: an error response for a rejected message (rule 9) and a
// timeout response for a request nobody answered (rule 8). Their file names derive from the dead
// message's id, so writing one twice (after a crash) finds it already there.

/** The `source_group` of responses written by the router rather than by a group. */
export const ROUTER_SENDER = "a2a-relay";

/** Marks the responses the router writes itself: they report on a message, they do not answer it. */
export const GENERATED_BY_FIELD = "generated_by";

export interface RouterResponse {
	fileName: string;
	text: string;
	messageId: string;
}

export function routerResponse(options: {
	kind: "error" | "timeout";
	deadMessageId: string;
	traceId: string;
	sender: string;
	about: string;
	code: string;
	reason: string;
	deadLetterPath: string;
	now: number;
}): RouterResponse {
	const messageId = newId();
	const envelope: ResponseEnvelope = {
		kind: "response",
		message_id: messageId,
		trace_id: options.traceId,
		in_reply_to: options.deadMessageId,
		source_group: options.about,
		target_group: options.sender,
		status: options.kind === "error" ? "error" : "timeout",
		created: iso(options.now),
		error_code: options.code,
		error_message: options.reason,
		state: "delivered",
		delivered_at: iso(options.now),
	};
	const summary =
		options.kind === "error"
			? `Your message was not delivered: ${options.reason}. Fix it and send it again; the original is kept in the dead-letter folder.`
			: `Nobody answered in time: ${options.reason}.`;
	const message: Message = { envelope, payload: { answer: summary, dead_letter: `[[${options.deadLetterPath}]]` }, extra: { [GENERATED_BY_FIELD]: ROUTER_SENDER } };
	return { fileName: `${options.kind}-${safeFileSegment(options.deadMessageId)}.md`, text: serialiseMessage(message), messageId };
}
