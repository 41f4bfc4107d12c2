import type { AgentRecord } from "../../core/agent";
import { compareStatuses } from "./status-style";
import { VIEW_TEXT } from "../strings";

// Grouping the agent list: by the agent's group (alphabetical, agents without one last) or by
// status (lifecycle order). Within a section agents are ordered by name.

export type Grouping = "group" | "status";

export const GROUPINGS: readonly Grouping[] = ["group", "status"];

export function isGrouping(value: unknown): value is Grouping {
	return value === "group" || value === "status";
}

/** The section an agent belongs to; "" is "no group". */
export function sectionKey(agent: AgentRecord, grouping: Grouping): string {
	return grouping === "status" ? agent.status : (agent.group ?? "");
}

export function sectionTitle(key: string, grouping: Grouping): string {
	if (grouping === "group") return key === "" ? VIEW_TEXT.noGroup : key;
	return key;
}

export function compareSections(a: string, b: string, grouping: Grouping): number {
	if (grouping === "status") return compareStatuses(a, b);
	if (a === "" || b === "") return (a === "" ? 1 : 0) - (b === "" ? 1 : 0);
	return a.localeCompare(b);
}

export function compareAgents(a: AgentRecord, b: AgentRecord): number {
	return a.name.localeCompare(b.name) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
