import { endsInsideFence, parseBodySections, renderBodySections } from "./body";
import { buildNote, cloneData, readFrontmatter, splitNote, updateFrontmatterText } from "./frontmatter";
import type { ParsedBlock } from "./frontmatter";
import { newId, isAcceptableMessageId } from "./ids";
import { expiryOf, hasExpired, isAwaitingAnswer } from "./message-index";
import { ENVELOPE_FIELD_ORDER } from "./message";
import type { Payload } from "./message";
import { readRawMessage } from "./message-parse";
import type { RawMessage } from "./message-parse";
import type { IndexEntry } from "./message-index";
import { splitPayload } from "./message-serialise";
import type { CommunicationSettings } from "./registry";
import { MAX_ATTEMPT_WAIT_SECONDS, MAX_TIMEOUT_SECONDS } from "./protocol";
import { hasOwn, setOwn } from "./text";
import { iso, parseTime } from "./time";

// What the router writes into a note at each step (protocol section 3, "fields the router writes"),
// and the timeout schedule of rule 8. Each stamp is a function of the note's current frontmatter, so
// running it twice (after a crash, or by two routers) gives the same note.

export { iso };

function ensureIdentity(fm: Record<string, unknown>, now: number, fallbackId: string): void {
	if (!isAcceptableMessageId(fm.message_id)) fm.message_id = fallbackId;
	if (fm.created === undefined || fm.created === null || fm.created === "") fm.created = iso(now);
}

/** Seconds to wait for an answer to `attempt` (1 is the first delivery): doubles with each retry. */
export function attemptTimeoutSeconds(timeoutSeconds: number, attempt: number): number {
	return Math.min(timeoutSeconds * 2 ** Math.max(0, attempt - 1), MAX_ATTEMPT_WAIT_SECONDS);
}

export function timeoutOf(fm: { timeout_seconds?: unknown }, settings: CommunicationSettings): number {
	const t = fm.timeout_seconds;
	return typeof t === "number" && Number.isInteger(t) && t > 0 && t <= MAX_TIMEOUT_SECONDS ? t : settings.timeout_seconds;
}

export interface RequestStamp {
	target: string;
	now: number;
	settings: CommunicationSettings;
	/** The chain the request travelled, its target last (rule 6). */
	route: string[];
	/** The request its sender was handling, when the router inferred it (rule 6). */
	parentId?: string;
	/** The id the note gets when it has none. */
	fallbackId: string;
}

export function stampDeliveredRequest(fm: Record<string, unknown>, stamp: RequestStamp): void {
	ensureIdentity(fm, stamp.now, stamp.fallbackId);
	if (fm.kind == null) fm.kind = "request";
	fm.route = [...stamp.route];
	if (stamp.parentId !== undefined && fm.parent_id == null) fm.parent_id = stamp.parentId;
	fm.state = "delivered";
	fm.delivered_at = iso(stamp.now);
	fm.expires_at = iso(stamp.now + attemptTimeoutSeconds(timeoutOf(fm, stamp.settings), 1) * 1000);
	fm.attempt = 1;
	for (const stale of ["answered_at", "dead_at", "error_code", "error_message"]) delete fm[stale];
}

export interface ResponseStamp {
	target: string;
	now: number;
	request?: Pick<IndexEntry, "messageId" | "deliveredAt">;
	/** The request had timed out when the answer came (rule 7). */
	late: boolean;
	fallbackId: string;
}

export function stampDeliveredResponse(fm: Record<string, unknown>, stamp: ResponseStamp): void {
	const { now, request } = stamp;
	ensureIdentity(fm, now, stamp.fallbackId);
	if (fm.kind == null) fm.kind = "response";
	// PyYAML writes absent values as null: treat them as absent.
	if (fm.target_group == null) fm.target_group = stamp.target;
	if (fm.in_reply_to == null && request?.messageId) fm.in_reply_to = request.messageId;
	if (fm.processing_time_ms == null && request?.deliveredAt) {
		const written = parseTime(fm.created);
		const elapsed = (Number.isNaN(written) ? now : written) - parseTime(request.deliveredAt);
		if (Number.isFinite(elapsed)) fm.processing_time_ms = Math.max(0, Math.round(elapsed));
	}
	if (stamp.late) fm.late = true;
	fm.state = "delivered";
	fm.delivered_at = iso(now);
}

export function stampAnswered(fm: Record<string, unknown>, now: number): void {
	fm.state = "answered";
	if (typeof fm.answered_at !== "string") fm.answered_at = iso(now);
}

/** A response its requester has read and taken out of its inbox (`a2a take`). */
export function stampTaken(fm: Record<string, unknown>): void {
	fm.state = "taken";
}

export function stampDead(fm: Record<string, unknown>, code: string, reason: string, now: number, state: "dead" | "timed_out" = "dead", fallbackId?: string): void {
	if (!isAcceptableMessageId(fm.message_id)) fm.message_id = fallbackId ?? newId();
	fm.state = state;
	fm.dead_at = iso(now);
	fm.error_code = code;
	fm.error_message = reason;
}

/** True when a delivered request is past its `expires_at` without an answer: rule 8 acts on it now. */
export function isDue(entry: IndexEntry, now: number): boolean {
	return isAwaitingAnswer(entry) && hasExpired(entry, now);
}

/** The next time (epoch ms) at which some request of `entries` becomes due, or null. */
export function nextDueTime(entries: Iterable<IndexEntry>): number | null {
	let next: number | null = null;
	for (const entry of entries) {
		if (!isAwaitingAnswer(entry)) continue;
		const expires = expiryOf(entry);
		if (!Number.isNaN(expires) && (next === null || expires < next)) next = expires;
	}
	return next;
}

export type TimeoutStep = { action: "retry"; attempt: number; expiresAt: string } | { action: "timeout" } | null;

/** Rule 8 for one delivered request: nothing yet, a retry, or the final timeout. */
export function timeoutStep(entry: IndexEntry, now: number, settings: CommunicationSettings): TimeoutStep {
	return isDue(entry, now) ? nextStep(entry, now, settings) : null;
}

/**
 * Rule 8 for a request forwarded to a remote agent, on the schedule of a delivered one: nothing
 * before its expires_at, then a retry or the final timeout.
 */
export function forwardedTimeoutStep(entry: IndexEntry, now: number, settings: CommunicationSettings): TimeoutStep {
	return entry.state === "forwarded" && hasExpired(entry, now) ? nextStep(entry, now, settings) : null;
}

function nextStep(entry: IndexEntry, now: number, settings: CommunicationSettings): Exclude<TimeoutStep, null> {
	const attempt = entry.attempt ?? 1;
	if (attempt > settings.retry_attempts) return { action: "timeout" };
	const next = attempt + 1;
	const seconds = attemptTimeoutSeconds(timeoutOf({ timeout_seconds: entry.timeoutSeconds }, settings), next);
	return { action: "retry", attempt: next, expiresAt: iso(now + seconds * 1000) };
}

export function stampRetry(fm: Record<string, unknown>, attempt: number, expiresAt: string): void {
	fm.state = "retrying";
	fm.attempt = attempt;
	fm.expires_at = expiresAt;
}

function orderedFields(fields: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const key of ENVELOPE_FIELD_ORDER) if (fields[key] !== undefined) setOwn(out, key, fields[key]);
	for (const [key, value] of Object.entries(fields)) if (!hasOwn(out, key)) setOwn(out, key, value);
	return out;
}

/**
 * The protocol's flat form of a note written in the seed's wrapper or as a YAML file, with `edit`
 * (a stamp) applied to its fields: envelope fields in the standard order, payload values as body
 * sections after whatever body the note had (kept byte for byte), the rest in a `payload:` mapping.
 * A flat note only gets the edit. Null when the text cannot be read.
 */
export function flattenMessageText(text: string, path: string, edit: (fm: Record<string, unknown>) => void = () => undefined): string | null {
	const read = readRawMessage(text, path);
	if (!read.ok) return null;
	const { raw } = read;
	if (raw.format === "flat") return updateFrontmatterText(text, edit);
	const fields: Record<string, unknown> = cloneData(raw.fields);
	if (fields.kind === undefined && raw.wrapperKind) fields.kind = raw.wrapperKind;
	edit(fields);
	const split = raw.format === "wrapped" ? splitNote(text) : null;
	const existing = split ? split.body : "";
	const inBody = parseBodySections(existing);
	const rest: Payload = {};
	for (const [key, value] of Object.entries(raw.payload)) if (!hasOwn(inBody, key)) setOwn(rest, key, value);
	// After a body that ends inside an open code fence, sections would be read as code: the rest stays in the frontmatter.
	const { body, frontmatter } = endsInsideFence(existing) ? { body: {}, frontmatter: rest } : splitPayload(rest);
	const out = orderedFields(fields);
	if (Object.keys(frontmatter).length > 0) out.payload = frontmatter;
	const sections = renderBodySections(body);
	const glue = existing === "" || existing.endsWith("\n\n") ? "" : existing.endsWith("\n") ? "\n" : "\n\n";
	const newBody = sections === "" ? existing : `${existing === "" ? "\n" : existing + glue}${sections}`;
	return `${split?.bom ?? ""}${buildNote(out, newBody)}`;
}

/**
 * A note the router could not read, made into a dead letter: the router's fields in a new
 * frontmatter block, and the original text kept byte for byte below it.
 */
export function quarantineText(original: string, fields: Record<string, unknown>): string {
	return buildNote({ ...fields, quarantined: true }, `\n${original}`);
}

/** What a note too large to read names the file it was kept in (rule 3, dead-letter/). */
export const OVERSIZE_SUFFIX = ".oversize";

/**
 * The dead letter of a note over the size limit, which is never read whole: the router's fields and
 * a line that names the file beside it where the note is kept as it was (`original`).
 */
export function oversizeDeadLetterText(fields: Record<string, unknown>, original: string): string {
	return buildNote({ ...fields, original_file: original }, `\nThis note was larger than the limit, so the router did not read it. It is kept as it was, unread, in \`${original}\`.\n`);
}

/** The original text of a quarantined dead letter (for retrying it); null for any other note. */
export function unquarantineText(text: string): string | null {
	const split = splitNote(text);
	if (!split.hasFrontmatter) return null;
	try {
		if (readFrontmatter(text)?.quarantined !== true) return null;
	} catch {
		return null;
	}
	return split.body.slice(1);
}

/**
 * A note's text with a stamp applied, and the fields it then has: flat notes get the edit (every
 * other byte kept), the seed's wrapper and YAML files are rewritten into the flat form. `block`: the
 * frontmatter as the reader of this text parsed it (RawMessage.block), not parsed again.
 */
export function stampNoteText(text: string, path: string, format: RawMessage["format"], edit: (fm: Record<string, unknown>) => void, block?: ParsedBlock): { text: string; fields: Record<string, unknown> } {
	let fields: Record<string, unknown> = {};
	const capture = (fm: Record<string, unknown>) => {
		edit(fm);
		fields = fm;
	};
	const stamped = format === "flat" ? updateFrontmatterText(text, capture, block) : (flattenMessageText(text, path, capture) ?? updateFrontmatterText(text, capture));
	return { text: stamped, fields };
}
