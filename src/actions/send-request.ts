import { buildRequest, messageFileName } from "../core/compose";
import { requestContentProblem } from "../core/content-reasons";
import { unknownGroupReason } from "../core/group-reasons";
import { serialiseMessage } from "../core/message-serialise";
import { checkOutgoing, refusal } from "../core/outgoing";
import type { Priority, RequestType } from "../core/protocol";
import { missingParentReason, parentOf } from "../core/routing";
import { oneLine } from "../core/text";
import { requestFieldProblem } from "../core/validate";

import { refreshIndex, refreshLive } from "../router/index-refresh";
import { Refused } from "../router/refused";
import type { Router } from "../router/router";
import { createUnderFreeName } from "../router/free-names";

// An agent sends a request (`a2a send`, the MCP tool `send_request`): checked the way the router will
// check it (same words), then written into the sender's outbox in one atomic step. A request that
// continues a conversation names its trace or its parent (the request its sender is handling); the
// rest (trace, parent, hop count) is taken from that parent. Refusals name the field at fault with
// the protocol's field names; nothing is written then.

export interface SendInput {
	from: string;
	to: string;
	type: string;
	question?: string;
	context?: string;
	task?: string;
	artifacts?: string[];
	priority?: string;
	timeoutSeconds?: number;
	traceId?: string;
	hopCount?: number;
	parentId?: string;
}

export interface SentRequest {
	path: string;
	message_id: string;
	trace_id: string;
	hop_count: number;
	parent_id: string | null;
}

function knownGroup(router: Router, id: string, field: string): string {
	if (router.layout.hasGroup(id)) return id;
	throw new Refused(unknownGroupReason(oneLine(id, 80), router.layout.groupIds()), field);
}

function checkInput(router: Router, input: SendInput): void {
	knownGroup(router, input.from, "from");
	knownGroup(router, input.to, "to");
	const checks: [field: Parameters<typeof requestFieldProblem>[0], value: unknown][] = [
		["request_type", input.type],
		["priority", input.priority],
		["trace_id", input.traceId],
		["parent_id", input.parentId],
		["timeout_seconds", input.timeoutSeconds],
	];
	for (const [field, value] of checks) {
		const problem = value === undefined ? null : requestFieldProblem(field, value);
		if (problem !== null) throw new Refused(problem, field === "request_type" ? "type" : field);
	}
	if (input.hopCount !== undefined && input.traceId === undefined) throw new Refused("goes with trace_id (the conversation it continues)", "hop_count");
	const content = requestContentProblem(input.type, input);
	if (content !== null) throw new Refused(content.reason, content.field);
}

export async function sendRequest(router: Router, input: SendInput): Promise<SentRequest> {
	checkInput(router, input);
	// A request that starts a conversation gets its ids here (random UUIDs, src/core/ids.ts), which no
	// note of the history can hold: its check needs the live folders only, however long the history.
	const startsConversation = input.traceId === undefined && input.parentId === undefined;
	await (startsConversation ? refreshLive(router) : refreshIndex(router));
	// The registry may have changed meanwhile: check the groups against the one just read.
	checkInput(router, input);
	let { traceId, hopCount, parentId } = input;
	if (traceId !== undefined || parentId !== undefined) {
		let parent = parentOf(router.index, traceId ?? "", input.from, parentId);
		// A parent delivered a moment ago may not be indexed yet by a cheap refresh: look at everything then.
		if (parent === "missing") {
			await refreshIndex(router, { thorough: true });
			parent = parentOf(router.index, traceId ?? "", input.from, parentId);
		}
		if (parent === "missing") throw new Refused(missingParentReason(parentId ?? "", input.from), "parent_id");
		if (parent) {
			traceId ??= parent.traceId;
			parentId ??= parent.messageId;
			hopCount ??= (parent.hopCount ?? 0) + 1;
		}
	}
	const now = router.now();
	const message = buildRequest(
		{
			from: input.from,
			to: input.to,
			type: input.type as RequestType,
			question: input.question,
			context: input.context,
			task: input.task,
			artifacts: input.artifacts ?? [],
			priority: input.priority as Priority | undefined,
			timeoutSeconds: input.timeoutSeconds,
			traceId,
			hopCount,
			parentId,
		},
		now,
	);
	const text = serialiseMessage(message);
	const check = checkOutgoing(text, input.from, router.context());
	const refused = refusal(check);
	if (refused !== null) throw new Refused(refused);
	const folder = router.layout.box(input.from, "outbox") as string;
	const path = await createUnderFreeName(router.port, folder, messageFileName(message, now), text);
	const env = message.envelope;
	return { path, message_id: env.message_id as string, trace_id: env.trace_id, hop_count: env.hop_count, parent_id: env.parent_id ?? null };
}
