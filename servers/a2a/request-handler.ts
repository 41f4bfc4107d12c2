import { withCallerTrace } from "./caller-trace";
import { Role, TaskState } from "@a2a-js/sdk";
import type { AgentCard, CancelTaskRequest, GetTaskRequest, ListTasksRequest, ListTasksResponse, Message, SendMessageRequest, StreamResponse, SubscribeToTaskRequest, Task } from "@a2a-js/sdk";
import { DefaultRequestHandler } from "@a2a-js/sdk/server";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { RequestMalformedError, TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { Gateway } from "./gateway";
import { ROUTING_EXTENSION } from "./mapping/routing-extension";
import { isFinalTaskState } from "./mapping/note-to-task";
import { MAX_WAIT_MS, NoteExecutor, followNote } from "./note-executor";
import { asStreamResponse, noteEvents } from "./task-stream";
import { VaultTaskStore } from "./vault-task-store";

// One served group as an A2A agent (contract v2, section 8): the SDK's DefaultRequestHandler over a
// task store backed by the vault and an executor that follows request notes. A task is the
// gateway's request note to this group; its id is the note's message_id. What the vault makes
// different is overridden below, each with its reason; the rest (GetTask, ListTasks' checks, the
// card, the refusal of push notifications and of an extended card) is the SDK's.

export interface GroupHandlerOptions {
	/** The longest a blocking SendMessage waits (MAX_WAIT_MS unless a test gives less). */
	maxWaitMs?: number;
}

export class GroupRequestHandler extends DefaultRequestHandler {
	private readonly store: VaultTaskStore;
	private readonly maxWaitMs: number;

	constructor(
		private readonly gateway: Gateway,
		readonly group: string,
		card: AgentCard,
		options: GroupHandlerOptions = {},
	) {
		const store = new VaultTaskStore(gateway.tasks, group);
		const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
		super(card, store, new NoteExecutor(gateway, (id) => store.load(id), maxWaitMs, (context, task) => store.handOver(context, task)));
		this.store = store;
		this.maxWaitMs = maxWaitMs;
	}

	/**
	 * A client's mistake is a JSON-RPC error and writes nothing, but whatever the executor throws
	 * becomes a FAILED task: so the message is checked, and written as a request note (or found to be
	 * one already), before the SDK sees it. What goes on is the message as the SDK should take it.
	 */
	private async admit(params: SendMessageRequest, context: ServerCallContext): Promise<SendMessageRequest> {
		const message: Message | undefined = params.message;
		if (!message?.messageId) throw new RequestMalformedError("message.messageId is required.");
		// role is REQUIRED; a message sent to an agent is the user's (the note records it as the gateway's request).
		if (message.role === Role.ROLE_AGENT) throw new RequestMalformedError("message.role is ROLE_AGENT: a message sent to an agent is the user's (ROLE_USER); an agent's messages are its answers");
		if (message.role !== Role.ROLE_USER) throw new RequestMalformedError("message.role is required: ROLE_USER for a message sent to an agent");
		checkHistoryLength(params.configuration?.historyLength);
		if (message.taskId && message.taskId !== message.messageId) {
			const task = await this.store.load(message.taskId);
			if (!task) throw new TaskNotFoundError(`Task not found: ${message.taskId}`);
			if (isFinalTaskState(task.status?.state)) throw new UnsupportedOperationError(`Task ${message.taskId} is in a terminal state (${task.status?.state ?? 0}) and cannot be modified.`);
			throw new UnsupportedOperationError(`Task ${message.taskId} is a request note already on its way; a follow-up message to it is not supported: send a new message (with its own messageId)`);
		}
		if (message.metadata && ROUTING_EXTENSION in message.metadata && context.requestedExtensions?.includes(ROUTING_EXTENSION)) context.addActivatedExtension(ROUTING_EXTENSION);
		await this.gateway.writer.submit(withCallerTrace(message, context), this.group);
		// The task id is the messageId: a message naming its own task is the same message sent again,
		// not a turn of a task. Reference tasks are not read (a request note has no place for them).
		return { ...params, message: { ...message, taskId: "", referenceTaskIds: [] } };
	}

	// Checks and writes first (admit), then the SDK runs the executor. The task returned is the task
	// as GetTask reads it: the SDK's result keeps, in its history, each status message it saw pass,
	// which the note (the truth, read after a restart too) does not say. With returnImmediately the
	// result is the executor's one snapshot, read from the vault after the note was written: that is
	// already the task as GetTask reads it, and it is not read a second time.
	async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
		const result = await super.sendMessage(await this.admit(params, context), context);
		if (!("status" in result)) return result;
		const snapshot = params.configuration?.returnImmediately === true && result.id === params.message?.messageId;
		const stored = snapshot ? result : await this.store.load(result.id);
		if (!stored) return result;
		const keep = params.configuration?.historyLength;
		if (keep !== undefined) stored.history = keep === 0 ? [] : stored.history.slice(-keep);
		return stored;
	}

	// historyLength is a count: a negative one is the client's error (-32602), not "everything".
	async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
		checkHistoryLength(params.historyLength);
		return super.getTask(params, context);
	}

	async listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
		checkHistoryLength(params.historyLength);
		return super.listTasks(params, context);
	}

	// Checks and writes first (admit), then the SDK streams the executor's events.
	async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
		yield* super.sendMessageStream(await this.admit(params, context), context);
	}

	// The SDK follows its in-process event bus, which only a call of this process has (under the SDK's
	// own task id): the note is followed instead, so a task goes on being followed after a restart.
	async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
		const task = await this.mustLoad(params.id);
		if (isFinalTaskState(task.status?.state)) throw new UnsupportedOperationError(`Task ${params.id} is in a terminal state (${task.status?.state ?? 0}) and cannot be subscribed to.`);
		for await (const event of noteEvents(followNote(this.gateway, params.id, (id) => this.store.load(id), context, this.maxWaitMs))) yield asStreamResponse(event);
	}

	// A cancel moves the note to the dead letters (CANCELED); the SDK's would publish a status to a store that keeps nothing.
	async cancelTask(params: CancelTaskRequest): Promise<Task> {
		const task = await this.mustLoad(params.id);
		const state = task.status?.state;
		if (state === TaskState.TASK_STATE_CANCELED) return task;
		if (isFinalTaskState(state)) throw new TaskNotCancelableError(`Task not cancelable: ${params.id}`);
		const outcome = await this.gateway.canceller.cancel(params.id);
		if (outcome === "missing") throw new TaskNotFoundError(`Task not found: ${params.id}`);
		if (outcome === "final") throw new TaskNotCancelableError(`Task not cancelable: ${params.id}`);
		return this.mustLoad(params.id);
	}

	private async mustLoad(id: string): Promise<Task> {
		if (!id || id.trim() === "") throw new RequestMalformedError("Task ID is required");
		const task = await this.store.load(id);
		if (!task) throw new TaskNotFoundError(`Task not found: ${id}`);
		return task;
	}
}

function checkHistoryLength(value: number | undefined): void {
	if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new RequestMalformedError(`historyLength must be a whole number >= 0, got ${value}`);
}
