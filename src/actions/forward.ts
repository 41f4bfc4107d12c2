import { buildForward, messageFileName } from "../core/compose";
import { asSentence, selfRequestReason } from "../core/group-reasons";
import { isRequest } from "../core/message";
import type { RequestMessage } from "../core/message";
import { readRawMessage } from "../core/message-parse";
import { serialiseMessage } from "../core/message-serialise";
import { joinPath } from "../core/paths";
import type { ErrorCode } from "../core/protocol";
import type { RoutingContext } from "../core/routing";
import { formatProblems, validateRaw } from "../core/validate";
import { FORM_ERROR, hasErrors } from "./form-errors";
import type { FieldErrors } from "./form-errors";
import { checkOutboxNote, goneGroup, groupProblem, routerRefusal } from "./note-check";

// Forward message: delegates a request delivered to a group's inbox to another group, as a new
// request on the same trace one hop further (buildForward). The router's verdict on it is
// predicted first: a hop limit or a cycle is said before anything is written.

export interface ForwardWarning {
	code: ErrorCode;
	reason: string;
}

export type PlannedForward =
	| { ok: true; folder: string; fileName: string; text: string; warning: ForwardWarning | null }
	| { ok: false; errors: FieldErrors };

const FIELD_OF: Record<string, string> = { target_group: "to", note: "note", frontmatter: "note", payload: "note" };

/** The request a note holds, or why it cannot be forwarded (a sentence for a notice). */
export function readForwardable(text: string, path: string): { ok: true; request: RequestMessage } | { ok: false; why: string } {
	const read = readRawMessage(text, path);
	if (!read.ok) return { ok: false, why: `This request cannot be forwarded: ${read.reason}` };
	const validation = validateRaw(read.raw);
	if (!validation.ok) return { ok: false, why: `This request cannot be forwarded: ${formatProblems(validation.problems)}` };
	if (!isRequest(validation.message)) return { ok: false, why: "Only a request can be forwarded." };
	return { ok: true, request: validation.message };
}

export function planForward(ctx: RoutingContext, original: RequestMessage, group: string, toValue: string, note: string): PlannedForward {
	const { layout, now } = ctx;
	const to = toValue.trim();
	const toProblem = groupProblem(layout, to, "group to forward to");
	if (toProblem) return { ok: false, errors: { to: toProblem } };
	if (to === group) return { ok: false, errors: { to: asSentence(selfRequestReason(group)) } };
	const folder = layout.box(group, "outbox");
	if (!folder) return { ok: false, errors: { [FORM_ERROR]: goneGroup(layout, group) } };
	const message = buildForward(original, group, to, note, now);
	const text = serialiseMessage(message);
	const fileName = messageFileName(message, now);
	const check = checkOutboxNote(ctx, text, joinPath(folder, fileName), group, FIELD_OF);
	if (hasErrors(check.errors)) return { ok: false, errors: check.errors };
	const verdict = check.verdict;
	let warning: ForwardWarning | null = null;
	if (verdict?.action === "reject") {
		if (verdict.code === "MAX_HOPS_EXCEEDED" || verdict.code === "CYCLE_DETECTED") warning = { code: verdict.code, reason: verdict.reason };
		else return { ok: false, errors: { [verdict.code === "GROUP_NOT_FOUND" ? "to" : FORM_ERROR]: routerRefusal(verdict) as string } };
	}
	return { ok: true, folder, fileName, text, warning };
}
