import type { RoutingDecision } from "../core/decision";
import { isAwaitingAnswer } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { sortForRouting } from "../core/priority";
import type { RemoteReading } from "../core/remote-answer";
import { parseTime } from "../core/time";
import { ForwardOutcomes } from "./forward-outcomes";
import { ForwardRecord, REMOTE_TASK_FIELD, RESENT_FIELD } from "./forward-record";
import type { PassContext, PassReport } from "./pass-context";
import type { RemoteAgents } from "./remote-agents";
import { RemoteCalls } from "./remote-calls";
import type { Timers } from "./remote-calls";

// Requests to remote groups (registry entries with `url:`, contract v2 section 8). The router
// delivers such a request into the remote group's inbox like any other (that inbox is its record,
// for people to see); then this forwarder, outside the pass, sends it with SendMessage, stamps it
// `state: forwarded` with `forwarded_at` and `remote_task_id`, follows the task with GetTask, and
// when the task is final has the response note written into the requester's inbox (same trace) and
// the request archived, as for a local answer (src/router/forward-outcomes.ts). Network work never
// holds a pass: each request is a background job, at most `maxInFlight` at once, started in routing
// order.
//
// Invariants: the message id is the note's, so a re-send is the same message; a request with a
// recorded task id is never sent again while the remote knows that task (GetTask first), so a
// restarted router does not repeat completed work; a transport error on the send leaves the request
// `delivered`, and rule 8 (the inbox upkeep) retries or times it out; a forwarded task not final by
// `expires_at` follows rule 8's schedule here (attempt + 1 with a doubled wait, then TIMEOUT); a
// request delivered before this forwarder started and not sent by it may have been sent by a router
// that stopped before recording it, and a send that failed in transit may have reached the remote:
// either way the remote is asked for a task holding its message first.

export interface ForwarderOptions {
	remotes: RemoteAgents;
	/** Requests followed at once (default 8); the others wait for a free slot. */
	maxInFlight?: number;
	/** The first and the longest wait between two GetTask calls, ms (default 10 and 1000; each wait doubles). */
	pollMs?: { first: number; max: number };
	/** The host's timers (Node's, or the window's inside Obsidian): the router names neither. */
	timers: Timers;
}

const attemptOf = (fields: Record<string, unknown>): number => (typeof fields.attempt === "number" ? fields.attempt : 1);
const resentThisAttempt = (fields: Record<string, unknown>): boolean => fields[RESENT_FIELD] === attemptOf(fields);

function sleeper(timers: Timers) {
	return (ms: number, signal: AbortSignal): Promise<void> =>
		new Promise((resolve) => {
			if (signal.aborted) return resolve();
			const timer = timers.set(done, ms);
			function done() {
				timers.clear(timer);
				signal.removeEventListener("abort", done);
				resolve();
			}
			signal.addEventListener("abort", done);
		});
}

class Stopped extends Error {}

export class Forwarder {
	private readonly jobs = new Map<string, Promise<void>>();
	/** The attempt whose send failed with a transport error, by message id: rule 8 moves it on. */
	private readonly failedAttempt = new Map<string, number>();
	private readonly decisions: RoutingDecision[] = [];
	private readonly problems: { path: string; error: string }[] = [];
	private abort = new AbortController();
	private readonly maxInFlight: number;
	private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
	/** Called when a job settles (the watch loop wakes to report it). */
	onSettled: (() => void) | null = null;
	/** When this forwarder started: a request delivered before may have been sent by a router that stopped. */
	private readonly startedAt: number;
	/** Requests this forwarder has sent (any attempt). */
	private readonly sentHere = new Set<string>();
	private readonly outcomes: ForwardOutcomes;
	private readonly remote: RemoteCalls;
	private readonly notes: ForwardRecord;

	constructor(
		private readonly router: PassContext,
		private readonly options: ForwarderOptions,
	) {
		this.maxInFlight = Math.max(1, options.maxInFlight ?? 8);
		this.sleep = sleeper(options.timers);
		this.startedAt = router.now();
		this.outcomes = new ForwardOutcomes(router);
		this.notes = new ForwardRecord(router, this.outcomes, () => this.check(), this.decisions);
		this.remote = new RemoteCalls(router, options.remotes, options.timers, () => this.check(), () => this.abort.signal, (problem) => this.problems.push(problem));
	}

	/** True for a group whose requests this forwarder sends. */
	isRemote(group: string | undefined): boolean {
		return group !== undefined && this.router.registry.groups.get(group)?.url !== undefined;
	}

	/** True when the registry has a remote group (`url:`). */
	hasRemoteGroups(): boolean {
		for (const group of this.router.registry.groups.values()) if (group.url !== undefined) return true;
		return false;
	}

	inFlight(): number {
		return this.jobs.size;
	}

	/**
	 * At the end of a pass: reports what the jobs did since the last pass, and starts a job for each
	 * request waiting in a remote group's inbox that has none (up to the bound).
	 */
	scan(report?: PassReport): void {
		if (report) {
			report.decisions.push(...this.decisions.splice(0));
			report.failures.push(...this.problems.splice(0));
		}
		if (this.abort.signal.aborted || this.jobs.size >= this.maxInFlight) return;
		// Sent in routing order (high priority first, then the oldest) when more wait than may go at once.
		const waiting = sortForRouting([...this.router.index.inboxes()].filter((entry) => this.wants(entry)));
		for (const entry of waiting) {
			if (this.jobs.size >= this.maxInFlight) return;
			const id = entry.messageId as string;
			const job = this.follow(entry)
				.catch((error: unknown) => {
					if (!(error instanceof Stopped)) this.problems.push({ path: entry.path, error: `forwarding to ${entry.targetGroup ?? "?"}: ${error instanceof Error ? error.message : String(error)}` });
				})
				.finally(() => {
					this.jobs.delete(id);
					this.scan();
					this.onSettled?.();
				});
			this.jobs.set(id, job);
		}
	}

	private wants(entry: IndexEntry): boolean {
		if (entry.kind !== "request" || !entry.messageId || this.jobs.has(entry.messageId)) return false;
		if (entry.location.area !== "box" || entry.location.box !== "inbox" || !this.isRemote(entry.location.group)) return false;
		if (entry.state === "forwarded") return true;
		// A delivered request whose send failed waits for rule 8 to retry it (a new attempt).
		return isAwaitingAnswer(entry) && this.failedAttempt.get(entry.messageId) !== (entry.attempt ?? 1);
	}

	/** Waits until no job runs, or `limitMs` passed; true when all settled. */
	async settled(limitMs: number): Promise<boolean> {
		const end = Date.now() + limitMs;
		while (this.jobs.size > 0) {
			const left = end - Date.now();
			if (left <= 0) return false;
			await Promise.race([Promise.allSettled([...this.jobs.values()]), this.sleep(Math.min(left, 1000), this.abort.signal)]);
		}
		return true;
	}

	/** Report what happened since the last pass (for a last report after `settled`). */
	take(report: PassReport): void {
		report.decisions.push(...this.decisions.splice(0));
		report.failures.push(...this.problems.splice(0));
	}

	/** Stops every job (their requests stay as recorded; the next router picks them up). */
	async stop(): Promise<void> {
		this.abort.abort();
		await Promise.allSettled([...this.jobs.values()]);
		this.abort = new AbortController();
	}

	private check(): void {
		if (this.abort.signal.aborted || !this.router.lease.state().held) throw new Stopped();
	}

	private async follow(entry: IndexEntry): Promise<void> {
		const id = entry.messageId as string;
		const group = this.router.registry.groups.get(entry.targetGroup ?? "");
		if (!group?.url) return;
		if (this.outcomes.answered(entry)) return this.outcomes.archive(entry.path);
		let read = await this.router.port.read(entry.path);
		if (!read) return;
		let fields = this.notes.fieldsOf(read);
		if (!fields) return;
		let reading: RemoteReading | null = null;
		const recordedTask = fields[REMOTE_TASK_FIELD];
		let taskId = typeof recordedTask === "string" ? recordedTask : undefined;
		/** True when the remote no longer knows the task recorded in the note. */
		let forgotten = false;
		if (fields.state === "forwarded" && taskId !== undefined) {
			const asked = await this.remote.getTask(group, taskId, this.remote.deadlineOf(fields));
			if (asked === "not_found") forgotten = true;
			else reading = asked ?? { kind: "pending", taskId, state: "unknown" };
		}
		if (reading === null && forgotten && resentThisAttempt(fields)) {
			// Sent again once in this attempt already (by this router or one before it): rule 8 decides at expires_at.
			reading = { kind: "pending", taskId: taskId as string, state: "forgotten" };
		}
		if (reading === null && this.maySentBefore(id, fields)) {
			// A router that stopped between its send and its record may have sent it: ask before sending.
			const found = await this.remote.findTask(group, fields);
			if (found !== null) {
				reading = found;
				taskId = found.taskId;
				const recorded = await this.notes.record(entry, group, taskId);
				if (!recorded) return;
				[read, fields] = recorded;
			}
		}
		if (reading === null) {
			const attempt = attemptOf(fields);
			this.sentHere.add(id);
			const sent = await this.remote.send(group, read, fields);
			if (sent === null && !forgotten) {
				this.failedAttempt.set(id, attempt);
				return;
			}
			this.failedAttempt.delete(id);
			if (sent === null) reading = { kind: "pending", taskId: taskId as string, state: "forgotten" };
			else {
				reading = sent;
				taskId = sent.taskId;
			}
			const recorded = await this.notes.record(entry, group, sent?.taskId, forgotten ? attempt : undefined);
			if (!recorded) return;
			[read, fields] = recorded;
		}
		let wait = this.options.pollMs?.first ?? 10;
		while (reading.kind === "pending") {
			const deadline = this.remote.deadlineOf(fields);
			const now = this.router.now();
			if (now >= deadline) {
				const next = await this.notes.expired(entry.path);
				if (next === "timed_out") await this.remote.cancel(group, reading.taskId);
				if (next === null || next === "timed_out") return;
				[read, fields] = next;
				continue;
			}
			await this.sleep(Math.min(wait, deadline - now), this.abort.signal);
			this.check();
			wait = Math.min(wait * 2, this.options.pollMs?.max ?? 1000);
			if (this.router.now() >= deadline) continue;
			const asked = await this.remote.getTask(group, reading.taskId, deadline);
			if (asked === "not_found") {
				if (resentThisAttempt(fields)) {
					// Forgotten again: this remote does not keep its tasks. Rule 8 decides at expires_at.
					this.problems.push({ path: entry.path, error: `${group.id} (${group.url ?? ""}) does not know its task ${reading.taskId} any more; the message was sent again once in this attempt; rule 8 tries again at expires_at` });
					await this.sleep(deadline - this.router.now(), this.abort.signal);
					this.check();
					continue;
				}
				// The remote forgot the task (it restarted without keeping tasks): the same message again, once per attempt, recorded in the note.
				const again = await this.remote.send(group, read, fields);
				if (again !== null) reading = again;
				const recorded = await this.notes.record(entry, group, again?.taskId, attemptOf(fields));
				if (!recorded) return;
				[read, fields] = recorded;
			} else if (asked !== null) reading = asked;
		}
		this.check();
		const decision = await this.outcomes.answer(entry.path, reading.answer, reading.taskId ?? taskId);
		if (decision) this.decisions.push(decision);
	}

	/**
	 * True when the remote may hold the request already: this router's send of it failed in transit
	 * (the remote may have taken it and the answer been lost), or another router (before this one
	 * started) may have sent it without recording it.
	 */
	private maySentBefore(id: string, fields: Record<string, unknown>): boolean {
		if (this.failedAttempt.has(id)) return true;
		if (this.sentHere.has(id)) return false;
		const since = Math.max(parseTime(fields.delivered_at), parseTime(fields.forwarded_at) || 0);
		return Number.isNaN(since) || since < this.startedAt;
	}
}
