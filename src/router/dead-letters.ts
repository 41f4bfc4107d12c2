import { YamlError } from "../core/frontmatter";
import { uuidFromText } from "../core/hash";
import { isAcceptableMessageId, isUuidShaped } from "../core/ids";
import { readRawMessage } from "../core/message-parse";
import type { RawMessage } from "../core/message-parse";
import { basename } from "../core/paths";
import { MAX_NOTE_BYTES } from "../core/protocol";
import type { ErrorCode } from "../core/protocol";
import type { RoutingDecision } from "../core/decision";
import { traceOf } from "../core/routing";
import { OVERSIZE_SUFFIX, oversizeDeadLetterText, quarantineText, stampDead, stampNoteText } from "../core/stamps";
import { createUnderFreeName, freePathIn, moveUnderFreeName } from "./free-names";
import type { PassContext, PassReport, QueuedNote } from "./pass-context";
import type { ReadFile } from "./vault-port";

// Rules 3 to 6 and 9: a rejected note goes to the dead-letter folder, stamped dead (or, when its
// YAML cannot be edited or it was never parsed, quarantined: the router's block above the original,
// kept byte for byte), and its sender gets an error response first.

/** Enough of an oversize note to find its envelope (the frontmatter may be at most 8 KB). */
const HEAD_CHARS = 16 * 1024;

/** The id a note is routed under: its own, or one derived from where it is and what it says. */
export function messageIdOf(note: QueuedNote, raw: RawMessage | undefined): string {
	const own = raw?.fields.message_id;
	return isAcceptableMessageId(own) ? own : uuidFromText(`${note.group}\n${basename(note.path)}\n${contentKey(note.read)}`);
}

/**
 * What a note says, for the ids and names derived from it: its text, or for a note over the size
 * limit its head, size and modification time (the same file gives the same key; hashing megabytes
 * would tell no more).
 */
function contentKey(read: ReadFile): string {
	return read.text.length <= MAX_NOTE_BYTES ? read.text : `${read.text.slice(0, HEAD_CHARS)}\n${read.info.size}\n${read.info.mtime}`;
}

export class DeadLetters {
	constructor(private readonly router: PassContext) {}

	/**
	 * Rule 3's size limit, decided on the size alone: the note is never parsed nor read beyond the
	 * head the outbox reader read. Its sender gets its error response; the note is moved as it is
	 * into the dead-letter folder (never over another file) as `<name>.md.oversize`, and a small dead
	 * letter beside it, `<name>.dead.md`, carries the router's stamps and names it. A pass stopped
	 * between the move and the dead letter leaves the note kept, unstamped and unlogged.
	 */
	async rejectOversize(note: QueuedNote, report: PassReport): Promise<void> {
		const router = this.router;
		// A note rewritten since its head was read is decided as what it is now, by the next pass.
		const now = await router.port.stat(note.path);
		if (!now || now.size <= MAX_NOTE_BYTES) return;
		const reason = `the note is ${now.size} bytes; the limit is ${MAX_NOTE_BYTES} (100 KB)`;
		const head = readRawMessage(note.read.text.slice(0, HEAD_CHARS), note.path, false);
		const raw = head.ok ? head.raw : undefined;
		const id = messageIdOf(note, raw);
		const at = router.now();
		const traceId = traceOf(raw) ?? uuidFromText(`trace\n${id}`);
		const folder = router.layout.deadLetterFolder;
		const sender = note.group;
		if (router.layout.hasGroup(sender)) {
			const target = typeof raw?.fields.target_group === "string" ? raw.fields.target_group : undefined;
			const deadLetterPath = await freePathIn(router.port, folder, basename(note.path), id, `.md${OVERSIZE_SUFFIX}`);
			await router.sendRouterResponse({ kind: "error", deadMessageId: id, traceId, sender, intendedTarget: target, code: "INVALID_MESSAGE", reason, deadLetterPath, occasion: contentKey(note.read), now: at });
		}
		await router.port.ensureFolder(folder);
		const kept = await moveUnderFreeName(router.port, note.path, folder, basename(note.path), id, `.md${OVERSIZE_SUFFIX}`);
		if (kept === null) return;
		router.indexSync.remove(note.path);
		const text = oversizeDeadLetterText(quarantineFields(note, "INVALID_MESSAGE", reason, id, at, traceId, raw), kept);
		const path = await createUnderFreeName(router.port, folder, basename(kept).slice(0, -`.md${OVERSIZE_SUFFIX}`.length), text, id, ".dead.md");
		const entry = router.indexSync.indexText(path, text);
		const decision = router.decision("rejected", path, note.path, entry, { error_code: "INVALID_MESSAGE", reason });
		await router.log.write(decision);
		report.decisions.push(decision);
	}

	/**
	 * The error response goes to the sender first (its name is derived from the rejection, so
	 * writing it again finds it there), then the dead letter, the log row, the removal.
	 */
	async reject(note: QueuedNote, code: ErrorCode, reason: string, raw: RawMessage | undefined, notify: boolean): Promise<RoutingDecision | null> {
		const router = this.router;
		const id = messageIdOf(note, raw);
		const now = router.now();
		// The sender is the group whose outbox held the note, whatever the note claims.
		const sender = note.group;
		const traceId = traceOf(raw) ?? uuidFromText(`trace\n${id}`);
		if (notify && router.layout.hasGroup(sender)) {
			const deadLetterPath = await freePathIn(router.port, router.layout.deadLetterFolder, basename(note.path), id);
			const target = typeof raw?.fields.target_group === "string" ? raw.fields.target_group : undefined;
			await router.sendRouterResponse({ kind: "error", deadMessageId: id, traceId, sender, intendedTarget: target, code, reason, deadLetterPath, occasion: contentKey(note.read), now });
		}
		const stamped = this.deadText(note, raw, code, reason, id, now);
		return router.transfer(note, router.layout.deadLetterFolder, id, stamped, code === "DUPLICATE" ? "duplicate" : "rejected", { error_code: code, reason });
	}

	/** A dead letter's text: the note stamped dead, or (when its YAML cannot be edited) quarantined with the original kept below. */
	private deadText(note: QueuedNote, raw: RawMessage | undefined, code: string, reason: string, id: string, now: number): { text: string; fields?: Record<string, unknown> } {
		if (raw) {
			try {
				return stampNoteText(note.read.text, note.path, raw.format, (fm) => stampDead(fm, code, reason, now, "dead", id), raw.block);
			} catch (error) {
				if (!(error instanceof YamlError)) throw error;
			}
		}
		const read = readRawMessage(note.read.text, note.path, false);
		const traceId = read.ok ? traceOf(read.raw) : undefined;
		return { text: quarantineText(note.read.text, quarantineFields(note, code, reason, id, now, traceId)) };
	}
}

/** The router's block above a quarantined note: what it knows of the message, and why it is dead. */
function quarantineFields(note: QueuedNote, code: string, reason: string, id: string, now: number, traceId?: string, raw?: RawMessage): Record<string, unknown> {
	const fields: Record<string, unknown> = { message_id: id };
	if (note.group !== "") fields.source_group = note.group;
	if (typeof raw?.fields.target_group === "string") fields.target_group = raw.fields.target_group;
	if (traceId && isUuidShaped(traceId)) fields.trace_id = traceId;
	stampDead(fields, code, reason, now, "dead", id);
	return fields;
}
