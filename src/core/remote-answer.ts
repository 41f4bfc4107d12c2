import type { WireMessage, WirePart, WireSendResult, WireTask } from "./a2a-wire";
import { SETTLED_STATES, TASK_STATE } from "./a2a-wire";
import { buildResponse } from "./compose";
import { uuidFromText } from "./hash";
import type { IndexEntry } from "./message-index";
import type { ResponseMessage } from "./message";
import type { RemoteFile } from "./remote-files";
import { oneLine } from "./text";

// What a remote agent's answer becomes (contract v2, section 8): a COMPLETED task (its artifacts,
// else its status message) or a direct Message is a `success` response; FAILED, REJECTED and
// CANCELED are `error` responses carrying the remote's reason; INPUT_REQUIRED and AUTH_REQUIRED are
// `error` responses saying that a person must answer (the relay never answers for one). The
// remote's text is data: it goes into the answer; the links and paths it names are listed, never
// written; file bytes are handed on as files (src/core/remote-files.ts says where and how they are
// saved). An answer over MAX_REMOTE_RESPONSE_BYTES is refused.

export const MAX_REMOTE_RESPONSE_BYTES = 1024 * 1024;

/** Error codes of responses made from a remote agent's answer (error_code is free text, section 3). */
export const REMOTE_ERROR = {
	failed: "REMOTE_FAILED",
	rejected: "REMOTE_REJECTED",
	canceled: "REMOTE_CANCELED",
	inputRequired: "INPUT_REQUIRED",
	authRequired: "AUTH_REQUIRED",
	refused: "REMOTE_ERROR",
	tooLarge: "RESPONSE_TOO_LARGE",
} as const;

export interface RemoteAnswer {
	status: "success" | "error";
	answer?: string;
	artifacts: string[];
	/** File bytes the remote sent (a success only): saved under the requester's artifacts/ folder when they are text. */
	files: RemoteFile[];
	errorCode?: string;
	errorMessage?: string;
}

export type RemoteReading =
	/** The task goes on: ask again later. */
	| { kind: "pending"; taskId: string; state: string }
	| { kind: "final"; taskId?: string; answer: RemoteAnswer };

interface PartsRead {
	texts: string[];
	artifacts: string[];
	files: RemoteFile[];
}

function readParts(parts: WirePart[] | undefined, into: PartsRead): void {
	for (const part of parts ?? []) {
		const listed = typeof part.metadata?.vault_path === "string";
		if (typeof part.text === "string" && !listed) into.texts.push(part.text);
		else if (typeof part.text === "string") into.artifacts.push(oneLine(part.text, 500));
		else if (typeof part.url === "string") into.artifacts.push(oneLine(part.url, 500));
		else if (typeof part.raw === "string") into.files.push({ name: part.filename ?? "", base64: part.raw });
		else if (part.data !== undefined) into.texts.push(`\`\`\`json\n${JSON.stringify(part.data, null, 2)}\n\`\`\``);
	}
}

function messageText(message: WireMessage | undefined): string {
	const read: PartsRead = { texts: [], artifacts: [], files: [] };
	readParts(message?.parts, read);
	return read.texts.join("\n\n").trim();
}

function successOf(read: PartsRead, fallback: string): RemoteAnswer {
	let answer = read.texts.join("\n\n").trim();
	if (answer === "") answer = fallback;
	return { status: "success", answer: answer === "" ? undefined : answer, artifacts: read.artifacts, files: read.files };
}

/** The longest error_message kept in the frontmatter; a longer reason goes whole into `## Answer`. */
export const MAX_ERROR_MESSAGE = 1000;

function error(code: string, message: string): RemoteAnswer {
	if (message.length <= MAX_ERROR_MESSAGE) return { status: "error", errorCode: code, errorMessage: message, artifacts: [], files: [] };
	return { status: "error", errorCode: code, errorMessage: `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…`, answer: message, artifacts: [], files: [] };
}

/** A task id the relay can keep in a note and send back: one line of at most 256 characters. */
export function isKeepableTaskId(id: unknown): id is string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
	return typeof id === "string" && id !== "" && id.length <= 256 && !/[\u0000-\u001f]/.test(id);
}

/** A task read from the remote: pending, or final with the response it becomes. */
export function readRemoteTask(task: WireTask, remote: string): RemoteReading {
	if (!isKeepableTaskId(task.id)) return { kind: "final", answer: error(REMOTE_ERROR.refused, `${remote} answered with a task id the relay cannot keep (it must be one line of at most 256 characters)`) };
	const state = task.status?.state ?? TASK_STATE.submitted;
	const said = messageText(task.status?.message);
	const reason = said !== "" ? said : "no reason given";
	const id = task.id;
	switch (state) {
		case TASK_STATE.completed: {
			const read: PartsRead = { texts: [], artifacts: [], files: [] };
			for (const artifact of task.artifacts ?? []) readParts(artifact.parts, read);
			return { kind: "final", taskId: id, answer: successOf(read, said) };
		}
		case TASK_STATE.failed:
			return { kind: "final", taskId: id, answer: error(REMOTE_ERROR.failed, `${remote} failed the task: ${reason}`) };
		case TASK_STATE.rejected:
			return { kind: "final", taskId: id, answer: error(REMOTE_ERROR.rejected, `${remote} rejected the task: ${reason}`) };
		case TASK_STATE.canceled:
			return { kind: "final", taskId: id, answer: error(REMOTE_ERROR.canceled, `${remote} cancelled the task: ${reason}`) };
		case TASK_STATE.inputRequired:
			return {
				kind: "final",
				taskId: id,
				answer: error(REMOTE_ERROR.inputRequired, `${remote} needs more input, and a person must give it (the relay does not answer for one): ${reason}. Send a new request with what it asks for, or answer its task ${id} with an A2A client.`),
			};
		case TASK_STATE.authRequired:
			return {
				kind: "final",
				taskId: id,
				answer: error(REMOTE_ERROR.authRequired, `${remote} needs someone to authenticate, and a person must do it (the relay does not answer for one): ${reason}. Its task is ${id}.`),
			};
		default:
			return SETTLED_STATES.includes(state) ? { kind: "final", taskId: id, answer: error(REMOTE_ERROR.failed, `${remote} ended the task in state ${state}: ${reason}`) } : { kind: "pending", taskId: id, state };
	}
}

/** SendMessage's answer: a task (pending or final) or a direct message (final: a success). */
export function readRemoteResult(result: WireSendResult, remote: string): RemoteReading {
	if ("task" in result) return readRemoteTask(result.task, remote);
	const read: PartsRead = { texts: [], artifacts: [], files: [] };
	readParts(result.message.parts, read);
	return { kind: "final", taskId: isKeepableTaskId(result.message.taskId) ? result.message.taskId : undefined, answer: successOf(read, "") };
}

/** The answer to a request whose remote answered with more than MAX_REMOTE_RESPONSE_BYTES. */
export function tooLargeAnswer(remote: string, bytes: number): RemoteAnswer {
	return error(REMOTE_ERROR.tooLarge, `${remote} answered with ${bytes} bytes or more; the relay refuses answers over ${MAX_REMOTE_RESPONSE_BYTES} bytes (1 MB) and reads no further`);
}

/** The answer to a request the remote refused outright (a JSON-RPC error, a bad token...). */
export function refusedAnswer(remote: string, reason: string): RemoteAnswer {
	return error(REMOTE_ERROR.refused, `${remote} refused the request: ${oneLine(reason, 500)}`);
}

/** The id of the response made from a remote's answer: one per request, so writing it twice finds the first. */
export function remoteResponseId(requestId: string): string {
	return uuidFromText(`a2a-remote-answer\n${requestId}`);
}

/** The response note a remote's answer becomes, from the remote group to the requester. */
export function remoteResponse(request: Pick<IndexEntry, "messageId" | "traceId" | "sourceGroup" | "targetGroup">, answer: RemoteAnswer, now: number, taskId?: string): ResponseMessage {
	const response = buildResponse({ request, status: answer.status, answer: answer.answer, artifacts: answer.artifacts, errorCode: answer.errorCode, errorMessage: answer.errorMessage }, now);
	response.envelope.message_id = remoteResponseId(request.messageId ?? "");
	if (taskId) response.extra.remote_task_id = taskId;
	return response;
}
