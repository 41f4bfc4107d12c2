import { buildRequest, messageFileName } from "../core/compose";
import { mainTextField, requestContentProblem } from "../core/content-reasons";
import { asSentence, gatewayTargetReason, selfRequestReason } from "../core/group-reasons";
import { gatewayGroup } from "../core/registry";
import { serialiseMessage } from "../core/message-serialise";
import { joinPath } from "../core/paths";
import { PRIORITIES } from "../core/protocol";
import type { Priority, RequestType } from "../core/protocol";
import type { RoutingContext } from "../core/routing";
import { FORM_ERROR, hasErrors } from "./form-errors";
import type { FieldErrors } from "./form-errors";
import { parseInteger } from "./input";
import { checkOutboxNote, groupProblem, routerRefusal } from "./note-check";
import type { PlannedNote } from "./write-note";

// Compose message: a new request from one group to another, checked exactly as the router will
// check it, to be written into the sender's outbox.

export interface ComposeValues {
	from: string;
	to: string;
	type: string;
	priority: string;
	/** Seconds as typed; 0 (or empty) leaves the registry's default. */
	timeout: string;
	/** The question (query) or the task (task, artifact). */
	text: string;
	context: string;
	artifacts: string[];
}

const FIELD_OF: Record<string, string> = {
	source_group: "from",
	target_group: "to",
	request_type: "type",
	priority: "priority",
	timeout_seconds: "timeout",
	note: "text",
	frontmatter: "text",
	payload: "text",
};

/** The payload key the main text goes to for a request type. */
export function mainTextKey(type: string): "question" | "task" {
	return mainTextField(type);
}

export function planRequest(ctx: RoutingContext, values: ComposeValues): PlannedNote {
	const { layout, now } = ctx;
	const errors: FieldErrors = {};
	const from = values.from.trim();
	const to = values.to.trim();
	const fromProblem = groupProblem(layout, from, "sending group");
	if (fromProblem) errors.from = fromProblem;
	const toProblem = groupProblem(layout, to, "target group");
	if (toProblem) errors.to = toProblem;
	else if (to === from) errors.to = asSentence(selfRequestReason(from));
	else if (to === gatewayGroup(ctx.registry)) errors.to = asSentence(gatewayTargetReason(to));
	const timeout = values.timeout.trim() === "" ? 0 : parseInteger(values.timeout);
	if (timeout === null || timeout < 0) errors.timeout = "Enter a whole number of seconds (0 uses the registry's timeout).";
	const artifacts = values.artifacts.map((a) => a.trim()).filter((a) => a !== "");
	const type = values.type as RequestType;
	const key = mainTextKey(type);
	const content = requestContentProblem(type, { [key]: values.text, context: values.context, artifacts });
	if (content !== null) errors.text = asSentence(content.reason);
	const message = buildRequest(
		{
			from,
			to,
			type,
			priority: (PRIORITIES as readonly string[]).includes(values.priority) ? (values.priority as Priority) : undefined,
			timeoutSeconds: timeout !== null && timeout > 0 ? timeout : undefined,
			question: key === "question" ? values.text : undefined,
			task: key === "task" ? values.text : undefined,
			context: values.context,
			artifacts,
		},
		now,
	);
	const text = serialiseMessage(message);
	const fileName = messageFileName(message, now);
	const folder = layout.box(from, "outbox") ?? joinPath(layout.groupsFolder, "unknown", "outbox");
	const check = checkOutboxNote(ctx, text, joinPath(folder, fileName), from, FIELD_OF);
	for (const [field, problem] of Object.entries(check.errors)) errors[field] ??= problem;
	const verdict = check.verdict;
	if (verdict?.action === "reject") {
		const field = verdict.code === "GROUP_NOT_FOUND" || verdict.code === "CYCLE_DETECTED" ? "to" : FORM_ERROR;
		errors[field] ??= routerRefusal(verdict) as string;
	}
	if (hasErrors(errors)) return { ok: false, errors };
	return { ok: true, folder, fileName, text };
}
