import { TFile } from "obsidian";
import type { App } from "obsidian";
import type { Location } from "../core/layout";
import type { IndexEntry } from "../core/message-index";
import type { AgentEntry } from "./agent-store";
import type { RelayState } from "./relay-state";

// What a note is, as the core sees it: a request in an inbox, a message of a trace, a dead letter,
// an agent note. Asked of the active note (each command's checkCallback) or of any file (its file
// menu, a row of the sidebar); none reads a file.

export interface ActiveMessage {
	file: TFile;
	entry: IndexEntry;
	location: Location;
}

export interface ActiveInboxRequest extends ActiveMessage {
	/** The group whose inbox holds the request (the group that answers or forwards it). */
	group: string;
}

type Agents = { get(path: string): AgentEntry | undefined };

function activeFile(app: App): TFile | null {
	const file = app.workspace.getActiveFile();
	return file instanceof TFile ? file : null;
}

/** The note when it is a request delivered to a group's inbox. */
export function inboxRequestAt(state: RelayState, file: TFile): ActiveInboxRequest | null {
	const location = state.layout().locate(file.path);
	if (location.area !== "box" || location.box !== "inbox") return null;
	const entry = state.index().get(file.path);
	if (!entry || entry.kind !== "request") return null;
	return { file, entry, location, group: location.group };
}

/** The note when it is an indexed message with a trace (in a box or the dead-letter folder). */
export function tracedMessageAt(state: RelayState, file: TFile): ActiveMessage | null {
	const location = state.layout().locate(file.path);
	if (location.area !== "box" && location.area !== "dead-letter") return null;
	const entry = state.index().get(file.path);
	if (!entry?.traceId) return null;
	return { file, entry, location };
}

/** The note when it is a note in the dead-letter folder. */
export function deadLetterAt(state: RelayState, file: TFile): TFile | null {
	if (file.extension !== "md") return null;
	return state.layout().locate(file.path).area === "dead-letter" ? file : null;
}

/** The note when the agent store knows it as an agent note. */
export function agentAt(agents: Agents, file: TFile): { file: TFile; agent: AgentEntry } | null {
	const agent = agents.get(file.path);
	return agent ? { file, agent } : null;
}

const onActive =
	<T>(pick: (file: TFile) => T | null) =>
	(app: App): T | null => {
		const file = activeFile(app);
		return file ? pick(file) : null;
	};

export const activeInboxRequest = (app: App, state: RelayState): ActiveInboxRequest | null => onActive((f) => inboxRequestAt(state, f))(app);
export const activeTracedMessage = (app: App, state: RelayState): ActiveMessage | null => onActive((f) => tracedMessageAt(state, f))(app);
export const activeDeadLetter = (app: App, state: RelayState): TFile | null => onActive((f) => deadLetterAt(state, f))(app);
export const activeAgent = (app: App, agents: Agents): { file: TFile; agent: AgentEntry } | null => onActive((f) => agentAt(agents, f))(app);
