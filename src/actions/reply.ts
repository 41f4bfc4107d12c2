import { buildResponse, messageFileName } from "../core/compose";
import { answerStatusReason, emptyAnswerReason, isAnswerStatus } from "../core/content-reasons";
import { asSentence } from "../core/group-reasons";
import type { IndexEntry } from "../core/message-index";
import { serialiseMessage } from "../core/message-serialise";
import { joinPath } from "../core/paths";
import type { RoutingContext } from "../core/routing";
import { FORM_ERROR, hasErrors } from "./form-errors";
import type { FieldErrors } from "./form-errors";
import { checkOutboxNote, goneGroup, routerRefusal } from "./note-check";
import type { PlannedNote } from "./write-note";

// Reply to message: the response to a request delivered to a group's inbox, to be written into
// that group's outbox with in_reply_to, the request's trace_id and the group as source_group.

export interface ReplyValues {
	status: string;
	answer: string;
	artifacts: string[];
}

const FIELD_OF: Record<string, string> = { status: "status", note: "answer", frontmatter: "answer", payload: "answer" };

export function planReply(ctx: RoutingContext, request: IndexEntry, group: string, values: ReplyValues): PlannedNote {
	const errors: FieldErrors = {};
	const artifacts = values.artifacts.map((a) => a.trim()).filter((a) => a !== "");
	if (values.answer.trim() === "" && artifacts.length === 0) errors.answer = asSentence(emptyAnswerReason(values.status));
	if (!isAnswerStatus(values.status)) errors.status = asSentence(answerStatusReason(values.status));
	if (!request.traceId) errors[FORM_ERROR] = "The request has no trace_id to answer.";
	if (hasErrors(errors)) return { ok: false, errors };
	const message = buildResponse(
		{ request: { ...request, targetGroup: group }, status: values.status as "success" | "error", answer: values.answer, artifacts },
		ctx.now,
	);
	const text = serialiseMessage(message);
	const fileName = messageFileName(message, ctx.now);
	const folder = ctx.layout.box(group, "outbox");
	if (!folder) return { ok: false, errors: { [FORM_ERROR]: goneGroup(ctx.layout, group) } };
	const check = checkOutboxNote(ctx, text, joinPath(folder, fileName), group, FIELD_OF);
	Object.assign(errors, check.errors);
	const refused = check.verdict ? routerRefusal(check.verdict) : null;
	if (refused !== null) errors[FORM_ERROR] ??= refused;
	if (hasErrors(errors)) return { ok: false, errors };
	return { ok: true, folder, fileName, text };
}
