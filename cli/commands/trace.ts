import { terminalText } from "../../src/core/terminal-text";
import { traceMessages } from "../../src/router/trace-listing";
import type { ParsedArgs } from "../args";
import { positionalId } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const TRACE_HELP = `Usage: a2a trace ID [--json] [--vault DIR] [--root NAME]

Prints the messages of the conversation (trace_id ID) in the order they happened, each with where
it is now: an inbox, an outbox, an archive or the dead-letter folder. With --json, one object per
message: the inbox listing's fields plus "where", "group", "parent_id", "hop_count", "delivered_at".`;

export async function runTrace(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const id = positionalId(args, "the trace_id of the conversation");
	const session = await openSession(args, io);
	checkRegistry(session);
	const trace = await traceMessages(session.router, id);
	if (session.json) {
		for (const m of trace.messages) io.out(JSON.stringify(m));
		return 0;
	}
	io.out(terminalText(`trace ${trace.trace_id}: ${trace.messages.length} message(s)`));
	for (const m of trace.messages) {
		const what = m.kind === "request" ? `request (${m.request_type ?? "?"})` : `response (${m.status ?? "?"})`;
		const place = m.where === "dead-letter" ? "dead-letter" : `${m.where} of ${m.group ?? "?"}`;
		io.out(terminalText(`  ${m.delivered_at ?? m.created ?? "-"}  ${m.source_group ?? "?"} -> ${m.target_group ?? "?"}  ${what}  ${m.message_id}  [${m.state ?? "-"}, ${place}]  ${m.summary}`));
	}
	return 0;
}
