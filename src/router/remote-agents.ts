import type { WireSendParams, WireSendResult } from "../core/a2a-wire";
import type { GroupEntry } from "../core/registry";

// The narrow port through which the router calls remote A2A agents (groups with `url:`, contract v2
// section 8). The router stays free of Node and Obsidian: the CLI gives it an adapter over the
// official @a2a-js/sdk client (servers/a2a/sdk-remote-agents.ts), the plugin one over Obsidian's
// requestUrl (src/obsidian/request-url-remote-agents.ts). Adapters never throw: every outcome of a
// call is one of these values, and `bytes` is the size of the answer as it came over the wire.

export type RemoteCall =
	| { ok: true; result: WireSendResult; bytes: number }
	/**
	 * `transport`: the call may not have reached the agent or its answer was lost (network, HTTP 5xx,
	 * a timeout): try again later. `refused`: the agent answered with an error (JSON-RPC error, HTTP
	 * 4xx, a bad token): trying again gives the same. `not_found`: GetTask does not know the task.
	 */
	| { ok: false; kind: "transport" | "refused" | "not_found"; reason: string }
	/** The answer was larger than MAX_REMOTE_RESPONSE_BYTES (`bytes`: as much as was read or announced). */
	| { ok: false; kind: "too_large"; bytes: number; reason: string };

export interface RemoteAgents {
	/** SendMessage to the group's agent. */
	send(group: GroupEntry, params: WireSendParams, signal: AbortSignal): Promise<RemoteCall>;
	/** GetTask on the group's agent; a success's result is `{ task }`. */
	getTask(group: GroupEntry, taskId: string, signal: AbortSignal): Promise<RemoteCall>;
	/**
	 * The agent's task for the message `messageId` of context `contextId` (ListTasks, looking for the
	 * message in each task's history): `{ task }`, or `not_found`. `refused` when the agent cannot
	 * list its tasks.
	 */
	findTask(group: GroupEntry, contextId: string, messageId: string, signal: AbortSignal): Promise<RemoteCall>;
	/** CancelTask on the group's agent (after the relay's TIMEOUT: nobody waits for the task any more). */
	cancelTask(group: GroupEntry, taskId: string, signal: AbortSignal): Promise<RemoteCall>;
}
