import { Notice } from "obsidian";
import type { Command } from "obsidian";
import { buildForward, messageFileName } from "../core/compose";
import { isRequest } from "../core/message";
import type { RequestMessage } from "../core/message";
import { readRawMessage } from "../core/message-parse";
import { serialiseMessage } from "../core/message-serialise";
import { joinPath } from "../core/paths";
import type { ErrorCode } from "../core/protocol";
import { formatProblems, validateRaw } from "../core/validate";
import type { RelayServices } from "../services";
import { noticeWithLink } from "../ui/modals/form";
import { ForwardModal } from "../ui/modals/forward-modal";
import { COMMAND_IDS } from "./command-ids";
import { activeInboxRequest } from "./context";
import type { ActiveInboxRequest } from "./context";
import { FORM_ERROR, checkOutboxNote, createNote, groupProblem } from "./message-check";
import type { FieldErrors } from "./message-check";

// Forward message: delegates the request open in a group's inbox to another group, as a new
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

export function planForward(services: RelayServices, original: RequestMessage, group: string, toValue: string, note: string, now: number): PlannedForward {
	const layout = services.relay.router.layout;
	const to = toValue.trim();
	const toProblem = groupProblem(layout, to, "group to forward to");
	if (toProblem) return { ok: false, errors: { to: toProblem } };
	if (to === group) return { ok: false, errors: { to: `${group} holds the request already: choose another group.` } };
	const folder = layout.box(group, "outbox");
	if (!folder) return { ok: false, errors: { [FORM_ERROR]: `Group "${group}" is no longer in the registry.` } };
	const message = buildForward(original, group, to, note, now);
	const text = serialiseMessage(message);
	const fileName = messageFileName(message, now);
	const check = checkOutboxNote(services, text, joinPath(folder, fileName), group, FIELD_OF, now);
	if (Object.keys(check.errors).length > 0) return { ok: false, errors: check.errors };
	const verdict = check.verdict;
	let warning: ForwardWarning | null = null;
	if (verdict?.action === "reject") {
		if (verdict.code === "MAX_HOPS_EXCEEDED" || verdict.code === "CYCLE_DETECTED") warning = { code: verdict.code, reason: verdict.reason };
		else return { ok: false, errors: { [verdict.code === "GROUP_NOT_FOUND" ? "to" : FORM_ERROR]: `The router would reject it (${verdict.code}): ${verdict.reason}` } };
	}
	return { ok: true, folder, fileName, text, warning };
}

export async function writeForward(services: RelayServices, planned: Extract<PlannedForward, { ok: true }>): Promise<string> {
	const path = await createNote(services, planned.folder, planned.fileName, planned.text);
	noticeWithLink(services.app, "Forward written: ", path);
	return path;
}

/** Reads the request as a message; a notice says why when it cannot be forwarded. */
async function openForward(services: RelayServices, target: ActiveInboxRequest): Promise<void> {
	const text = await services.app.vault.read(target.file);
	const read = readRawMessage(text, target.file.path);
	if (!read.ok) {
		new Notice(`This request cannot be forwarded: ${read.reason}`);
		return;
	}
	const validation = validateRaw(read.raw);
	if (!validation.ok) {
		new Notice(`This request cannot be forwarded: ${formatProblems(validation.problems)}`);
		return;
	}
	if (!isRequest(validation.message)) {
		new Notice("Only a request can be forwarded.");
		return;
	}
	new ForwardModal(services, target, validation.message).open();
}

export function forwardMessageCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.forwardMessage,
		name: "Forward message",
		icon: "forward",
		checkCallback: (checking) => {
			const target = activeInboxRequest(services);
			if (!target) return false;
			if (!checking) void openForward(services, target);
			return true;
		},
	};
}
