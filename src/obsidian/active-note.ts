import { TFile } from "obsidian";
import type { App } from "obsidian";
import type { Location } from "../core/layout";
import type { IndexEntry } from "../core/message-index";
import type { AgentEntry } from "./agent-store";
import type { RelayState } from "./relay-state";

// What the active note is, as the core sees it: a request in an inbox, a message of a trace, a dead
// letter, an agent note. Each command's checkCallback asks one of these; none reads a file.

export interface ActiveMessage {
	file: TFile;
	entry: IndexEntry;
	location: Location;
}

export interface ActiveInboxRequest extends ActiveMessage {
	/** The group whose inbox holds the request (the group that answers or forwards it). */
	group: string;
}

function activeFile(app: App): TFile | null {
	const file = app.workspace.getActiveFile();
	return file instanceof TFile ? file : null;
}

/** The active note when it is a request delivered to a group's inbox. */
export function activeInboxRequest(app: App, state: RelayState): ActiveInboxRequest | null {
	const file = activeFile(app);
	if (!file) return null;
	const location = state.layout().locate(file.path);
	if (location.area !== "box" || location.box !== "inbox") return null;
	const entry = state.index().get(file.path);
	if (!entry || entry.kind !== "request") return null;
	return { file, entry, location, group: location.group };
}

/** The active note when it is an indexed message with a trace (in a box or the dead-letter folder). */
export function activeTracedMessage(app: App, state: RelayState): ActiveMessage | null {
	const file = activeFile(app);
	if (!file) return null;
	const location = state.layout().locate(file.path);
	if (location.area !== "box" && location.area !== "dead-letter") return null;
	const entry = state.index().get(file.path);
	if (!entry?.traceId) return null;
	return { file, entry, location };
}

/** The active note when it is a note in the dead-letter folder. */
export function activeDeadLetter(app: App, state: RelayState): TFile | null {
	const file = activeFile(app);
	if (!file || file.extension !== "md") return null;
	return state.layout().locate(file.path).area === "dead-letter" ? file : null;
}

/** The active note when the agent store knows it as an agent note. */
export function activeAgent(app: App, agents: { get(path: string): AgentEntry | undefined }): { file: TFile; agent: AgentEntry } | null {
	const file = activeFile(app);
	if (!file) return null;
	const agent = agents.get(file.path);
	return agent ? { file, agent } : null;
}
