import type { Task } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext, ServerCallContext } from "@a2a-js/sdk/server";
import { attemptTimeoutSeconds, timeoutOf } from "../../src/core/stamps";
import { parseTime } from "../../src/core/time";
import { followTask } from "./follow-task";
import type { Gateway } from "./gateway";
import { noteEvents } from "./task-stream";

// The agent behind every served group, for the SDK's request handler: the work is done by the
// group's agents through the vault, so executing a message is following its request note (written
// before the SDK is called) and publishing what the note goes through, until the task is final,
// the call's deadline passes or its caller goes away. The task id is the request's message_id (the
// message's messageId), never the SDK's own `requestContext.taskId`.

/** A blocking call returns by this time at the latest, the task still WORKING (HTTP clients give up after 300 s). */
export const MAX_WAIT_MS = 240_000;
/** Time the router may take past a deadline before the task shows it. */
const ROUTER_MARGIN_MS = 10_000;

/** The key under which the HTTP server puts, in a call's state, the signal that its request went away. */
export const REQUEST_SIGNAL = "a2a-relay/request-signal";

export function requestSignal(context: ServerCallContext): AbortSignal | undefined {
	const signal = context.state.get(REQUEST_SIGNAL);
	return signal instanceof AbortSignal ? signal : undefined;
}

/** When following task `id` stops: the request's last timeout plus a margin, at most `maxWaitMs` from now. */
function followDeadline(gateway: Gateway, id: string, maxWaitMs: number): number {
	const now = Date.now();
	const request = gateway.tasks.locate(id);
	const settings = gateway.router.registry.communication;
	if (!request) return now;
	const timeout = timeoutOf({ timeout_seconds: request.timeoutSeconds }, settings);
	let total = 0;
	for (let attempt = 1; attempt <= settings.retry_attempts + 1; attempt++) total += attemptTimeoutSeconds(timeout, attempt);
	const created = parseTime(request.created);
	const until = (Number.isNaN(created) ? now : created) + total * 1000 + ROUTER_MARGIN_MS;
	return Math.min(until, now + maxWaitMs);
}

/** Task `id` as its note changes (woken by the vault watcher, never polling), for one call. */
export function followNote(gateway: Gateway, id: string, load: (id: string) => Promise<Task | undefined>, context: ServerCallContext, maxWaitMs: number): AsyncGenerator<Task, void, undefined> {
	return followTask(id, async () => (await load(id)) ?? null, gateway.events, { deadline: followDeadline(gateway, id, maxWaitMs), signal: requestSignal(context) });
}

export class NoteExecutor implements AgentExecutor {
	constructor(
		private readonly gateway: Gateway,
		private readonly load: (id: string) => Promise<Task | undefined>,
		private readonly maxWaitMs: number,
		/** Hands the task just read to the call's next read of it (VaultTaskStore.handOver). */
		private readonly handOver: (context: ServerCallContext, task: Task) => void = () => undefined,
	) {}

	async execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
		const id = requestContext.userMessage.messageId;
		const once = requestContext.request.configuration?.returnImmediately === true;
		let published = false;
		for await (const event of noteEvents(followNote(this.gateway, id, this.load, requestContext.context, this.maxWaitMs))) {
			// The SDK reads the task back as soon as its first event is published: the snapshot just read is that read.
			if (event.kind === "task") this.handOver(requestContext.context, event.data);
			bus.publish(event);
			published = true;
			if (once) break;
		}
		if (!published) throw new Error(`the request note of task ${id} is not in the vault`);
	}

	/** Nothing runs here to stop: a cancel moves the note (GroupRequestHandler.cancelTask), and its followers see that. */
	cancelTask(): Promise<void> {
		return Promise.resolve();
	}
}
