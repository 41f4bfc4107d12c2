import { TaskState } from "@a2a-js/sdk";
import type {
	AgentCard,
	CancelTaskRequest,
	GetTaskRequest,
	ListTasksRequest,
	ListTasksResponse,
	Message as A2aMessage,
	SendMessageRequest,
	StreamResponse,
	SubscribeToTaskRequest,
	Task,
} from "@a2a-js/sdk";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import {
	ExtendedAgentCardNotConfiguredError,
	PushNotificationNotSupportedError,
	RequestMalformedError,
	TaskNotCancelableError,
	TaskNotFoundError,
	UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { attemptTimeoutSeconds, timeoutOf } from "../../src/core/stamps";
import { parseTime } from "../../src/core/time";
import { followTask } from "./follow-task";
import type { Gateway } from "./gateway";
import { applyHistoryLength, listGroupTasks } from "./list-tasks";
import { ROUTING_EXTENSION } from "./mapping/routing-extension";
import { isTerminal } from "./mapping/note-to-task";
import { taskStream } from "./task-stream";

// One served group as an A2A agent: the SDK's request-handler interface implemented over the vault
// (contract v2, section 8). A task is the gateway's request note to this group; its id is the
// note's message_id. Tasks of other groups are not visible here.

/** A blocking call returns by this time at the latest (HTTP clients give up after 300 s). */
const MAX_WAIT_MS = 240_000;
/** Time the router may take past a deadline before the task shows it. */
const ROUTER_MARGIN_MS = 10_000;

/** The key under which the HTTP server puts, in a call's state, the signal that its request went away. */
export const REQUEST_SIGNAL = "a2a-relay/request-signal";

function requestSignal(context: ServerCallContext): AbortSignal | undefined {
	const signal = context.state.get(REQUEST_SIGNAL);
	return signal instanceof AbortSignal ? signal : undefined;
}

export class GroupRequestHandler implements A2ARequestHandler {
	constructor(
		private readonly gateway: Gateway,
		readonly group: string,
		private readonly card: () => AgentCard,
	) {}

	async getAgentCard(): Promise<AgentCard> {
		return this.card();
	}

	async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
		throw new ExtendedAgentCardNotConfiguredError("this agent has no extended card");
	}

	/** The task `id` of this group, or null. */
	private async load(id: string): Promise<Task | null> {
		if (this.gateway.tasks.locate(id)?.targetGroup !== this.group) return null;
		return this.gateway.tasks.load(id);
	}

	private async mustLoad(id: string): Promise<Task> {
		if (!id || id.trim() === "") throw new RequestMalformedError("Task ID is required");
		const task = await this.load(id);
		if (!task) throw new TaskNotFoundError(`Task not found: ${id}`);
		return task;
	}

	/** When a blocking call stops waiting: the request's last timeout plus a margin, at most MAX_WAIT_MS. */
	private deadline(id: string): number {
		const now = Date.now();
		const request = this.gateway.tasks.locate(id);
		const settings = this.gateway.router.registry.communication;
		if (!request) return now;
		const timeout = timeoutOf({ timeout_seconds: request.timeoutSeconds }, settings);
		let total = 0;
		for (let attempt = 1; attempt <= settings.retry_attempts + 1; attempt++) total += attemptTimeoutSeconds(timeout, attempt);
		const created = parseTime(request.created);
		const until = (Number.isNaN(created) ? now : created) + total * 1000 + ROUTER_MARGIN_MS;
		return Math.min(until, now + MAX_WAIT_MS);
	}

	/** Writes the message as a request note (or finds the task it already is); the task id. */
	private async submit(params: SendMessageRequest, context: ServerCallContext): Promise<{ id: string; written: boolean }> {
		const message: A2aMessage | undefined = params.message;
		if (!message?.messageId) throw new RequestMalformedError("message.messageId is required.");
		if (message.taskId && message.taskId !== message.messageId) {
			const task = await this.load(message.taskId);
			if (!task) throw new TaskNotFoundError(`Task not found: ${message.taskId}`);
			if (isTerminal(task.status?.state)) throw new UnsupportedOperationError(`Task ${message.taskId} is in a terminal state (${task.status?.state ?? 0}) and cannot be modified.`);
			throw new UnsupportedOperationError(`Task ${message.taskId} is a request note already on its way; a follow-up message to it is not supported: send a new message (with its own messageId)`);
		}
		if (message.metadata && ROUTING_EXTENSION in message.metadata && context.requestedExtensions?.includes(ROUTING_EXTENSION)) context.addActivatedExtension(ROUTING_EXTENSION);
		return this.gateway.writer.submit(message, this.group);
	}

	async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
		const submission = await this.submit(params, context);
		const historyLength = params.configuration?.historyLength;
		let task = await this.mustLoad(submission.id);
		if (params.configuration?.returnImmediately === true || isTerminal(task.status?.state)) return applyHistoryLength(task, historyLength);
		const snapshots = followTask(submission.id, () => this.load(submission.id), this.gateway.events, { deadline: this.deadline(submission.id), signal: requestSignal(context) });
		for await (const snapshot of snapshots) task = snapshot;
		return applyHistoryLength(task, historyLength);
	}

	async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
		const submission = await this.submit(params, context);
		const historyLength = params.configuration?.historyLength;
		yield* this.follow(submission.id, context, submission.written ? TaskState.TASK_STATE_SUBMITTED : undefined, historyLength);
	}

	async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
		await this.mustLoad(params.id);
		yield* this.follow(params.id, context, undefined, undefined);
	}

	private async *follow(id: string, context: ServerCallContext, firstState: TaskState | undefined, historyLength: number | undefined): AsyncGenerator<StreamResponse, void, undefined> {
		const load = async () => {
			const task = await this.load(id);
			return task && applyHistoryLength(task, historyLength);
		};
		yield* taskStream(followTask(id, load, this.gateway.events, { deadline: this.deadline(id), signal: requestSignal(context) }), firstState);
	}

	async getTask(params: GetTaskRequest): Promise<Task> {
		return applyHistoryLength(await this.mustLoad(params.id), params.historyLength);
	}

	async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
		return listGroupTasks(this.gateway.tasks, this.group, params);
	}

	async cancelTask(params: CancelTaskRequest): Promise<Task> {
		const task = await this.mustLoad(params.id);
		if (isTerminal(task.status?.state) && task.status?.state !== TaskState.TASK_STATE_CANCELED) throw new TaskNotCancelableError(`Task not cancelable: ${params.id}`);
		const outcome = await this.gateway.canceller.cancel(params.id);
		if (outcome === "missing") throw new TaskNotFoundError(`Task not found: ${params.id}`);
		if (outcome === "final") throw new TaskNotCancelableError(`Task not cancelable: ${params.id}`);
		return this.mustLoad(params.id);
	}

	async createTaskPushNotificationConfig(): Promise<never> {
		throw new PushNotificationNotSupportedError("push notifications are not supported: use SendStreamingMessage, or GetTask");
	}

	async getTaskPushNotificationConfig(): Promise<never> {
		throw new PushNotificationNotSupportedError("push notifications are not supported");
	}

	async listTaskPushNotificationConfigs(): Promise<never> {
		throw new PushNotificationNotSupportedError("push notifications are not supported");
	}

	async deleteTaskPushNotificationConfig(): Promise<void> {
		throw new PushNotificationNotSupportedError("push notifications are not supported");
	}
}
