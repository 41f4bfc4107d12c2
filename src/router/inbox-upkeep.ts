import { isAwaitingAnswer } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { readRawMessage } from "../core/message-parse";
import { basename } from "../core/paths";
import { answerOf } from "../core/request-outcome";
import { WRITE_INTO_OUTBOX } from "../core/routing";
import { isDue, nextDueTime, stampAnswered, stampDead, stampNoteText, stampRetry, timeoutStep } from "../core/stamps";
import { freePathIn } from "./free-names";
import type { PassContext, PassReport } from "./pass-context";

// The inboxes' side of a pass: rule 8 (retries, then TIMEOUT), the notes that appeared in an inbox
// without the router (rule 7: "write into your outbox"), and the steps an interruption left half
// done (a request stamped answered or timed out but not yet moved on). It works from the live index:
// an idle pass reads nothing.

/**
 * Rule 7: only the router writes into inboxes, and every note it puts there bears delivered_at
 * (its deliveries and its own error and timeout responses). Any other stamp (dead_at, state) a note
 * in an inbox has without delivered_at was not the router's.
 */
function deliveredHere(entry: IndexEntry): boolean {
	return entry.deliveredAt !== undefined;
}

export class InboxUpkeep {
	/**
	 * Requests whose answer appeared in the vault while this router ran (not at its start), by path:
	 * when it first saw the answer. See `answerSettled`.
	 */
	private readonly answerSeen = new Map<string, number>();
	/** Answers this router delivered itself (their message ids, the latest few thousand). */
	private readonly answeredHere = new Set<string>();
	private passes = 0;

	constructor(private readonly router: PassContext) {}

	async run(report: PassReport): Promise<void> {
		const router = this.router;
		const now = router.now();
		this.passes++;
		for (const path of [...this.answerSeen.keys()]) if (!router.index.has(path)) this.answerSeen.delete(path);
		for (const decision of report.decisions) {
			if ((decision.outcome === "answered" || decision.outcome === "late") && decision.message_id) this.answeredHere.add(decision.message_id);
		}
		while (this.answeredHere.size > 4096) this.answeredHere.delete(this.answeredHere.values().next().value as string);
		for (const entry of [...router.index.inboxes()]) {
			// Read in part (a one-shot pass), the history is asked through `decide`: a question about a key it was not read for reads the rest first.
			if (!(router.indexSync.hasPartialHistory ? await router.indexSync.decide(() => this.needsCare(entry, now)) : this.needsCare(entry, now))) continue;
			if (router.lease.renewalDue() && !(await router.lease.ensure())) return;
			await router.guarded(entry.path, report, () => this.keep(entry, report));
		}
	}

	/** The keys `run` asks the index about: the ids of the requests waiting in inboxes for an answer (their answers are looked up by them). */
	keysAsked(): Set<string> {
		const keys = new Set<string>();
		for (const entry of this.router.index.inboxes()) if (entry.kind === "request" && entry.messageId !== undefined && isAwaitingAnswer(entry)) keys.add(entry.messageId);
		return keys;
	}

	/** Whether `keep` has anything to do for an entry now (most waiting requests: nothing, and no await). */
	private needsCare(entry: IndexEntry, now: number): boolean {
		if (!deliveredHere(entry)) return true;
		if (entry.kind !== "request") return false;
		if (entry.state === "answered" || entry.state === "timed_out") return true;
		return isAwaitingAnswer(entry) && (this.hasAnswer(entry) || isDue(entry, now));
	}

	private async keep(entry: IndexEntry, report: PassReport): Promise<void> {
		if (!deliveredHere(entry)) return this.refuseArrival(entry, report);
		if (entry.kind !== "request") return;
		if (entry.state === "answered") {
			await this.moveToArchive(entry);
			return;
		}
		if (entry.state === "timed_out") {
			const decision = await this.finishTimeout(entry);
			if (decision) report.decisions.push(decision);
			return;
		}
		if (!isAwaitingAnswer(entry)) return;
		const router = this.router;
		const step = timeoutStep(entry, router.now(), router.registry.communication);
		// A retry or a timeout is decided with the history: an answer already taken into the requester's
		// archive (an interruption kept this request from its own) settles the request instead. A pass
		// that read none of it (it routed nothing) reads first what the waiting requests' ids need.
		const { indexSync } = router;
		if (step && !indexSync.hasHistory && !indexSync.hasPartialHistory) await indexSync.ensureHistoryFor(this.keysAsked());
		if (indexSync.hasPartialHistory ? await indexSync.decide(() => this.hasAnswer(entry)) : this.hasAnswer(entry)) {
			if (this.answerSettled(entry, report)) await this.archive(entry);
			return;
		}
		if (step?.action === "retry") {
			const read = await router.port.read(entry.path);
			if (!read) return;
			const stamped = stampNoteText(read.text, entry.path, "flat", (fm) => stampRetry(fm, step.attempt, step.expiresAt));
			if ((await router.port.replace(entry.path, stamped.text, read)) !== "done") return;
			const updated = router.indexSync.indexFields(entry.path, stamped.fields);
			const decision = router.decision("retried", entry.path, entry.path, updated);
			await router.log.write(decision);
			report.decisions.push(decision);
		} else if (step?.action === "timeout") {
			const decision = await this.finishTimeout(entry);
			if (decision) report.decisions.push(decision);
		}
	}

	/** True when the request's answer was delivered (an interruption kept the request from its archive). */
	private hasAnswer(request: IndexEntry): boolean {
		return answerOf(this.router.index, request) !== undefined;
	}

	/**
	 * Whether a request still in an inbox whose answer is delivered is this router's to archive now.
	 * At the router's start, or for an answer this router delivered: at once (an interruption kept it
	 * from its archive). An answer that comes
	 * in while the router runs was delivered by another device (this router archives the requests it
	 * answers in the same step), and that device archived the request too: its move is on its way
	 * through the sync, the answer may simply have arrived first (after a partition, the other
	 * device's whole work arrives in any order). Stamping and moving this copy now would make a second
	 * archived copy of the request (the sync keeps a changed note over the other side's delete), so
	 * it waits the sync margin from when the answer was first seen here; only a copy still here then
	 * is archived (the other device was interrupted).
	 */
	private answerSettled(request: IndexEntry, report: PassReport): boolean {
		if (this.passes <= 1) return true;
		// An answer this router delivered: the request's move is this router's own, left undone (at once).
		const answer = answerOf(this.router.index, request);
		if (answer?.messageId !== undefined && this.answeredHere.has(answer.messageId)) return true;
		const router = this.router;
		const now = router.now();
		const seen = this.answerSeen.get(request.path) ?? now;
		this.answerSeen.set(request.path, seen);
		const until = seen + router.lease.marginMs;
		if (now >= until) return true;
		report.recheckAt = Math.min(report.recheckAt ?? Infinity, until);
		return false;
	}

	/** Rule 7: a note the router did not deliver, found in an inbox, goes to the dead-letter folder. */
	private async refuseArrival(entry: IndexEntry, report: PassReport): Promise<void> {
		const router = this.router;
		const read = await router.port.read(entry.path);
		if (!read) {
			router.indexSync.remove(entry.path);
			return;
		}
		// A note still being written (by a careless agent) gets the grace period like an outbox note.
		const age = router.now() - read.info.mtime;
		const fresh = router.graceMs > 0 && age < router.graceMs && age > -router.graceMs;
		if (read.text.trim() === "" || fresh) {
			report.waiting.push(entry.path);
			if (fresh) report.recheckAt = Math.min(report.recheckAt ?? Infinity, Math.min(read.info.mtime, router.now()) + router.graceMs);
			return;
		}
		const parsed = readRawMessage(read.text, entry.path);
		const raw = parsed.ok ? parsed.raw : undefined;
		// Whoever the note claims to come from, it was written into this group's inbox: the error response goes there.
		const holder = entry.location.area === "box" ? entry.location.group : "";
		const known = router.layout.hasGroup(holder);
		const decision = await router.reject({ path: entry.path, group: known ? holder : "", read }, "INVALID_MESSAGE", WRITE_INTO_OUTBOX, raw, known);
		if (decision) report.decisions.push(decision);
	}

	/** Marks an answered request answered where it is, then moves it to its group's archive (the month folder). */
	async archive(request: IndexEntry): Promise<void> {
		const router = this.router;
		const read = await router.port.read(request.path);
		if (!read) return;
		const now = router.now();
		const stamped = stampNoteText(read.text, request.path, "flat", (fm) => stampAnswered(fm, now));
		if ((await router.port.replace(request.path, stamped.text, read)) !== "done") return;
		await this.moveToArchive(router.indexSync.indexFields(request.path, stamped.fields));
	}

	private async moveToArchive(request: IndexEntry): Promise<void> {
		const router = this.router;
		if (request.location.area !== "box") return;
		const folder = router.layout.archiveFolder(request.location.group, new Date(router.now()));
		if (!folder) return;
		const dest = await router.writerMove(request.path, folder, basename(request.path), request.messageId ?? basename(request.path));
		router.indexSync.remove(request.path);
		if (dest) await router.indexSync.refresh(dest);
	}

	/**
	 * Rule 8's end: the timeout response to the requester, the request's dead letter (stamped
	 * timed_out), its log row, then the request leaves the inbox.
	 */
	private async finishTimeout(entry: IndexEntry) {
		const router = this.router;
		const read = await router.port.read(entry.path);
		if (!read) throw new Error(`${entry.path} went away during its timeout`);
		const now = router.now();
		const reason = `no response after ${entry.attempt ?? 1} attempt(s); the last one expired at ${entry.expiresAt ?? "an unknown time"}`;
		const id = entry.messageId ?? basename(entry.path);
		const stamped = stampNoteText(read.text, entry.path, "flat", (fm) => {
			if (fm.state !== "timed_out") stampDead(fm, "TIMEOUT", reason, now, "timed_out", id);
		});
		const sender = entry.sourceGroup;
		if (sender && router.layout.hasGroup(sender) && entry.traceId) {
			await router.sendRouterResponse({
				kind: "timeout",
				deadMessageId: id,
				traceId: entry.traceId,
				sender,
				intendedTarget: entry.targetGroup,
				code: "TIMEOUT",
				reason: typeof stamped.fields.error_message === "string" ? stamped.fields.error_message : reason,
				deadLetterPath: await freePathIn(router.port, router.layout.deadLetterFolder, basename(entry.path), id),
				occasion: "",
				now,
			});
		}
		return router.transfer({ path: entry.path, read }, router.layout.deadLetterFolder, id, stamped, "timed_out", { error_code: "TIMEOUT", reason });
	}

	/** The next expiry among the requests waiting in inboxes. */
	nextWakeTime(): number | null {
		const due = nextDueTime(this.router.index.inboxes());
		const margin = this.router.lease.marginMs;
		const settling = Math.min(...[...this.answerSeen.values()].map((seen) => seen + margin));
		return Number.isFinite(settling) ? Math.min(settling, due ?? Infinity) : due;
	}
}
