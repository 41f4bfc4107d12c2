import { TaskState } from "@a2a-js/sdk";
import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { uuidFromText } from "../../src/core/hash";
import type { IndexEntry } from "../../src/core/message-index";
import { parseTime } from "../../src/core/time";
import { noteToTask, taskStatusOf } from "./mapping/note-to-task";
import type { VaultTasks } from "./vault-tasks";

// ListTasks over the vault (the task store's `list`): the gateway's requests to one group, newest
// status first (then by id, as the SDK's own store orders them), filtered by contextId, state and
// time, in pages with an opaque cursor. The SDK's handler has checked the page size and the filters
// and cuts each task's history. States and times come from the index alone; only the tasks of the
// page (or those whose contextId must be checked) are read from their notes.

const DEFAULT_PAGE_SIZE = 50;

const cursorOf = (timestamp: string, id: string) => Buffer.from(`${timestamp}|${id}`).toString("base64");

function readCursor(token: string): { timestamp: string; id: string } {
	const [timestamp, ...rest] = Buffer.from(token, "base64").toString("utf8").split("|");
	if (rest.length === 0) throw new RequestMalformedError("pageToken is not a token this server gave");
	return { timestamp, id: rest.join("|") };
}

interface Row {
	entry: IndexEntry;
	state: TaskState;
	timestamp: string;
}

export async function listGroupTasks(tasks: VaultTasks, group: string, params: ListTasksRequest): Promise<ListTasksResponse> {
	const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
	const wanted = params.status ?? TaskState.TASK_STATE_UNSPECIFIED;
	// A time without a zone is UTC, as everywhere in the relay (Date.parse would read it as local time).
	const after = params.statusTimestampAfter ? parseTime(params.statusTimestampAfter) : undefined;
	if (after !== undefined && Number.isNaN(after)) throw new RequestMalformedError("statusTimestampAfter must be a valid ISO 8601 date string");

	const context = params.contextId;
	const traces = context ? new Set([context.toLowerCase(), uuidFromText(`a2a-context\n${context}`)]) : null;
	let rows: Row[] = [];
	for (const entry of tasks.requests()) {
		if (entry.targetGroup !== group || !entry.messageId) continue;
		if (traces && !traces.has(entry.traceId ?? "")) continue;
		const status = taskStatusOf({ request: entry, response: tasks.response(entry) });
		if (wanted !== TaskState.TASK_STATE_UNSPECIFIED && status.state !== wanted) continue;
		// statusTimestampAfter includes a task whose status time equals it (the specification: greater than or equal).
		if (after !== undefined && !(parseTime(status.timestamp) >= after)) continue;
		rows.push({ entry, state: status.state, timestamp: status.timestamp });
	}
	const full = new Map<string, Task>();
	if (context) {
		// The trace narrows the search; the task's own contextId (kept in its note) decides.
		const kept: Row[] = [];
		for (const row of rows) {
			const task = noteToTask(await tasks.facts(row.entry));
			if (task.contextId !== context) continue;
			full.set(task.id, task);
			kept.push(row);
		}
		rows = kept;
	}
	rows.sort((a, b) => (a.timestamp !== b.timestamp ? (a.timestamp < b.timestamp ? 1 : -1) : (a.entry.messageId ?? "") < (b.entry.messageId ?? "") ? 1 : -1));
	const totalSize = rows.length;
	if (params.pageToken) {
		const cursor = readCursor(params.pageToken);
		const at = rows.findIndex((r) => r.timestamp === cursor.timestamp && r.entry.messageId === cursor.id);
		rows = at === -1 ? [] : rows.slice(at + 1);
	}
	const page = rows.slice(0, pageSize);
	const out: Task[] = [];
	for (const row of page) {
		const id = row.entry.messageId ?? "";
		let task = full.get(id) ?? noteToTask(await tasks.facts(row.entry));
		if (params.includeArtifacts !== true) task = { ...task, artifacts: [] };
		out.push(task);
	}
	const last = page[page.length - 1];
	const nextPageToken = last && rows.length > page.length ? cursorOf(last.timestamp, last.entry.messageId ?? "") : "";
	return { tasks: out, nextPageToken, pageSize, totalSize };
}
