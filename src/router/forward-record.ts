import type { RoutingDecision } from "../core/decision";
import { isInFlightState } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { readRawMessage } from "../core/message-parse";
import type { GroupEntry } from "../core/registry";
import { forwardedTimeoutStep, iso, stampNoteText, stampRetry } from "../core/stamps";
import type { ForwardOutcomes } from "./forward-outcomes";
import type { PassContext } from "./pass-context";
import type { ReadFile } from "./vault-port";

// What the forwarder writes into a request while its remote task runs: `state: forwarded` with the
// remote's task id (and the attempt in which the message was sent again), and rule 8's next attempt
// or TIMEOUT at expires_at. Each stamp is applied to the note where it is, again if someone changed
// it meanwhile, and never to a request that is settled; each is logged.

export const REMOTE_TASK_FIELD = "remote_task_id";
/** The attempt in which the message was sent again because the remote forgot its task (once per attempt). */
export const RESENT_FIELD = "resent_attempt";

export class ForwardRecord {
	constructor(
		private readonly router: PassContext,
		private readonly outcomes: ForwardOutcomes,
		/** Throws when the forwarder stopped or lost the lease. */
		private readonly check: () => void,
		private readonly decisions: RoutingDecision[],
	) {}

	/**
	 * Stamps the request forwarded (with the remote's task id) where it is, and logs it; with
	 * `resentIn`, also that the message was sent again in that attempt because the remote forgot its task.
	 */
	async record(entry: IndexEntry, group: GroupEntry, taskId: string | undefined, resentIn?: number): Promise<[ReadFile, Record<string, unknown>] | null> {
		const recorded = await this.restamp(entry.path, (fm) => {
			fm.state = "forwarded";
			if (typeof fm.forwarded_at !== "string") fm.forwarded_at = iso(this.router.now());
			if (taskId !== undefined) fm[REMOTE_TASK_FIELD] = taskId;
			if (resentIn !== undefined) fm[RESENT_FIELD] = resentIn;
		});
		if (!recorded) return null;
		const decision = this.router.decision("forwarded", entry.path, entry.path, entry, { reason: `sent to ${group.url ?? ""}${taskId ? ` (task ${taskId})` : ""}` });
		await this.router.log.write(decision);
		this.decisions.push(decision);
		return recorded;
	}

	fieldsOf(read: ReadFile): Record<string, unknown> | null {
		const parsed = readRawMessage(read.text, read.info.path);
		return parsed.ok ? parsed.raw.fields : null;
	}

	/** Applies a stamp to the note where it is (again, if someone changed it meanwhile); null when it is gone or settled. */
	private async restamp(path: string, edit: (fm: Record<string, unknown>) => void): Promise<[ReadFile, Record<string, unknown>] | null> {
		for (let tries = 0; tries < 3; tries++) {
			this.check();
			const read = await this.router.port.read(path);
			if (!read) return null;
			const fields = this.fieldsOf(read);
			if (!fields || !isInFlightState(fields.state)) return null;
			const stamped = stampNoteText(read.text, path, "flat", edit);
			if ((await this.router.port.replace(path, stamped.text, read)) === "done") {
				this.router.indexSync.indexFields(path, stamped.fields);
				const after = await this.router.port.read(path);
				return after ? [after, stamped.fields] : null;
			}
		}
		return null;
	}

	/** Rule 8 for a forwarded task not final by expires_at: one more attempt with a doubled wait, or TIMEOUT. */
	async expired(path: string): Promise<[ReadFile, Record<string, unknown>] | "timed_out" | null> {
		const entry = this.router.index.get(path);
		if (!entry) return null;
		const step = forwardedTimeoutStep(entry, this.router.now(), this.router.registry.communication);
		if (step?.action === "retry") {
			const next = await this.restamp(path, (fm) => {
				const state = fm.state;
				stampRetry(fm, step.attempt, step.expiresAt);
				fm.state = state;
			});
			if (next) {
				const updated = this.router.index.get(path);
				const decision = this.router.decision("retried", path, path, updated, { reason: `the remote task is not finished; waiting until ${step.expiresAt}` });
				await this.router.log.write(decision);
				this.decisions.push(decision);
			}
			return next;
		}
		if (step?.action === "timeout") {
			const decision = await this.outcomes.timeout(path, entry);
			if (decision) this.decisions.push(decision);
			return "timed_out";
		}
		return null;
	}
}
