// A2A protocol v1.0 as it travels over JSON-RPC: the plain JSON shapes (proto3 JSON names) of the
// few objects the relay sends and reads when it calls a remote agent. They are plain data, so the
// same mapping serves the CLI (which hands them to @a2a-js/sdk's codecs) and the plugin (which
// posts them itself through Obsidian's requestUrl). Only the fields the relay uses are named.

export interface WirePart {
	text?: string;
	/** A file by reference (for the relay: a vault path, or a link). */
	url?: string;
	/** File bytes, base64. */
	raw?: string;
	data?: unknown;
	filename?: string;
	mediaType?: string;
	metadata?: Record<string, unknown>;
}

export interface WireMessage {
	messageId: string;
	contextId?: string;
	taskId?: string;
	/** "ROLE_USER" or "ROLE_AGENT". */
	role: string;
	parts: WirePart[];
	metadata?: Record<string, unknown>;
	extensions?: string[];
}

export interface WireArtifact {
	artifactId?: string;
	name?: string;
	description?: string;
	parts: WirePart[];
	metadata?: Record<string, unknown>;
}

export interface WireTaskStatus {
	state: string;
	message?: WireMessage;
	timestamp?: string;
}

export interface WireTask {
	id: string;
	contextId?: string;
	status?: WireTaskStatus;
	artifacts?: WireArtifact[];
	history?: WireMessage[];
	metadata?: Record<string, unknown>;
}

export interface WireSendParams {
	message: WireMessage;
	configuration?: { returnImmediately?: boolean; acceptedOutputModes?: string[] };
	metadata?: Record<string, unknown>;
}

/** What SendMessage answers: a task, or (for a one-shot agent) a message. */
export type WireSendResult = { task: WireTask } | { message: WireMessage };

export const TASK_STATE = {
	submitted: "TASK_STATE_SUBMITTED",
	working: "TASK_STATE_WORKING",
	completed: "TASK_STATE_COMPLETED",
	failed: "TASK_STATE_FAILED",
	canceled: "TASK_STATE_CANCELED",
	rejected: "TASK_STATE_REJECTED",
	inputRequired: "TASK_STATE_INPUT_REQUIRED",
	authRequired: "TASK_STATE_AUTH_REQUIRED",
} as const;

/** The states after which a task changes no more without someone else acting. */
export const SETTLED_STATES: readonly string[] = [TASK_STATE.completed, TASK_STATE.failed, TASK_STATE.canceled, TASK_STATE.rejected, TASK_STATE.inputRequired, TASK_STATE.authRequired];

/** The JSON-RPC method names of A2A v1.0 the relay calls. */
export const A2A_METHOD = { send: "SendMessage", getTask: "GetTask", listTasks: "ListTasks", cancelTask: "CancelTask" } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Of a ListTasks result (`{ tasks: [...] }`), the task whose history holds the message `messageId` (or whose id it is). */
export function taskWithMessage(listResult: unknown, messageId: string): WireTask | null {
	const tasks = isObject(listResult) && Array.isArray(listResult.tasks) ? listResult.tasks : [];
	for (const task of tasks) {
		if (!isObject(task) || typeof task.id !== "string") continue;
		const history = Array.isArray(task.history) ? task.history : [];
		if (task.id === messageId || history.some((m) => isObject(m) && m.messageId === messageId)) return task as unknown as WireTask;
	}
	return null;
}

/** The protocol version header value every call carries (A2A-Version). */
export const A2A_VERSION = "1.0";
