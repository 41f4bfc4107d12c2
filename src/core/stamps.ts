import { parseBodySections, renderBodySections } from "./body";
import { buildNote, readFrontmatter, splitNote, updateFrontmatterText } from "./frontmatter";
import { newId, isAcceptableMessageId } from "./ids";
import { ENVELOPE_FIELD_ORDER } from "./message";
import type { Payload } from "./message";
import { readRawMessage } from "./message-parse";
import type { IndexEntry } from "./message-index";
import { splitPayload } from "./message-serialise";
import type { CommunicationSettings } from "./registry";

// What the router writes into a note at each step (protocol section 3, "fields the router writes"),
// and the timeout schedule of rule 8. Each stamp is a function of the note's current frontmatter, so
// running it twice (after a crash, or by two routers) gives the same note.

export const iso = (ms: number): string => new Date(ms).toISOString();

function ensureIdentity(fm: Record<string, unknown>, now: number): void {
	if (!isAcceptableMessageId(fm.message_id)) fm.message_id = newId();
	if (fm.created === undefined || fm.created === null || fm.created === "") fm.created = iso(now);
}

/** Seconds to wait for an answer to `attempt` (1 is the first delivery): doubles with each retry. */
export function attemptTimeoutSeconds(timeoutSeconds: number, attempt: number): number {
	return timeoutSeconds * 2 ** Math.max(0, attempt - 1);
}

export function timeoutOf(fm: { timeout_seconds?: unknown }, settings: CommunicationSettings): number {
	const t = fm.timeout_seconds;
	return typeof t === "number" && Number.isInteger(t) && t > 0 ? t : settings.timeout_seconds;
}

/**
 * `inherited` is the route of the request that brought the chain to the sender, used when the
 * note itself gives none (an agent continuing a trace need not copy it).
 */
export function stampDeliveredRequest(fm: Record<string, unknown>, target: string, now: number, settings: CommunicationSettings, inherited: string[] = []): void {
	ensureIdentity(fm, now);
	if (fm.kind == null) fm.kind = "request";
	const own = Array.isArray(fm.route) ? fm.route.filter((g): g is string => typeof g === "string") : [];
	const route = own.length > 0 ? own : [...inherited];
	const source = typeof fm.source_group === "string" ? fm.source_group : undefined;
	if (source && route[route.length - 1] !== source && route[route.length - 1] !== target) route.push(source);
	if (route[route.length - 1] !== target) route.push(target);
	fm.route = route;
	fm.state = "delivered";
	fm.delivered_at = iso(now);
	fm.expires_at = iso(now + attemptTimeoutSeconds(timeoutOf(fm, settings), 1) * 1000);
	fm.attempt = 1;
	for (const stale of ["answered_at", "dead_at", "error_code", "error_message"]) delete fm[stale];
}

export function stampDeliveredResponse(fm: Record<string, unknown>, target: string, now: number, request?: IndexEntry): void {
	ensureIdentity(fm, now);
	if (fm.kind == null) fm.kind = "response";
	// PyYAML writes absent values as null: treat them as absent.
	if (fm.target_group == null) fm.target_group = target;
	if (fm.in_reply_to == null && request?.messageId) fm.in_reply_to = request.messageId;
	if (fm.processing_time_ms == null && request?.deliveredAt) {
		const answeredAt = typeof fm.created === "string" ? Date.parse(fm.created) : now;
		const elapsed = (Number.isNaN(answeredAt) ? now : answeredAt) - Date.parse(request.deliveredAt);
		if (Number.isFinite(elapsed)) fm.processing_time_ms = Math.max(0, Math.round(elapsed));
	}
	fm.state = "delivered";
	fm.delivered_at = iso(now);
}

export function stampAnswered(fm: Record<string, unknown>, now: number): void {
	fm.state = "answered";
	if (typeof fm.answered_at !== "string") fm.answered_at = iso(now);
}

export function stampDead(fm: Record<string, unknown>, code: string, reason: string, now: number, state: "dead" | "timed_out" = "dead"): void {
	if (!isAcceptableMessageId(fm.message_id)) fm.message_id = newId();
	fm.state = state;
	fm.dead_at = iso(now);
	fm.error_code = code;
	fm.error_message = reason;
}

export type TimeoutStep = { action: "retry"; attempt: number; expiresAt: string } | { action: "timeout" } | null;

/** Rule 8 for one delivered request: nothing yet, a retry, or the final timeout. */
export function timeoutStep(entry: IndexEntry, now: number, settings: CommunicationSettings): TimeoutStep {
	if (entry.kind !== "request" || (entry.state !== "delivered" && entry.state !== "retrying")) return null;
	const expires = entry.expiresAt ? Date.parse(entry.expiresAt) : Number.NaN;
	if (Number.isNaN(expires) || now < expires) return null;
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
	for (const key of ENVELOPE_FIELD_ORDER) if (fields[key] !== undefined) out[key] = fields[key];
	for (const [key, value] of Object.entries(fields)) if (!(key in out)) out[key] = value;
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
	const fields: Record<string, unknown> = { ...raw.fields };
	if (fields.kind === undefined && raw.wrapperKind) fields.kind = raw.wrapperKind;
	edit(fields);
	const split = raw.format === "wrapped" ? splitNote(text) : null;
	const existing = split ? split.body : "";
	const inBody = parseBodySections(existing);
	const rest: Payload = {};
	for (const [key, value] of Object.entries(raw.payload)) if (!(key in inBody)) rest[key] = value;
	const { body, frontmatter } = splitPayload(rest);
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
