import { readMessage } from "../../src/router/message-lookup";
import type { ParsedArgs } from "../args";
import { positionalId } from "../args";
import { messageText } from "../message-text";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const READ_HELP = `Usage: a2a read ID [--json] [--vault DIR] [--root NAME]

Prints the message whose message_id is ID, wherever it is now (an inbox, an outbox, an archive,
the dead-letter folder): its envelope fields, then its payload sections. With --json, one object:
the envelope fields, "payload" (section name -> text, artifacts as a list), "where", "group", "path".`;

export async function runRead(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const id = positionalId(args, "the message_id of the message to read (a2a inbox --group G lists them)");
	const session = await openSession(args, io);
	checkRegistry(session);
	const message = await readMessage(session.router, id);
	if (session.json) io.out(JSON.stringify(message));
	else for (const l of messageText(message)) io.out(l);
	return 0;
}
