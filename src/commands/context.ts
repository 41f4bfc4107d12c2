import { TFile } from "obsidian";
import type { AgentView } from "../obsidian/agent-store";
import type { Location } from "../core/layout";
import type { IndexEntry } from "../core/message-index";
import type { RoutingContext } from "../core/routing";
import type { RelayServices } from "../services";

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

function activeFile(services: RelayServices): TFile | null {
	const file = services.app.workspace.getActiveFile();
	return file instanceof TFile ? file : null;
}

/** The active note when it is a request delivered to a group's inbox. */
export function activeInboxRequest(services: RelayServices): ActiveInboxRequest | null {
	const file = activeFile(services);
	if (!file) return null;
	const router = services.relay.router;
	const location = router.layout.locate(file.path);
	if (location.area !== "box" || location.box !== "inbox") return null;
	const entry = router.index.get(file.path);
	if (!entry || entry.kind !== "request") return null;
	return { file, entry, location, group: location.group };
}

/** The active note when it is an indexed message with a trace (in a box or the dead-letter folder). */
export function activeTracedMessage(services: RelayServices): ActiveMessage | null {
	const file = activeFile(services);
	if (!file) return null;
	const router = services.relay.router;
	const location = router.layout.locate(file.path);
	if (location.area !== "box" && location.area !== "dead-letter") return null;
	const entry = router.index.get(file.path);
	if (!entry?.traceId) return null;
	return { file, entry, location };
}

/** The active note when it is a note in the dead-letter folder. */
export function activeDeadLetter(services: RelayServices): TFile | null {
	const file = activeFile(services);
	if (!file || file.extension !== "md") return null;
	return services.relay.router.layout.locate(file.path).area === "dead-letter" ? file : null;
}

/** The active note when the agent store knows it as an agent note. */
export function activeAgent(services: RelayServices): { file: TFile; agent: AgentView } | null {
	const file = activeFile(services);
	if (!file) return null;
	const agent = services.agents.get(file.path);
	return agent ? { file, agent } : null;
}

/** The routing context the router would decide with now (for predicting its verdicts). */
export function routingContext(services: RelayServices, now: number): RoutingContext {
	const router = services.relay.router;
	return { registry: router.registry, layout: router.layout, index: router.index, now };
}
