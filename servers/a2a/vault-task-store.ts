import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";
import { listGroupTasks } from "./list-tasks";
import type { VaultTasks } from "./vault-tasks";

// The SDK's task store for one served group, backed by the vault (contract v2, section 8): a task
// of this group is the gateway's request note to it, read wherever the router has put it. Tasks of
// other groups are not found here.
//
// Invariant: the notes are the truth. `save` keeps nothing: whatever the SDK would store (a status
// it merged, a history it grew) is already said by a note, or is not true of the task; a task read
// after a restart is the task read before it.

export class VaultTaskStore implements TaskStore {
	constructor(
		private readonly tasks: VaultTasks,
		readonly group: string,
	) {}

	async load(id: string): Promise<Task | undefined> {
		if (!id || this.tasks.locate(id)?.targetGroup !== this.group) return undefined;
		return (await this.tasks.load(id)) ?? undefined;
	}

	save(): Promise<void> {
		return Promise.resolve();
	}

	list(params: ListTasksRequest): Promise<ListTasksResponse> {
		return listGroupTasks(this.tasks, this.group, params);
	}
}
