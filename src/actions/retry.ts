import { readFrontmatter, updateFrontmatterText } from "../core/frontmatter";
import { unknownGroupReason } from "../core/group-reasons";
import type { VaultLayout } from "../core/layout";
import { readRawMessage } from "../core/message-parse";
import type { ReadResult } from "../core/message-parse";
import { basename } from "../core/paths";
import { PRIORITIES, REQUEST_TYPES, RESPONSE_STATUSES } from "../core/protocol";
import type { RoutingContext } from "../core/routing";
import { ROUTING_STAMPS } from "../core/router-fields";
import { flattenMessageText, iso, unquarantineText } from "../core/stamps";
import { editNote } from "../router/edit-note";
import { moveUnderFreeName } from "../router/free-names";
import type { VaultPort } from "../router/vault-port";
import { FORM_ERROR } from "./form-errors";
import type { FieldErrors } from "./form-errors";
import { checkOutboxNote, groupProblem, routerRefusal } from "./note-check";

// Retry dead letter: puts a dead letter back into its sender's outbox, same message_id, without
// the router's stamps, with retried_at and retry_count. A quarantined note gets its original text
// back. For INVALID_MESSAGE and GROUP_NOT_FOUND the failing fields can be corrected first; the
// corrected note must pass the router's checks before anything is written.


export type CorrectionKind = "group" | "integer" | "text" | readonly string[];

export interface CorrectableField {
	label: string;
	kind: CorrectionKind;
	/** An empty value removes the field. */
	optional?: boolean;
}

/** Envelope fields a retry can correct, and how. */
export const CORRECTABLE: Record<string, CorrectableField> = {
	target_group: { label: "Target group", kind: "group" },
	source_group: { label: "Source group", kind: "group" },
	hop_count: { label: "Hop count", kind: "integer" },
	request_type: { label: "Request type", kind: REQUEST_TYPES },
	status: { label: "Status", kind: RESPONSE_STATUSES },
	priority: { label: "Priority", kind: PRIORITIES, optional: true },
	timeout_seconds: { label: "Timeout (seconds)", kind: "integer", optional: true },
	trace_id: { label: "Trace id", kind: "text" },
	in_reply_to: { label: "In reply to", kind: "text", optional: true },
	message_id: { label: "Message id", kind: "text" },
	created: { label: "Created", kind: "text", optional: true },
};

const FIELD_OF: Record<string, string> = Object.fromEntries(Object.keys(CORRECTABLE).map((k) => [k, k]));


/** Corrected values by field; undefined removes the field. */
export type Corrections = Record<string, unknown>;

/** A note of the dead-letter folder, read for a retry. */
export interface DeadLetterNote {
	path: string;
	/** True when the router kept the original text below its own block. */
	quarantined: boolean;
	/** The text a retry starts from (the original text of a quarantined note). */
	base: string;
	read: ReadResult;
	errorCode?: string;
	errorMessage?: string;
	timedOut: boolean;
	retryCount: number;
	/** The message_id the router gave a quarantined note whose original text has none (kept on retry). */
	carriedMessageId?: string;
}

export function readDeadLetter(path: string, text: string): DeadLetterNote {
	const original = unquarantineText(text);
	let fm: Record<string, unknown> = {};
	try {
		fm = readFrontmatter(text) ?? {};
	} catch {
		// A dead letter whose frontmatter no longer parses: the reason is reported from `read`.
	}
	const base = original ?? text;
	const str = (v: unknown) => (typeof v === "string" ? v : undefined);
	const read = readRawMessage(base, path);
	const carried = original !== null && read.ok && read.raw.fields.message_id === undefined ? str(fm.message_id) : undefined;
	return {
		path,
		quarantined: original !== null,
		base,
		read,
		errorCode: str(fm.error_code),
		errorMessage: str(fm.error_message),
		timedOut: fm.state === "timed_out" || fm.error_code === "TIMEOUT",
		retryCount: typeof fm.retry_count === "number" ? fm.retry_count : 0,
		carriedMessageId: carried,
	};
}

/** Null when the dead letter parses as a message, else why it cannot be retried (for a notice). */
export function notRetryable(dl: DeadLetterNote): string | null {
	if (dl.read.ok) return null;
	const why = dl.errorCode ? `${dl.errorCode}${dl.errorMessage ? `: ${dl.errorMessage}` : ""}` : "no error recorded";
	return `This dead letter (${why}) cannot be retried as it is: ${dl.read.reason}. ${dl.quarantined ? "Fix the original text below the router's block" : "Fix the note"}, then retry it again.`;
}

/** The frontmatter edit of a retry: corrections, stamps removed, the retry recorded. */
function requeueEdit(fm: Record<string, unknown>, corrections: Corrections, timedOut: boolean, now: number): void {
	for (const [key, value] of Object.entries(corrections)) {
		if (value === undefined) delete fm[key];
		else fm[key] = value;
	}
	for (const key of ROUTING_STAMPS) delete fm[key];
	// A timed-out request was delivered once: its route ends with the target, which would read as a cycle.
	if (timedOut && Array.isArray(fm.route) && fm.route.length > 0 && fm.route[fm.route.length - 1] === fm.target_group) {
		fm.route = fm.route.slice(0, -1);
		if ((fm.route as unknown[]).length === 0) delete fm.route;
	}
	fm.retried_at = iso(now);
	fm.retry_count = (typeof fm.retry_count === "number" && Number.isInteger(fm.retry_count) ? fm.retry_count : 0) + 1;
}

/** The text the note will have in the outbox (a quarantined note's original, flattened when written in the seed's form). */
function requeueText(path: string, text: string, corrections: Corrections, timedOut: boolean, now: number): string {
	const base = unquarantineText(text) ?? text;
	const flat = flattenMessageText(base, path) ?? base;
	return updateFrontmatterText(flat, (fm) => requeueEdit(fm, corrections, timedOut, now));
}

/** The corrections plus the message_id a quarantined note keeps. */
function withCarried(dl: DeadLetterNote, corrections: Corrections): Corrections {
	return dl.carriedMessageId && !("message_id" in corrections) ? { message_id: dl.carriedMessageId, ...corrections } : corrections;
}

export interface RetryCheck {
	errors: FieldErrors;
	sender: string;
}

/** Checks the note a retry would put in the outbox, exactly as the router will. */
export function checkRetry(ctx: RoutingContext, dl: DeadLetterNote, corrections: Corrections): RetryCheck {
	const errors: FieldErrors = {};
	if (!dl.read.ok) return { errors: { [FORM_ERROR]: `The note does not parse as a message: ${dl.read.reason}` }, sender: "" };
	let text: string;
	try {
		text = requeueText(dl.path, dl.base, withCarried(dl, corrections), dl.timedOut, ctx.now);
	} catch (error) {
		return { errors: { [FORM_ERROR]: `The note cannot be edited: ${(error as Error).message}` }, sender: "" };
	}
	const source = "source_group" in corrections ? corrections.source_group : dl.read.raw.fields.source_group;
	const sender = typeof source === "string" ? source.trim() : "";
	const senderProblem = groupProblem(ctx.layout, sender, "sending group");
	if (senderProblem) errors.source_group = senderProblem;
	const check = checkOutboxNote(ctx, text, dl.path, sender, FIELD_OF, dl.path);
	for (const [key, message] of Object.entries(check.errors)) errors[key] ??= message;
	const verdict = check.verdict;
	if (!senderProblem && verdict?.action === "reject") {
		const field = verdict.code === "GROUP_NOT_FOUND" || (verdict.code === "INVALID_MESSAGE" && verdict.reason.startsWith("target_group")) ? "target_group" : FORM_ERROR;
		errors[field] ??= routerRefusal(verdict) as string;
	} else if (!senderProblem && verdict?.action === "duplicate") {
		errors[FORM_ERROR] ??= routerRefusal(verdict) as string;
	}
	return { errors, sender };
}

/** The fields the retry form offers: those failing now, and the target group of a GROUP_NOT_FOUND. */
export function correctableFields(ctx: RoutingContext, dl: DeadLetterNote): string[] {
	const check = checkRetry(ctx, dl, {});
	const fields = Object.keys(check.errors).filter((key) => key in CORRECTABLE);
	if (dl.errorCode === "GROUP_NOT_FOUND" && !fields.includes("target_group")) fields.unshift("target_group");
	return fields;
}

type RequeueVault = Pick<VaultPort, "read" | "replace" | "ensureFolder" | "move">;

export interface RequeueContext {
	layout: VaultLayout;
}

/**
 * Edits the dead letter in place (corrections, stamps removed, retry recorded), then moves it into
 * the sender's outbox under a free name. The move is the one step a router sees: the note appears
 * in the outbox whole, already corrected. Returns the note's new path.
 */
export async function requeue(vault: RequeueVault, ctx: RequeueContext, dl: DeadLetterNote, corrections: Corrections, sender: string, now: number): Promise<string> {
	const outbox = ctx.layout.box(sender, "outbox");
	if (!outbox) throw new Error(unknownGroupReason(sender, ctx.layout.groupIds()));
	const edited = await editNote(vault, dl.path, (text) => requeueText(dl.path, text, withCarried(dl, corrections), dl.timedOut, now));
	if (!edited) throw new Error("the dead letter was moved or deleted meanwhile");
	await vault.ensureFolder(outbox);
	const own = dl.read.ok && typeof dl.read.raw.fields.message_id === "string" ? dl.read.raw.fields.message_id : undefined;
	const to = await moveUnderFreeName(vault, dl.path, outbox, basename(dl.path), own ?? dl.carriedMessageId);
	if (to === null) throw new Error("the dead letter was moved or deleted meanwhile");
	return to;
}
