import type { Command } from "obsidian";
import { buildResponse, messageFileName } from "../core/compose";
import type { IndexEntry } from "../core/message-index";
import { serialiseMessage } from "../core/message-serialise";
import { joinPath } from "../core/paths";
import type { RelayServices } from "../services";
import { noticeWithLink } from "../ui/modals/form";
import { ReplyModal } from "../ui/modals/reply-modal";
import { COMMAND_IDS } from "./command-ids";
import { activeInboxRequest } from "./context";
import { FORM_ERROR, checkOutboxNote, createNote } from "./message-check";
import type { FieldErrors } from "./message-check";

// Reply to message: the response to the request open in a group's inbox, written into that
// group's outbox with in_reply_to, the request's trace_id and the group as source_group.

export interface ReplyValues {
	status: string;
	answer: string;
	artifacts: string[];
}

export type PlannedReply = { ok: true; folder: string; fileName: string; text: string } | { ok: false; errors: FieldErrors };

const FIELD_OF: Record<string, string> = { status: "status", note: "answer", frontmatter: "answer", payload: "answer" };

export function planReply(services: RelayServices, request: IndexEntry, group: string, values: ReplyValues, now: number): PlannedReply {
	const errors: FieldErrors = {};
	const artifacts = values.artifacts.map((a) => a.trim()).filter((a) => a !== "");
	if (values.answer.trim() === "" && artifacts.length === 0) {
		errors.answer = values.status === "error" ? "Say what went wrong." : "Write the answer.";
	}
	if (values.status !== "success" && values.status !== "error") errors.status = "Choose success or error.";
	if (!request.traceId) errors[FORM_ERROR] = "The request has no trace_id to answer.";
	if (Object.keys(errors).length > 0) return { ok: false, errors };
	const message = buildResponse(
		{ request: { ...request, targetGroup: group }, status: values.status as "success" | "error", answer: values.answer, artifacts },
		now,
	);
	const text = serialiseMessage(message);
	const fileName = messageFileName(message, now);
	const layout = services.relay.router.layout;
	const folder = layout.box(group, "outbox");
	if (!folder) return { ok: false, errors: { [FORM_ERROR]: `Group "${group}" is no longer in the registry.` } };
	const check = checkOutboxNote(services, text, joinPath(folder, fileName), group, FIELD_OF, now);
	Object.assign(errors, check.errors);
	if (check.verdict?.action === "reject") errors[FORM_ERROR] ??= `The router would reject it (${check.verdict.code}): ${check.verdict.reason}`;
	if (Object.keys(errors).length > 0) return { ok: false, errors };
	return { ok: true, folder, fileName, text };
}

export async function writeReply(services: RelayServices, planned: Extract<PlannedReply, { ok: true }>): Promise<string> {
	const path = await createNote(services, planned.folder, planned.fileName, planned.text);
	noticeWithLink(services.app, "Response written: ", path);
	return path;
}

export function replyToMessageCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.replyToMessage,
		name: "Reply to message",
		icon: "reply",
		checkCallback: (checking) => {
			const target = activeInboxRequest(services);
			if (!target) return false;
			if (!checking) new ReplyModal(services, target).open();
			return true;
		},
	};
}
