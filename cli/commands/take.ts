import { terminalText } from "../../src/core/terminal-text";
import { takeResponse } from "../../src/router/take-response";
import type { ParsedArgs } from "../args";
import { positionalId } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const TAKE_HELP = `Usage: a2a take ID [--json] [--vault DIR] [--root NAME]

Takes a response its requester has read out of the requester's inbox: stamps it state: taken and
moves it to the requester's archive. ID is the response's message_id, or the message_id of the
request it answers (then every response to that request in the inbox is taken). Taking what is
already taken changes nothing. Only a response the router carried to the group that sent the
request is taken (from that request's target, or the router's own). With --json: {"path", "taken":
[{"message_id", "in_reply_to", "path"}], "already_taken"}.`;

export async function runTake(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const id = positionalId(args, "the message_id of the response (or of the request it answers)");
	const session = await openSession(args, io);
	checkRegistry(session);
	const result = await takeResponse(session.router, id);
	if (session.json) io.out(JSON.stringify(result));
	else for (const t of result.taken) io.out(terminalText(`${result.already_taken ? "already taken" : "taken"}: ${t.message_id} -> ${t.path}`));
	return 0;
}
