import type { Message as A2aMessage, Task } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, RequestMalformedError } from "@a2a-js/sdk/errors";
import { createUnderFreeName } from "../../src/router/free-names";
import { messageFileName } from "../../src/core/compose";
import { entryFromRaw } from "../../src/core/message-index";
import { readRawMessage } from "../../src/core/message-parse";
import { serialiseMessage } from "../../src/core/message-serialise";
import { checkOutgoing, refusal } from "../../src/core/outgoing";
import { gatewayGroup } from "../../src/core/registry";
import { stampDead } from "../../src/core/stamps";
import type { Router } from "../../src/router/router";
import type { KeyedLock } from "./keyed-lock";
import { messageToRequest } from "./mapping/message-to-request";
import { noteToTask } from "./mapping/note-to-task";
import type { VaultTasks } from "./vault-tasks";

// Turns an A2A message into a request note from the gateway group, written into the gateway's
// outbox with the same writer and the same check as `a2a send` (so the router's rules refuse a
// message here, in the router's words, before anything is written). A messageId seen before is the
// same task: no second note. A message the router would reject (hop limit, cycle) is not written;
// its task is REJECTED with the router's reason and remembered until the server stops.

const REFUSED_KEPT = 1000;

export type Submission = { id: string; written: boolean } | { id: string; refused: Task };

export class GatewayWriter {
	private readonly refused = new Map<string, Task>();

	constructor(
		private readonly router: Router,
		private readonly tasks: VaultTasks,
		private readonly lock: KeyedLock,
		private readonly clock: () => number = Date.now,
	) {}

	/** The REJECTED task of a message that was refused without a note, if any. */
	refusedTask(id: string): Task | undefined {
		return this.refused.get(id);
	}

	submit(message: A2aMessage, target: string): Promise<Submission> {
		return this.lock.run(message.messageId, () => this.submitLocked(message, target));
	}

	private async submitLocked(message: A2aMessage, target: string): Promise<Submission> {
		const id = message.messageId;
		const existing = this.tasks.locate(id);
		if (existing) {
			if (existing.targetGroup !== target) throw new RequestMalformedError(`messageId "${id}" is already a task of group ${existing.targetGroup ?? "?"}: a new message needs a new messageId`);
			return { id, written: false };
		}
		const earlier = this.refused.get(id);
		if (earlier) return { id, refused: earlier };
		if (this.tasks.usedElsewhere(id)) throw new RequestMalformedError(`messageId "${id}" is the message_id of another message in this vault: use a new messageId`);
		const now = this.clock();
		const gateway = gatewayGroup(this.router.registry);
		const mapped = messageToRequest({ message, target, gateway, now });
		if (!mapped.ok) {
			if (mapped.kind === "content") throw new ContentTypeNotSupportedError(mapped.message);
			throw new RequestMalformedError(mapped.message);
		}
		if (this.joinsForeignTrace(mapped.joined, mapped.request.envelope.trace_id, gateway)) {
			throw new RequestMalformedError(`contextId "${message.contextId.slice(0, 80)}" (or the routing metadata's trace_id) names a conversation of this vault that no A2A client started: leave both empty to start a new one, or give the contextId of one of your tasks`);
		}
		const text = serialiseMessage(mapped.request);
		const check = checkOutgoing(text, gateway, this.router.context());
		const refused = refusal(check);
		if (refused !== null) {
			// A rule of routing (hops, a cycle, an unknown group) makes a task the router refused; a message it cannot read is the client's error.
			if (check.stage !== "decide" || check.verdict.action !== "reject" || check.verdict.code === "INVALID_MESSAGE") throw new RequestMalformedError(refused);
			return { id, refused: this.remember(id, text, check.verdict.code, check.verdict.reason, now, mapped.contextId) };
		}
		const folder = this.router.layout.box(gateway, "outbox");
		if (!folder) throw new Error(`the gateway group ${gateway} is not in the registry`);
		const path = await createUnderFreeName(this.router.port, folder, messageFileName(mapped.request, now), text, id);
		this.tasks.outbox.add(path, text);
		return { id, written: true };
	}

	/**
	 * A client joins a conversation of this vault (by its contextId, or by the routing extension's
	 * trace_id) only when an A2A client started it (the gateway sent a request in it), or when this
	 * vault sent it out to a remote group (a relay it called continues the trace it was given).
	 * Otherwise a client could join an internal trace and be taken for the requester an answer
	 * without in_reply_to goes to.
	 */
	private joinsForeignTrace(joined: "context" | "metadata" | null, traceId: string, gateway: string): boolean {
		if (joined === null) return false;
		const trace = this.router.index.inTrace(traceId);
		if (trace.length === 0 || trace.some((e) => e.kind === "request" && e.sourceGroup === gateway)) return false;
		const remote = (group: string | undefined) => group !== undefined && this.router.registry.groups.get(group)?.url !== undefined;
		return !(joined === "metadata" && trace.some((e) => e.kind === "request" && remote(e.targetGroup)));
	}

	/** The task of a refused message: the note it would have been, as a dead letter. */
	private remember(id: string, text: string, code: string, reason: string, now: number, contextId: string): Task {
		const parsed = readRawMessage(text, "refused.md");
		if (!parsed.ok) throw new Error(parsed.reason);
		const fields = { ...parsed.raw.fields };
		stampDead(fields, code, reason, now);
		const entry = entryFromRaw(`(not written: the router would reject it)`, { area: "dead-letter" }, { ...parsed.raw, fields });
		const task = noteToTask({ request: entry, requestPayload: parsed.raw.payload, contextId });
		if (this.refused.size >= REFUSED_KEPT) this.refused.delete(this.refused.keys().next().value as string);
		this.refused.set(id, task);
		return task;
	}
}
