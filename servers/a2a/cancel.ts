import { isWaitingState } from "../../src/core/message-index";
import type { IndexEntry } from "../../src/core/message-index";
import { basename } from "../../src/core/paths";
import { stampDead, stampNoteText } from "../../src/core/stamps";
import { editNote } from "../../src/router/edit-note";
import { moveUnderFreeName } from "../../src/router/free-names";
import type { Router } from "../../src/router/router";
import type { KeyedLock } from "./keyed-lock";
import { taskStatusOf } from "./mapping/note-to-task";
import { TaskState } from "@a2a-js/sdk";
import type { VaultTasks } from "./vault-tasks";

// CancelTask takes a request that is not answered yet out of the flow: the note moves (the port's
// atomic move, which never overwrites) from the gateway's outbox or the target's inbox into the
// dead letters under a free name, and is then stamped `state: dead`, `error_code: CANCELED`, with a
// row in the routing log. The router then treats it like any dead letter: it is not delivered,
// timed out or archived, and an answer that comes later is refused. A note moved but not yet
// stamped (the server stopped in between) already reads as cancelled and is stamped at start.
//
// The router runs in another process: if it delivers the note at the very moment it is cancelled,
// a delivered copy can appear in the target's inbox after the move. A second look a moment later
// cancels such a copy too, so the task stays cancelled and no note is lost.

export const CANCEL_REASON = "cancelled by an A2A client (CancelTask)";
const STRAY_CHECK_MS = 1000;

export type CancelOutcome = "canceled" | "already-canceled" | "final" | "missing";

export class Canceller {
	private readonly timers = new Set<NodeJS.Timeout>();

	constructor(
		private readonly router: Router,
		private readonly tasks: VaultTasks,
		private readonly lock: KeyedLock,
		private readonly onChange: (ids: string[]) => void,
		private readonly clock: () => number = Date.now,
	) {}

	cancel(id: string): Promise<CancelOutcome> {
		return this.lock.run(id, () => this.cancelLocked(id));
	}

	private async cancelLocked(id: string): Promise<CancelOutcome> {
		for (let attempt = 0; attempt < 5; attempt++) {
			const request = this.tasks.locate(id);
			if (!request) return "missing";
			const status = taskStatusOf(await this.tasks.facts(request));
			if (status.state === TaskState.TASK_STATE_CANCELED) return "already-canceled";
			if (status.state !== TaskState.TASK_STATE_WORKING) return "final";
			const fromOutbox = request.location.area === "box" && request.location.box === "outbox";
			const dest = await this.takeOut(request, id);
			if (dest === null) {
				// The router moved the note first: look where it is now, and decide again.
				await this.tasks.refresh([request.path]);
				await this.router.indexSync.rescan(true, false);
				continue;
			}
			if (fromOutbox) this.checkForStrayCopy(id);
			return "canceled";
		}
		return "final";
	}

	/** Moves the request into the dead letters and stamps it cancelled; null when it was no longer there. */
	private async takeOut(request: IndexEntry, id: string): Promise<string | null> {
		const { port, layout } = this.router;
		const folder = layout.deadLetterFolder;
		await port.ensureFolder(folder);
		const dest = await moveUnderFreeName(port, request.path, folder, basename(request.path), id);
		if (dest === null) return null;
		await this.stamp(dest);
		await this.tasks.refresh([request.path, dest]);
		const now = this.clock();
		await this.router.log.write({
			outcome: "rejected",
			path: dest,
			from: request.path,
			message_id: id,
			trace_id: request.traceId,
			source_group: request.sourceGroup,
			target_group: request.targetGroup,
			error_code: "CANCELED",
			reason: CANCEL_REASON,
			time: now,
		});
		this.onChange([id]);
		return dest;
	}

	/** Stamps a request moved into the dead letters as cancelled (again harmlessly when it already is). */
	async stamp(path: string): Promise<void> {
		const now = this.clock();
		await editNote(this.router.port, path, (text) =>
			stampNoteText(text, path, "flat", (fm) => {
				if (fm.error_code !== "CANCELED" || fm.state !== "dead") stampDead(fm, "CANCELED", CANCEL_REASON, now);
			}).text,
		);
	}

	/**
	 * Requests of the gateway found in the dead letters without the router's dead-letter stamp: a
	 * cancel that stopped between its move and its stamp. Stamped now.
	 */
	async finishInterrupted(): Promise<void> {
		for (const request of this.tasks.requests()) {
			if (request.location.area === "dead-letter" && request.deadAt === undefined) {
				await this.stamp(request.path);
				await this.tasks.refresh([request.path]);
			}
		}
	}

	private checkForStrayCopy(id: string): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			void this.lock.run(id, async () => {
				for (const copy of this.router.index.withId(id)) {
					const inInbox = copy.location.area === "box" && copy.location.box === "inbox" && copy.kind === "request";
					if (inInbox && isWaitingState(copy.state)) await this.takeOut(copy, id);
				}
			}).catch(() => undefined);
		}, STRAY_CHECK_MS);
		this.timers.add(timer);
	}

	stop(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}
}
