import { buildResponse, messageFileName } from "../../src/core/compose";
import { serialiseMessage } from "../../src/core/message-serialise";
import { checkOutgoing, refusal } from "../../src/core/outgoing";
import { UsageError, many, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";
import { createUnderFreeName } from "../../src/actions/write-note";

export const REPLY_HELP = `Usage: a2a reply --message ID --status success|error --answer T [--artifact PATH]...
                 [--error-code CODE] [--vault DIR] [--root NAME] [--json]

Answers the request with message_id ID: writes the response (in_reply_to ID, the same trace_id)
into the outbox of the group whose inbox holds the request, in one atomic step. The router then
delivers it to the requester and archives the request.`;

export async function runReply(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const session = await openSession(args, io);
	checkRegistry(session);
	const { router, vault } = session;
	const id = required(args, "message", "the message_id of the request you answer");
	const status = required(args, "status", "success or error");
	if (status !== "success" && status !== "error") throw new UsageError(`--status must be success or error, got "${status}"`);
	const answer = required(args, "answer", "the text of your answer");
	await router.indexSync.ensureLive();
	await router.indexSync.ensureHistory();
	const candidates = router.index.withId(id).filter((e) => e.kind === "request");
	const request = candidates.find((e) => e.location.area === "box" && e.location.box === "inbox") ?? candidates.find((e) => e.location.area === "box" && e.location.box === "archive");
	if (!request) {
		const waiting = [...router.index.all()].filter((e) => e.kind === "request" && e.location.area === "box" && e.location.box === "inbox" && e.messageId);
		const hint = waiting.length > 0 ? ` Requests waiting in inboxes: ${waiting.slice(0, 10).map((e) => `${e.messageId} (${e.targetGroup})`).join(", ")}` : " No request is waiting in any inbox.";
		throw new UsageError(`no delivered request has message_id "${id}".${hint}`);
	}
	const now = Date.now();
	const message = buildResponse({ request, status, answer, artifacts: many(args, "artifact"), errorCode: one(args, "error-code") }, now);
	const responder = message.envelope.source_group;
	const folder = router.layout.box(responder, "outbox");
	if (!folder) throw new UsageError(`the answering group "${responder}" is not in the registry`);
	const text = serialiseMessage(message);
	const check = checkOutgoing(text, responder, router.context());
	const refused = refusal(check);
	if (refused !== null) throw new UsageError(refused);
	const path = await createUnderFreeName(vault, folder, messageFileName(message, now), text);
	const env = message.envelope;
	if (session.json) io.out(JSON.stringify({ path, message_id: env.message_id, trace_id: env.trace_id, in_reply_to: env.in_reply_to }));
	else io.out(`${path}\nmessage_id: ${env.message_id}\ntrace_id: ${env.trace_id}\nin_reply_to: ${env.in_reply_to}`);
	return 0;
}
