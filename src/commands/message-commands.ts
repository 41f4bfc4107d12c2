import type { Command } from "obsidian";
import { activeAgent, activeDeadLetter, activeInboxRequest, activeTracedMessage } from "../obsidian/active-note";
import { openFinding, openForward, openReply, openRetry, openSetStatus } from "../ui/note-actions";
import { COMMAND_NAMES } from "../ui/strings";
import { exportTrace } from "../ui/trace/export-trace";
import { openTraceView } from "../ui/trace/trace-view";
import { COMMAND_IDS } from "./command-ids";
import type { CommandParts } from "./command-parts";

// The commands that act on the active note: each is offered only where it applies
// (checkCallback), and opens the same form as the note's file menu (src/ui/note-actions.ts).

type Parts = Pick<CommandParts, "app" | "state" | "vault" | "agents" | "composed">;

export function replyToMessageCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.replyToMessage,
		name: COMMAND_NAMES.replyToMessage,
		icon: "reply",
		checkCallback: (checking) => {
			const target = activeInboxRequest(parts.app, parts.state);
			if (!target) return false;
			if (!checking) openReply(parts, target);
			return true;
		},
	};
}

export function forwardMessageCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.forwardMessage,
		name: COMMAND_NAMES.forwardMessage,
		icon: "forward",
		checkCallback: (checking) => {
			const target = activeInboxRequest(parts.app, parts.state);
			if (!target) return false;
			if (!checking) void openForward(parts, target);
			return true;
		},
	};
}

export function retryDeadLetterCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.retryDeadLetter,
		name: COMMAND_NAMES.retryDeadLetter,
		icon: "rotate-ccw",
		checkCallback: (checking) => {
			const file = activeDeadLetter(parts.app, parts.state);
			if (!file) return false;
			if (!checking) void openRetry(parts, file);
			return true;
		},
	};
}

export function showTraceCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.showTrace,
		name: COMMAND_NAMES.showTrace,
		icon: "git-commit-horizontal",
		checkCallback: (checking) => {
			const target = activeTracedMessage(parts.app, parts.state);
			const traceId = target?.entry.traceId;
			if (!target || !traceId) return false;
			if (!checking) void openTraceView(parts.app, { traceId, path: target.file.path });
			return true;
		},
	};
}

export function exportTraceCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.exportTrace,
		name: COMMAND_NAMES.exportTrace,
		icon: "file-output",
		checkCallback: (checking) => {
			const traceId = activeTracedMessage(parts.app, parts.state)?.entry.traceId;
			if (!traceId) return false;
			if (!checking) void exportTrace(parts, traceId);
			return true;
		},
	};
}

export function setAgentStatusCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.setAgentStatus,
		name: COMMAND_NAMES.setAgentStatus,
		icon: "activity",
		checkCallback: (checking) => {
			const target = activeAgent(parts.app, parts.agents);
			if (!target) return false;
			if (!checking) openSetStatus(parts, target.file, target.agent);
			return true;
		},
	};
}

export function appendFindingCommand(parts: Parts): Command {
	return {
		id: COMMAND_IDS.appendFinding,
		name: COMMAND_NAMES.appendFinding,
		icon: "list-plus",
		checkCallback: (checking) => {
			const target = activeAgent(parts.app, parts.agents);
			if (!target) return false;
			if (!checking) openFinding(parts, target.file, target.agent);
			return true;
		},
	};
}
