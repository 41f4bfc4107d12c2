import { buildRequest, messageFileName } from "../../src/core/compose";
import { isUuidShaped } from "../../src/core/ids";
import { serialiseMessage } from "../../src/core/message-serialise";
import { PRIORITIES, REQUEST_TYPES } from "../../src/core/protocol";
import type { Priority, RequestType } from "../../src/core/protocol";
import { readRawMessage } from "../../src/core/message-parse";
import { formatProblems, validateNote } from "../../src/core/validate";
import { UsageError, integer, many, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";
import { createUnderFreeName } from "../../src/actions/write-note";
import { knownGroup } from "../known-group";

export const SEND_HELP = `Usage: a2a send --from G --to H --type query|task|artifact [--question T] [--context T]
                [--task T] [--artifact PATH]... [--priority low|medium|high] [--timeout S]
                [--trace ID [--hop N]] [--vault DIR] [--root NAME] [--json]

Writes a request into G's outbox in one atomic step and prints its path, message_id and trace_id.
The router (the plugin, or \`a2a route\`) then delivers it to H's inbox.
--trace continues a conversation; without --hop the next hop count is taken from the vault.`;

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
	const trace = one(args, "trace");
	if (trace !== undefined && !isUuidShaped(trace)) throw new UsageError(`--trace must be a UUID (8-4-4-4-12 hex digits), got "${trace}"`);
	let hop = integer(args, "hop", 0);
	if (hop !== undefined && trace === undefined) throw new UsageError("--hop goes with --trace (the conversation it continues)");
	const question = one(args, "question");
	const task = one(args, "task");
	if (!question && !task && many(args, "artifact").length === 0 && one(args, "context") === undefined) {
		throw new UsageError("say what you need: give --question, --task, --context or --artifact");
	}
	let route: string[] | undefined;
	if (trace !== undefined) {
		await router.buildIndex();
		const earlier = router.index.inTrace(trace).filter((e) => e.kind === "request");
		if (hop === undefined) hop = earlier.reduce((max, e) => Math.max(max, (e.hopCount ?? -1) + 1), 0);
		const last = earlier.filter((e) => e.targetGroup === from).sort((a, b) => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? 1 : -1))[0];
		if (last && last.route.length > 0) route = last.route;
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
			route,
		},
		now,
	);
	const text = serialiseMessage(message);
	// The same validation the router applies, so a mistake is reported here and not as a dead letter.
	const read = readRawMessage(text, "x.md");
	const validation = read.ok ? validateNote(read.raw, text, from) : null;
	if (!validation || !validation.ok) throw new UsageError(`the message would be rejected: ${validation && !validation.ok ? formatProblems(validation.problems) : "it does not parse"}`);
	const folder = router.layout.box(from, "outbox") as string;
	const path = await createUnderFreeName(vault, folder, messageFileName(message, now), text);
	const env = message.envelope;
	if (session.json) io.out(JSON.stringify({ path, message_id: env.message_id, trace_id: env.trace_id, hop_count: env.hop_count }));
	else io.out(`${path}\nmessage_id: ${env.message_id}\ntrace_id: ${env.trace_id}`);
	return 0;
}
