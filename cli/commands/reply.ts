import { replyToRequest } from "../../src/actions/reply-request";
import { many, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const REPLY_HELP = `Usage: a2a reply --message ID --status success|error --answer T [--artifact PATH]...
                 [--error-code CODE] [--vault DIR] [--root NAME] [--json]

Answers the request with message_id ID: writes the response (in_reply_to ID, the same trace_id)
into the outbox of the group whose inbox holds the request, in one atomic step. The router then
delivers it to the requester and archives the request.`;

export async function runReply(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const session = await openSession(args, io);
	checkRegistry(session);
	const sent = await replyToRequest(session.router, {
		messageId: required(args, "message", "the message_id of the request you answer"),
		status: required(args, "status", "success or error"),
		answer: required(args, "answer", "the text of your answer"),
		artifacts: many(args, "artifact"),
		errorCode: one(args, "error-code"),
	});
	if (session.json) io.out(JSON.stringify(sent));
	else io.out(`${sent.path}\nmessage_id: ${sent.message_id}\ntrace_id: ${sent.trace_id}\nin_reply_to: ${sent.in_reply_to}`);
	return 0;
}
