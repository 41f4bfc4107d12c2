import { Role, TaskState } from "@a2a-js/sdk";
import type { Message as A2aMessage, Artifact, Part, Task } from "@a2a-js/sdk";
import { uuidFromText } from "../../../src/core/hash";
import type { Payload } from "../../../src/core/message";
import type { IndexEntry } from "../../../src/core/message-index";
import { ROUTING_EXTENSION, routingMetadataOf } from "./routing-extension";

// A request note and its answer, seen as an A2A task (contract v2, section 8). The task id is the
// request's message_id; its state follows the note: waiting (in the gateway's outbox), delivered
// or retrying = WORKING; answered with success = COMPLETED (the answer is a text artifact, the
// note's artifacts more parts of it); answered with error, or TIMEOUT = FAILED; any other dead
// letter = REJECTED; a dead letter with error_code CANCELED = CANCELED.

/** Extra task metadata: where the note is and what the router made of it. */
export const NOTE_METADATA_KEY = "urn:a2a-relay:note";

export const TERMINAL_STATES: readonly TaskState[] = [TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED];

export function isFinalTaskState(state: TaskState | undefined): boolean {
	return state !== undefined && TERMINAL_STATES.includes(state);
}

export interface TaskFacts {
	/** The request as the index holds it now (its location, state and stamps). */
	request: IndexEntry;
	/** The request's payload (its body sections), for the task's history. */
	requestPayload?: Payload;
	/** The contextId the client gave, when it is not the trace id. */
	contextId?: string;
	/** The served group's answer, delivered to the gateway. */
	response?: IndexEntry;
	responsePayload?: Payload;
}

export interface TaskStatusFacts {
	state: TaskState;
	/** What the status message says. */
	text: string;
	/** ISO time of the note's step that gave this state. */
	timestamp: string;
}

const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });

function artifactPart(item: string): Part {
	const path = item.replace(/^\[\[|\]\]$/g, "").split("|")[0];
	return { content: { $case: "text", value: item }, metadata: { vault_path: path }, filename: path.split("/").pop() ?? path, mediaType: "text/plain" };
}

const textOf = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The state a request note stands for, and why. */
export function taskStatusOf(facts: TaskFacts): TaskStatusFacts {
	const { request, response } = facts;
	const target = request.targetGroup ?? "the group";
	const created = request.created ?? new Date(0).toISOString();
	const where = request.location;
	if (where.area === "dead-letter") {
		const at = request.deadAt ?? request.expiresAt ?? created;
		// A request moved to the dead letters but not yet stamped was being cancelled.
		if (request.errorCode === "CANCELED" || request.deadAt === undefined) return { state: TaskState.TASK_STATE_CANCELED, text: `CANCELED: ${request.errorMessage ?? "cancelled by an A2A client"}`, timestamp: at };
		const reason = `${request.errorCode ?? "REJECTED"}: ${request.errorMessage ?? "the router did not deliver it"}`;
		if (request.state === "timed_out" || request.errorCode === "TIMEOUT") return { state: TaskState.TASK_STATE_FAILED, text: reason, timestamp: at };
		return { state: TaskState.TASK_STATE_REJECTED, text: reason, timestamp: at };
	}
	if (response) {
		const at = response.deliveredAt ?? response.created ?? created;
		if (response.status === "success") return { state: TaskState.TASK_STATE_COMPLETED, text: `answered by ${response.sourceGroup ?? target}`, timestamp: at };
		const why = response.errorMessage ?? textOf(facts.responsePayload?.answer) ?? "no reason given";
		return { state: TaskState.TASK_STATE_FAILED, text: `${response.errorCode ?? response.status ?? "error"}: ${why}`, timestamp: at };
	}
	if (where.area === "box" && where.box === "archive") return { state: TaskState.TASK_STATE_COMPLETED, text: `answered by ${target}`, timestamp: request.answeredAt ?? created };
	if (where.area === "box" && where.box === "outbox") return { state: TaskState.TASK_STATE_WORKING, text: `written to the outbox of ${request.sourceGroup ?? "the gateway"}; waiting for the router`, timestamp: created };
	const attempt = request.attempt ?? 1;
	if (request.state === "retrying") return { state: TaskState.TASK_STATE_WORKING, text: `no answer yet: delivered to ${target} again (attempt ${attempt})`, timestamp: request.deliveredAt ?? created };
	if (request.state === "forwarded") return { state: TaskState.TASK_STATE_WORKING, text: `forwarded to the remote agent of ${target}`, timestamp: request.deliveredAt ?? created };
	if (request.state === "answered") return { state: TaskState.TASK_STATE_COMPLETED, text: `answered by ${target}`, timestamp: request.answeredAt ?? created };
	return { state: TaskState.TASK_STATE_WORKING, text: `delivered to ${target} (attempt ${attempt})`, timestamp: request.deliveredAt ?? created };
}

export function agentMessage(taskId: string, contextId: string, text: string, key: string): A2aMessage {
	return { messageId: uuidFromText(`a2a-status\n${taskId}\n${key}`), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The client's message as the note keeps it: the question or task, context and artifacts. */
export function requestAsMessage(facts: TaskFacts): A2aMessage {
	const { request, requestPayload = {} } = facts;
	const id = request.messageId ?? "";
	const parts: Part[] = [];
	const main = textOf(requestPayload.task) ?? textOf(requestPayload.question);
	if (main !== undefined) parts.push(textPart(main));
	const context = textOf(requestPayload.context);
	if (context !== undefined) parts.push(textPart(context));
	for (const url of listOf(requestPayload.artifacts)) parts.push({ content: { $case: "url", value: url }, metadata: undefined, filename: "", mediaType: "" });
	return {
		messageId: id,
		contextId: contextIdOf(facts),
		taskId: id,
		role: Role.ROLE_USER,
		parts,
		metadata: { [ROUTING_EXTENSION]: routingMetadataOf(request) },
		extensions: [],
		referenceTaskIds: [],
	};
}

export function contextIdOf(facts: TaskFacts): string {
	return facts.contextId ?? facts.request.traceId ?? "";
}

/** The answer as one artifact: its text, then each of the response's artifacts as a part. */
export function answerArtifact(facts: TaskFacts): Artifact | null {
	const { response, responsePayload = {} } = facts;
	if (!response) return null;
	const parts: Part[] = [];
	const answer = textOf(responsePayload.answer);
	if (answer !== undefined) parts.push(textPart(answer));
	for (const item of listOf(responsePayload.artifacts)) parts.push(artifactPart(item));
	if (parts.length === 0) return null;
	const id = response.messageId ?? uuidFromText(`a2a-answer\n${facts.request.messageId ?? ""}`);
	return { artifactId: id, name: "answer", description: `the answer of ${response.sourceGroup ?? "the group"}`, parts, metadata: undefined, extensions: [] };
}

export function noteToTask(facts: TaskFacts): Task {
	const { request } = facts;
	const id = request.messageId ?? "";
	const contextId = contextIdOf(facts);
	const status = taskStatusOf(facts);
	const artifact = status.state === TaskState.TASK_STATE_COMPLETED || status.state === TaskState.TASK_STATE_FAILED ? answerArtifact(facts) : null;
	return {
		id,
		contextId,
		status: { state: status.state, message: agentMessage(id, contextId, status.text, `${status.state}\n${status.timestamp}`), timestamp: status.timestamp },
		artifacts: artifact ? [artifact] : [],
		history: [requestAsMessage(facts)],
		metadata: {
			[ROUTING_EXTENSION]: routingMetadataOf(request),
			[NOTE_METADATA_KEY]: { path: request.path, state: request.state ?? "pending", target_group: request.targetGroup ?? null, error_code: request.errorCode ?? null },
		},
	};
}
