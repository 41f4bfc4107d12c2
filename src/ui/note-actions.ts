import { Notice } from "obsidian";
import type { Menu, TFile } from "obsidian";
import { readForwardable } from "../actions/forward";
import { correctableFields, notRetryable, readDeadLetter } from "../actions/retry";
import { noNextStatus } from "../actions/set-status";
import { legalNextStates } from "../core/lifecycle";
import { agentAt, deadLetterAt, inboxRequestAt, tracedMessageAt } from "../obsidian/active-note";
import type { ActiveInboxRequest } from "../obsidian/active-note";
import type { AgentEntry } from "../obsidian/agent-store";
import { AgentStatusModal } from "./modals/agent-status-modal";
import { FindingModal } from "./modals/finding-modal";
import { ForwardModal } from "./modals/forward-modal";
import { ReplyModal } from "./modals/reply-modal";
import { RetryModal } from "./modals/retry-modal";
import { ACTION_NAMES } from "./strings";
import { exportTrace } from "./trace/export-trace";
import { openTraceView } from "./trace/trace-view";
import type { UiParts } from "./ui-parts";

// What can be done with a note, wherever the user is: its file menu, the editor's menu, the
// sidebar's rows, the header of its view, notices and the command palette all offer the same
// actions, each opening the same form. Which ones a note has is decided from the index and the
// agent store (no file is read until an action runs).

export type Parts = Pick<UiParts, "app" | "state" | "vault" | "agents" | "composed">;

export interface NoteAction {
	id: "reply" | "forward" | "show-trace" | "export-trace" | "retry" | "set-status" | "append-finding";
	title: string;
	icon: string;
	run(): void;
}

export function openReply(parts: Parts, target: ActiveInboxRequest): void {
	new ReplyModal(parts.app, parts.state, parts.vault, target, parts.composed).open();
}

/** Reads the request as a message; a notice says why when it cannot be forwarded. */
export async function openForward(parts: Parts, target: ActiveInboxRequest): Promise<void> {
	const read = readForwardable(await parts.app.vault.read(target.file), target.file.path);
	if (!read.ok) {
		new Notice(read.why);
		return;
	}
	new ForwardModal(parts.app, parts.state, parts.vault, target, read.request, parts.composed).open();
}

/** Reads the dead letter; a notice says why when it cannot be retried as it is. */
export async function openRetry(parts: Parts, file: TFile): Promise<void> {
	const dl = readDeadLetter(file.path, await parts.app.vault.read(file));
	const why = notRetryable(dl);
	if (why) {
		new Notice(why, 12000);
		return;
	}
	new RetryModal(parts.app, parts.state, parts.vault, dl, correctableFields(parts.state.routing(Date.now()), dl), parts.composed).open();
}

export function openSetStatus(parts: Parts, file: TFile, agent: AgentEntry): void {
	const why = noNextStatus(agent);
	if (why) new Notice(why);
	else new AgentStatusModal(parts.app, parts.vault, file, agent, legalNextStates(agent.status)).open();
}

export function openFinding(parts: Parts, file: TFile, agent: AgentEntry): void {
	new FindingModal(parts.app, parts.vault, file, agent.name).open();
}

/** The actions a note offers, in menu order (none for a note that is neither a message nor an agent). */
export function noteActions(parts: Parts, file: TFile): NoteAction[] {
	const actions: NoteAction[] = [];
	const request = inboxRequestAt(parts.state, file);
	if (request) {
		actions.push({ id: "reply", title: ACTION_NAMES.reply, icon: "reply", run: () => openReply(parts, request) });
		actions.push({ id: "forward", title: ACTION_NAMES.forward, icon: "forward", run: () => void openForward(parts, request) });
	}
	const dead = deadLetterAt(parts.state, file);
	if (dead) actions.push({ id: "retry", title: ACTION_NAMES.retry, icon: "rotate-ccw", run: () => void openRetry(parts, dead) });
	const traced = tracedMessageAt(parts.state, file);
	const traceId = traced?.entry.traceId;
	if (traceId) {
		actions.push({ id: "show-trace", title: ACTION_NAMES.showTrace, icon: "git-commit-horizontal", run: () => void openTraceView(parts.app, { traceId, path: file.path }) });
		actions.push({ id: "export-trace", title: ACTION_NAMES.exportTrace, icon: "file-output", run: () => void exportTrace(parts, traceId) });
	}
	const agent = agentAt(parts.agents, file);
	if (agent) {
		actions.push({ id: "set-status", title: ACTION_NAMES.setStatus, icon: "activity", run: () => openSetStatus(parts, agent.file, agent.agent) });
		actions.push({ id: "append-finding", title: ACTION_NAMES.appendFinding, icon: "list-plus", run: () => openFinding(parts, agent.file, agent.agent) });
	}
	return actions;
}

/** Adds a note's actions to a menu, in their own section. */
export function addNoteActions(menu: Menu, actions: readonly NoteAction[]): void {
	for (const action of actions) menu.addItem((item) => item.setTitle(action.title).setIcon(action.icon).setSection("action").onClick(() => action.run()));
}
