import { readRawMessage } from "../core/message-parse";
import { MAX_REMOTE_RESPONSE_BYTES, readRemoteResult, refusedAnswer, tooLargeAnswer } from "../core/remote-answer";
import type { RemoteReading } from "../core/remote-answer";
import { forwardParams } from "../core/remote-request";
import type { GroupEntry } from "../core/registry";
import { timeoutOf } from "../core/stamps";
import { parseTime } from "../core/time";
import type { PassContext } from "./pass-context";
import type { RemoteAgents, RemoteCall } from "./remote-agents";
import type { ReadFile } from "./vault-port";

// The forwarder's calls to remote agents, each read as what it means for the request: a final
// answer, a task still running, "not found", or null for a transport error (rule 8 decides). A call
// never outlives the attempt it belongs to (plus a moment for a slow answer to arrive), nor the
// forwarder: an adapter that does not heed the signal is left behind, not waited for.

export interface Timers {
	set(callback: () => void, ms: number): unknown;
	clear(handle: unknown): void;
}

export class RemoteCalls {
	constructor(
		private readonly router: PassContext,
		private readonly remotes: RemoteAgents,
		private readonly timers: Timers,
		/** Throws when the forwarder stopped or lost the lease; the signal that stops its calls. */
		private readonly check: () => void,
		private readonly stopped: () => AbortSignal,
		private readonly problem: (problem: { path: string; error: string }) => void,
	) {}

	private async call(make: (signal: AbortSignal) => Promise<RemoteCall>, deadline: number): Promise<RemoteCall> {
		this.check();
		const timeout = new AbortController();
		const stop = () => timeout.abort();
		const stopped = this.stopped();
		stopped.addEventListener("abort", stop);
		const timer = this.timers.set(stop, Math.max(1000, deadline - this.router.now() + 1000));
		const abandoned = new Promise<RemoteCall>((resolve) => timeout.signal.addEventListener("abort", () => resolve({ ok: false, kind: "transport", reason: "the call took too long and was stopped" })));
		try {
			const result = await Promise.race([make(timeout.signal), abandoned]);
			this.check();
			return result;
		} finally {
			this.timers.clear(timer);
			stopped.removeEventListener("abort", stop);
		}
	}

	/** The remote's task for this request, when it has one (a reading), else null (send it). */
	async findTask(group: GroupEntry, fields: Record<string, unknown>): Promise<RemoteReading | null> {
		const messageId = typeof fields.message_id === "string" ? fields.message_id : "";
		const trace = typeof fields.trace_id === "string" ? fields.trace_id : "";
		const result = await this.call((signal) => this.remotes.findTask(group, trace, messageId, signal), this.deadlineOf(fields));
		return result.ok ? this.reading(result, group) : null;
	}

	deadlineOf(fields: Record<string, unknown>): number {
		const t = parseTime(fields.expires_at);
		return Number.isNaN(t) ? this.router.now() : t;
	}

	/** The reading of a send; null on a transport error (rule 8 tries again). A refusal is a final answer. */
	async send(group: GroupEntry, read: ReadFile, fields: Record<string, unknown>): Promise<RemoteReading | null> {
		const parsed = readRawMessage(read.text, read.info.path);
		if (!parsed.ok) throw new Error(parsed.reason);
		const params = forwardParams({ fields, payload: parsed.raw.payload, timeoutSeconds: timeoutOf(fields, this.router.registry.communication) });
		const result = await this.call((signal) => this.remotes.send(group, params, signal), this.deadlineOf(fields));
		if (result.ok) return this.reading(result, group);
		if (result.kind === "transport") {
			this.problem({ path: read.info.path, error: `${group.id} (${group.url ?? ""}) did not take the request: ${result.reason}; rule 8 tries again at expires_at` });
			return null;
		}
		if (result.kind === "too_large") return { kind: "final", answer: tooLargeAnswer(group.id, result.bytes) };
		return { kind: "final", answer: refusedAnswer(group.id, result.reason) };
	}

	/** The reading of a GetTask; null on a transport error (ask again), "not_found" when the remote does not know the task. */
	async getTask(group: GroupEntry, taskId: string, deadline: number): Promise<RemoteReading | null | "not_found"> {
		const result = await this.call((signal) => this.remotes.getTask(group, taskId, signal), deadline);
		if (result.ok) return this.reading(result, group);
		if (result.kind === "not_found") return "not_found";
		if (result.kind === "refused") return { kind: "final", taskId, answer: refusedAnswer(group.id, result.reason) };
		if (result.kind === "too_large") return { kind: "final", taskId, answer: tooLargeAnswer(group.id, result.bytes) };
		return null;
	}

	private reading(result: Extract<RemoteCall, { ok: true }>, group: GroupEntry): RemoteReading {
		if (result.bytes > MAX_REMOTE_RESPONSE_BYTES) {
			const taskId = "task" in result.result ? result.result.task.id : undefined;
			return { kind: "final", taskId, answer: tooLargeAnswer(group.id, result.bytes) };
		}
		return readRemoteResult(result.result, group.id);
	}

	/** After TIMEOUT the relay asks the agent to stop the task nobody waits for any more (best effort). */
	async cancel(group: GroupEntry, taskId: string): Promise<void> {
		const result = await this.call((signal) => this.remotes.cancelTask(group, taskId, signal), this.router.now() + 5000).catch(() => null);
		if (result && !result.ok && result.kind !== "not_found") this.problem({ path: group.id, error: `${group.id} did not cancel its task ${taskId} after the relay's TIMEOUT: ${result.reason}` });
	}
}
