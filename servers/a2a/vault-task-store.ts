import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { listGroupTasks } from "./list-tasks";
import type { VaultTasks } from "./vault-tasks";

// The SDK's task store for one served group, backed by the vault (contract v2, section 8): a task
// of this group is the gateway's request note to it, read wherever the router has put it. Tasks of
// other groups are not found here.
//
// Invariant: the notes are the truth. `save` keeps nothing: whatever the SDK would store (a status
// it merged, a history it grew) is already said by a note, or is not true of the task; a task read
// after a restart is the task read before it.
//
// The one exception to reading the vault: the executor hands over the task it has just read and
// publishes, and the same call's reads of that task get it until the current turn of the event loop
// ends. Those are the SDK's own reads right after an event is published (its ResultManager merging
// the event, the event mapped for the wire): no watcher event can be handled before they run, so the
// vault read again would say the same. A read in a later turn reads the vault.

export class VaultTaskStore implements TaskStore {
	private readonly handed = new WeakMap<ServerCallContext, Task>();

	constructor(
		private readonly tasks: VaultTasks,
		readonly group: string,
	) {}

	async load(id: string, context?: ServerCallContext): Promise<Task | undefined> {
		if (!id) return undefined;
		const handed = context === undefined ? undefined : this.handed.get(context);
		if (handed?.id === id) return handed;
		return (await this.tasks.load(id, this.group)) ?? undefined;
	}

	/** The task the executor of call `context` has just read (and publishes): that call's reads of it get it until this turn of the event loop ends. */
	handOver(context: ServerCallContext, task: Task): void {
		this.handed.set(context, task);
		setImmediate(() => {
			if (this.handed.get(context) === task) this.handed.delete(context);
		});
	}

	save(): Promise<void> {
		return Promise.resolve();
	}

	list(params: ListTasksRequest): Promise<ListTasksResponse> {
		return listGroupTasks(this.tasks, this.group, params);
	}
}
