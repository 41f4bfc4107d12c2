import { terminalText } from "../../src/core/terminal-text";
import { listInbox } from "../../src/router/inbox-listing";
import type { MessageSummary } from "../../src/router/message-view";
import { required } from "../args";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const INBOX_HELP = `Usage: a2a inbox --group G [--json] [--vault DIR] [--root NAME]

Lists what waits for group G: the requests delivered to it that it has not answered yet (highest
priority first, then the oldest), then the responses to G's own requests that G has not taken yet
(oldest first). Only G's inbox folder is read.
With --json, one JSON object per message: {"message_id", "trace_id", "kind", "source_group",
"request_type" or "status", "priority", "created", "state", "summary", "path", ...}.
Next: a2a read ID shows one message whole; a2a reply --message ID answers a request; a2a take ID
takes a response out of the inbox.`;

function line(m: MessageSummary): string {
	const what = m.kind === "request" ? `${m.request_type ?? "?"} from ${m.source_group ?? "?"}` : `${m.status ?? "?"} from ${m.source_group ?? "?"}${m.in_reply_to ? ` to ${m.in_reply_to}` : ""}`;
	const late = m.late ? " (late)" : "";
	return terminalText(`  ${m.message_id}  ${m.priority.padEnd(6)} ${what}${late}: ${m.summary || "(no text)"}`);
}

export async function runInbox(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const session = await openSession(args, io);
	checkRegistry(session);
	const listing = await listInbox(session.router, required(args, "group", "the group whose inbox to list"));
	if (session.json) {
		for (const m of [...listing.requests, ...listing.responses]) io.out(JSON.stringify(m));
		return 0;
	}
	io.out(`Requests to answer (${listing.requests.length})`);
	for (const m of listing.requests) io.out(line(m));
	io.out(`Responses to take (${listing.responses.length})`);
	for (const m of listing.responses) io.out(line(m));
	return 0;
}
