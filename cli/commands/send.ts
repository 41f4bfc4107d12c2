import { sendRequest } from "../../src/actions/send-request";
import { integer, many, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const SEND_HELP = `Usage: a2a send --from G --to H --type query|task|artifact [--question T] [--context T]
                [--task T] [--artifact PATH]... [--priority low|medium|high] [--timeout S]
                [--trace ID [--hop N]] [--parent ID] [--vault DIR] [--root NAME] [--json]

Writes a request into G's outbox in one atomic step and prints its path, message_id and trace_id.
The router (the plugin, or \`a2a route\`) then delivers it to H's inbox.
--trace   continues a conversation (its trace_id)
--parent  the message_id of the request G is handling while it sends this one (rule 6); with
          --trace and no --parent, the request G holds on that trace is taken, when there is one
--hop     the hops the chain has taken so far (default: the parent's hop_count + 1, else 0)
A message the router would reject (hop limit, cycle, unknown group) is refused here, in its words.`;

/** The flags of the request fields `sendRequest` names when it refuses. */
export const SEND_FLAGS: Record<string, string> = { trace_id: "--trace", hop_count: "--hop", parent_id: "--parent", timeout_seconds: "--timeout" };

export async function runSend(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const session = await openSession(args, io);
	checkRegistry(session);
	const sent = await sendRequest(session.router, {
		from: required(args, "from", "the sending group"),
		to: required(args, "to", "the receiving group"),
		type: required(args, "type", "one of query, task, artifact"),
		question: one(args, "question"),
		context: one(args, "context"),
		task: one(args, "task"),
		artifacts: many(args, "artifact"),
		priority: one(args, "priority"),
		timeoutSeconds: integer(args, "timeout", 1),
		traceId: one(args, "trace"),
		hopCount: integer(args, "hop", 0),
		parentId: one(args, "parent"),
	});
	if (session.json) io.out(JSON.stringify(sent));
	else io.out(`${sent.path}\nmessage_id: ${sent.message_id}\ntrace_id: ${sent.trace_id}`);
	return 0;
}
