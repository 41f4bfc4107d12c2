import { buildRequest, messageFileName } from "../../src/core/compose";
import { isAcceptableMessageId, isUuidShaped } from "../../src/core/ids";
import { serialiseMessage } from "../../src/core/message-serialise";
import { checkOutgoing, refusal } from "../../src/core/outgoing";
import { PRIORITIES, REQUEST_TYPES } from "../../src/core/protocol";
import type { Priority, RequestType } from "../../src/core/protocol";
import { parentOf } from "../../src/core/routing";
import { UsageError, integer, many, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";
import { createUnderFreeName } from "../../src/actions/write-note";
import { knownGroup } from "../known-group";

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

export async function runSend(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const session = await openSession(args, io);
	checkRegistry(session);
	const { router, vault } = session;
	const from = knownGroup(router.layout, required(args, "from", "the sending group"), "--from");
	const to = knownGroup(router.layout, required(args, "to", "the receiving group"), "--to");
	const type = required(args, "type", `one of ${REQUEST_TYPES.join(", ")}`);
	if (!(REQUEST_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${REQUEST_TYPES.join(", ")}, got "${type}"`);
	const priority = one(args, "priority");
	if (priority !== undefined && !(PRIORITIES as readonly string[]).includes(priority)) throw new UsageError(`--priority must be one of ${PRIORITIES.join(", ")}, got "${priority}"`);
	let trace = one(args, "trace");
	if (trace !== undefined && !isUuidShaped(trace)) throw new UsageError(`--trace must be a UUID (8-4-4-4-12 hex digits), got "${trace}"`);
	let hop = integer(args, "hop", 0);
	if (hop !== undefined && trace === undefined) throw new UsageError("--hop goes with --trace (the conversation it continues)");
	let parentId = one(args, "parent");
	if (parentId !== undefined && !isAcceptableMessageId(parentId)) throw new UsageError(`--parent must be a message_id, got "${parentId}"`);
	const question = one(args, "question");
	const task = one(args, "task");
	if (!question && !task && many(args, "artifact").length === 0 && one(args, "context") === undefined) {
		throw new UsageError("say what you need: give --question, --task, --context or --artifact");
	}
	await router.indexSync.ensureLive();
	await router.indexSync.ensureHistory();
	if (trace !== undefined || parentId !== undefined) {
		const parent = parentOf(router.index, trace ?? "", from, parentId);
		if (parent === "missing") throw new UsageError(`--parent: no request with message_id "${parentId ?? ""}" was delivered to ${from}`);
		if (parent) {
			trace ??= parent.traceId;
			parentId ??= parent.messageId;
			hop ??= (parent.hopCount ?? 0) + 1;
		}
	}
	const now = Date.now();
	const message = buildRequest(
		{
			from,
			to,
			type: type as RequestType,
			question,
			context: one(args, "context"),
			task,
			artifacts: many(args, "artifact"),
			priority: priority as Priority | undefined,
			timeoutSeconds: integer(args, "timeout", 1),
			traceId: trace,
			hopCount: hop,
			parentId,
		},
		now,
	);
	const text = serialiseMessage(message);
	const check = checkOutgoing(text, from, router.context());
	const refused = refusal(check);
	if (refused !== null) throw new UsageError(refused);
	const folder = router.layout.box(from, "outbox") as string;
	const path = await createUnderFreeName(vault, folder, messageFileName(message, now), text);
	const env = message.envelope;
	if (session.json) io.out(JSON.stringify({ path, message_id: env.message_id, trace_id: env.trace_id, hop_count: env.hop_count, parent_id: env.parent_id ?? null }));
	else io.out(`${path}\nmessage_id: ${env.message_id}\ntrace_id: ${env.trace_id}`);
	return 0;
}
