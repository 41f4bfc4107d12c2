import type { AgentRecord } from "../../core/agent";

// The filter box: every word must match the agent's name, role, group, status or last action
// (case-insensitive). A word may name its field: `status:running`, `group:qa`, `role:explorer`,
// `name:ui`, `action:links`; `is:stale` keeps the agents that are stale now.

const FIELDS = ["name", "role", "group", "status", "action"] as const;
type Field = (typeof FIELDS)[number];

interface Term {
	field?: Field;
	text: string;
}

export interface AgentFilter {
	readonly terms: readonly Term[];
	readonly empty: boolean;
	/** `is:stale` was asked for. */
	readonly stale: boolean;
}

export const STALE_FILTER = "is:stale";

export function parseFilter(query: string): AgentFilter {
	const terms: Term[] = [];
	let stale = false;
	for (const word of query.toLowerCase().split(/\s+/)) {
		if (word === "") continue;
		if (word === STALE_FILTER) {
			stale = true;
			continue;
		}
		const colon = word.indexOf(":");
		const field = colon > 0 ? word.slice(0, colon) : "";
		if ((FIELDS as readonly string[]).includes(field)) {
			const text = word.slice(colon + 1);
			if (text !== "") terms.push({ field: field as Field, text });
		} else terms.push({ text: word });
	}
	return { terms, empty: terms.length === 0 && !stale, stale };
}

function fieldText(agent: AgentRecord, field: Field): string {
	switch (field) {
		case "name":
			return agent.name;
		case "role":
			return agent.role ?? "";
		case "group":
			return agent.group ?? "";
		case "status":
			return agent.status;
		case "action":
			return agent.lastAction ?? "";
	}
}

export function matchesFilter(agent: AgentRecord, filter: AgentFilter, isStale: (agent: AgentRecord) => boolean = () => false): boolean {
	if (filter.empty) return true;
	if (filter.stale && !isStale(agent)) return false;
	return filter.terms.every((term) => {
		if (term.field) return fieldText(agent, term.field).toLowerCase().includes(term.text);
		return FIELDS.some((field) => fieldText(agent, field).toLowerCase().includes(term.text));
	});
}
