import type { Message as A2aMessage } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, RequestMalformedError } from "@a2a-js/sdk/errors";
import { createUnderFreeName } from "../../src/router/free-names";
import { messageFileName } from "../../src/core/compose";
import { serialiseMessage } from "../../src/core/message-serialise";
import { checkOutgoing, refusal } from "../../src/core/outgoing";
import { unknownGroupReason } from "../../src/core/group-reasons";
import { gatewayGroup } from "../../src/core/registry";
import type { IndexEntry } from "../../src/core/message-index";
import type { Router } from "../../src/router/router";
import { notesOfTrace } from "../../src/router/trace-listing";
import type { KeyedLock } from "./keyed-lock";
import { messageToRequest } from "./mapping/message-to-request";
import type { InboundMapping } from "./mapping/message-to-request";
import type { VaultTasks } from "./vault-tasks";

// Turns an A2A message into a request note from the gateway group, written into the gateway's
// outbox with the same writer as `a2a send`. A messageId seen before is the same task: no second
// note. A message is checked as the router will read it: one it cannot read (INVALID_MESSAGE) is
// the client's error and nothing is written. One it can read is written even when a rule of routing
// will refuse it (the hop limit, a cycle): the router dead-letters it as it does any note, with its
// error code, its log row and its error response, and the task is REJECTED, read from the dead letter.

type InboundJoin = Extract<InboundMapping, { ok: true }>["joined"];

export class GatewayWriter {
	constructor(
		private readonly router: Router,
		private readonly tasks: VaultTasks,
		private readonly lock: KeyedLock,
		private readonly clock: () => number = Date.now,
		/** Told of each request note written (telemetry: its creation span). */
		private readonly onWritten?: (fields: Record<string, unknown>, atMs: number) => void,
	) {}

	/** Writes the message as a request note to `target`, unless it is one already; resolves with its task id. */
	submit(message: A2aMessage, target: string): Promise<string> {
		return this.lock.run(message.messageId, () => this.submitLocked(message, target));
	}

	private async submitLocked(message: A2aMessage, target: string): Promise<string> {
		const id = message.messageId;
		const existing = this.tasks.locate(id);
		if (existing) {
			if (existing.targetGroup !== target) throw new RequestMalformedError(`messageId "${id}" is already a task of group ${existing.targetGroup ?? "?"}: a new message needs a new messageId`);
			return id;
		}
		if (this.tasks.usedElsewhere(id)) throw new RequestMalformedError(`messageId "${id}" is the message_id of another message in this vault: use a new messageId`);
		const now = this.clock();
		const gateway = gatewayGroup(this.router.registry);
		let mapped = messageToRequest({ message, target, gateway, now });
		if (!mapped.ok) {
			if (mapped.kind === "content") throw new ContentTypeNotSupportedError(mapped.message);
			throw new RequestMalformedError(mapped.message);
		}
		const foreign = await this.joinsForeignTrace(mapped.joined, mapped.request.envelope.trace_id, gateway);
		if (foreign && mapped.joined === "traceparent") {
			// Trace context is never a reason to refuse, nor a way in: a new conversation, the note keeps the caller's traceparent (the relay's span links to it).
			const fresh = messageToRequest({ message, target, gateway, now, adoptTraceparent: false });
			if (!fresh.ok) throw new RequestMalformedError(fresh.message);
			mapped = fresh;
		} else if (foreign) {
			throw new RequestMalformedError(`contextId "${message.contextId.slice(0, 80)}" (or the routing metadata's trace_id) names a conversation of this vault that no A2A client started: leave both empty to start a new one, or give the contextId of one of your tasks`);
		}
		const text = serialiseMessage(mapped.request);
		const check = checkOutgoing(text, gateway, this.router.context());
		const refused = refusal(check);
		// A rule of routing (hops, a cycle, an unknown group) is the router's to apply: the note goes on to be dead-lettered.
		const routingRule = check.stage === "decide" && check.verdict.action === "reject" && check.verdict.code !== "INVALID_MESSAGE";
		if (refused !== null && !routingRule) throw new RequestMalformedError(refused);
		const folder = this.router.layout.box(gateway, "outbox");
		if (!folder) throw new Error(unknownGroupReason(gateway, this.router.layout.groupIds()));
		const path = await createUnderFreeName(this.router.port, folder, messageFileName(mapped.request, now), text, id);
		// The check read the text as the router will (a .md note: its path does not change the reading).
		this.tasks.outbox.add(path, text, undefined, check.stage === "decide" ? check.raw : undefined);
		this.onWritten?.({ ...mapped.request.envelope, ...mapped.request.extra }, now);
		return id;
	}

	/**
	 * A client joins a conversation of this vault (by its contextId, or by the routing extension's
	 * trace_id) only when an A2A client started it (the gateway sent a request in it), or when this
	 * vault sent it out to a remote group (a relay it called continues the trace it was given).
	 * Otherwise a client could join an internal trace and be taken for the requester an answer
	 * without in_reply_to goes to. A trace taken from a caller's traceparent alone is checked the same
	 * way, but a foreign one only makes the caller start a new conversation (see submitLocked).
	 */
	private async joinsForeignTrace(joined: InboundJoin, traceId: string, gateway: string): Promise<boolean> {
		if (joined === null) return false;
		const started = (entries: IndexEntry[]) => entries.some((e) => e.kind === "request" && e.sourceGroup === gateway);
		if (started(this.router.index.inTrace(traceId))) return false;
		// Notes still in an outbox count too: a conversation just sent (not yet routed) is no less internal.
		const trace = await notesOfTrace(this.router, traceId, { refresh: false });
		if (trace.length === 0 || started(trace)) return false;
		const remote = (group: string | undefined) => group !== undefined && this.router.registry.groups.get(group)?.url !== undefined;
		return !(joined === "metadata" && trace.some((e) => e.kind === "request" && remote(e.targetGroup)));
	}
}
