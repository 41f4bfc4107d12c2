import { isCopyOf } from "../core/copies";
import type { RoutingDecision } from "../core/decision";
import { isCandidateName } from "../core/file-names";
import type { IndexEntry } from "../core/message-index";
import { basename } from "../core/paths";
import type { Verdict } from "../core/routing";
import { stampDeliveredRequest, stampDeliveredResponse, stampNoteText } from "../core/stamps";
import { messageIdOf } from "./dead-letters";
import type { InboxUpkeep } from "./inbox-upkeep";
import type { NoteWriter } from "./note-writer";
import type { PassContext, QueuedNote } from "./pass-context";

// The verdicts that carry a note on: a request delivered into its target's inbox, a response into
// its requester's (the request it answers then archived), each as the stamped copy of the very text
// the decision read; and a duplicate that is this note's own delivery, interrupted between the copy
// and the removal, finished.

export class Deliveries {
	constructor(
		private readonly router: PassContext,
		private readonly writer: NoteWriter,
		private readonly upkeep: Pick<InboxUpkeep, "archive">,
	) {}

	async deliver(note: QueuedNote, verdict: Extract<Verdict, { action: "deliver" }>): Promise<RoutingDecision | null> {
		const router = this.router;
		const id = messageIdOf(note, verdict.raw);
		const now = router.now();
		const stamp = (fm: Record<string, unknown>) => stampDeliveredRequest(fm, { target: verdict.target, now, settings: router.registry.communication, route: verdict.route, parentId: verdict.parentId, fallbackId: id });
		// The frontmatter as the decision read it: not parsed again.
		const stamped = stampNoteText(note.read.text, note.path, verdict.raw.format, stamp, verdict.raw.block);
		return this.writer.transfer(note, router.layout.box(verdict.target, "inbox") as string, id, stamped, "delivered", {}, true);
	}

	async answer(note: QueuedNote, verdict: Extract<Verdict, { action: "answer" }>): Promise<RoutingDecision | null> {
		const id = messageIdOf(note, verdict.raw);
		const now = this.router.now();
		const stamp = (fm: Record<string, unknown>) => stampDeliveredResponse(fm, { target: verdict.target, now, request: verdict.request, late: verdict.late, fallbackId: id });
		const stamped = stampNoteText(note.read.text, note.path, verdict.raw.format, stamp, verdict.raw.block);
		const decision = await this.writer.transfer(note, this.router.layout.box(verdict.target, "inbox") as string, id, stamped, verdict.late ? "late" : "answered");
		if (decision && verdict.request && !verdict.late) await this.upkeep.archive(verdict.request);
		return decision;
	}

	/**
	 * A note whose message is already where the router carries it: when that copy was made from this
	 * very note (a pass interrupted between the copy and the removal), the delivery is finished.
	 */
	async finishInterrupted(note: QueuedNote, existing: IndexEntry): Promise<RoutingDecision | null> {
		const router = this.router;
		// The copy is at one of this note's own names, and says what the note says.
		if (!isCandidateName(basename(note.path), existing.messageId, basename(existing.path))) return null;
		const copy = await router.port.read(existing.path);
		if (!copy || !isCopyOf(copy.text, existing.path, note.read.text, note.path)) return null;
		const outcome = existing.kind === "response" ? (existing.late ? "late" : "answered") : "delivered";
		const decision = router.decision(outcome, existing.path, note.path, existing, { reason: "finished after an interruption" });
		if (!(await router.log.hasRow(decision))) await router.log.write(decision);
		await router.port.remove(note.path, note.read);
		router.indexSync.remove(note.path);
		return decision;
	}
}
