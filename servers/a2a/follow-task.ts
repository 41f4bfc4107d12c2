import type { Task } from "@a2a-js/sdk";
import { isFinalTaskState } from "./mapping/note-to-task";
import type { TaskEvents } from "./task-events";

// A task as it changes: the current snapshot first, then one each time the note behind it takes a
// new step, until the task is final, the deadline passes or the caller goes away. It sleeps between
// changes (woken by the vault watcher through TaskEvents); it never polls.

export interface FollowOptions {
	/** Epoch ms after which following stops (the task may still be working). */
	deadline: number;
	signal?: AbortSignal;
}

/** What makes two snapshots of a task different for its follower. */
function snapshotKey(task: Task): string {
	const text = task.status?.message?.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("") ?? "";
	return `${task.status?.state ?? 0}\n${text}\n${task.artifacts.length}`;
}

export async function* followTask(id: string, load: () => Promise<Task | null>, events: TaskEvents, options: FollowOptions): AsyncGenerator<Task, void, undefined> {
	const { deadline, signal } = options;
	let dirty = true;
	let wake: (() => void) | null = null;
	const poke = () => {
		dirty = true;
		wake?.();
	};
	const off = events.on(id, poke);
	const onAbort = () => wake?.();
	signal?.addEventListener("abort", onAbort);
	let last = "";
	try {
		while (!signal?.aborted) {
			if (dirty) {
				dirty = false;
				const task = await load();
				if (!task) return;
				const key = snapshotKey(task);
				if (key !== last) {
					last = key;
					yield task;
				}
				if (isFinalTaskState(task.status?.state)) return;
			}
			const left = deadline - Date.now();
			if (left <= 0) return;
			if (dirty) continue;
			let timer: NodeJS.Timeout | undefined;
			await new Promise<void>((resolve) => {
				wake = resolve;
				timer = setTimeout(resolve, left);
			});
			clearTimeout(timer);
			wake = null;
		}
	} finally {
		off();
		signal?.removeEventListener("abort", onAbort);
	}
}
