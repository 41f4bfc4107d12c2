import type { StreamResponse, Task } from "@a2a-js/sdk";
import { AgentEvent } from "@a2a-js/sdk/server";
import type { AgentExecutionEvent } from "@a2a-js/sdk/server";

// A task's events as the SDK's executors publish them (contract v2, section 8): the task first,
// then a status update for every step its note takes (delivered, retried...), the answer as an
// artifact update just before the status that carries it. Built from the snapshots followTask yields.

export async function* noteEvents(snapshots: AsyncGenerator<Task, void, undefined>): AsyncGenerator<AgentExecutionEvent, void, undefined> {
	let sentArtifacts: number | null = null;
	for await (const task of snapshots) {
		if (sentArtifacts === null) {
			yield AgentEvent.task(task);
			sentArtifacts = task.artifacts.length;
			continue;
		}
		for (const artifact of task.artifacts.slice(sentArtifacts)) {
			yield AgentEvent.artifactUpdate({ taskId: task.id, contextId: task.contextId, artifact, append: false, lastChunk: true, metadata: undefined });
		}
		sentArtifacts = task.artifacts.length;
		yield AgentEvent.statusUpdate({ taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined });
	}
}

/** An executor's event as a stream sends it (SubscribeToTask, which follows the note itself). */
export function asStreamResponse(event: AgentExecutionEvent): StreamResponse {
	switch (event.kind) {
		case "task":
			return { payload: { $case: "task", value: event.data } };
		case "statusUpdate":
			return { payload: { $case: "statusUpdate", value: event.data } };
		case "artifactUpdate":
			return { payload: { $case: "artifactUpdate", value: event.data } };
		case "message":
			return { payload: { $case: "message", value: event.data } };
	}
}
