import type { StreamResponse, Task, TaskState } from "@a2a-js/sdk";
import { isTerminal } from "./mapping/note-to-task";

// SendStreamingMessage's events (contract v2, section 8): the task first, then a status update for
// every step the note takes (written, delivered, retried...), the answer as an artifact update
// just before the final status. Built from the snapshots followTask yields.

export async function* taskStream(snapshots: AsyncGenerator<Task, void, undefined>, firstState?: TaskState): AsyncGenerator<StreamResponse, void, undefined> {
	let first = true;
	let sentArtifacts = 0;
	for await (const task of snapshots) {
		if (first) {
			first = false;
			const shown = firstState !== undefined && !isTerminal(task.status?.state) ? { ...task, status: task.status && { ...task.status, state: firstState } } : task;
			yield { payload: { $case: "task", value: shown } };
			sentArtifacts = shown.artifacts.length;
			if (isTerminal(task.status?.state) || shown === task) continue;
		}
		for (const artifact of task.artifacts.slice(sentArtifacts)) {
			yield { payload: { $case: "artifactUpdate", value: { taskId: task.id, contextId: task.contextId, artifact, append: false, lastChunk: true, metadata: undefined } } };
		}
		sentArtifacts = task.artifacts.length;
		yield { payload: { $case: "statusUpdate", value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined } } };
	}
}

