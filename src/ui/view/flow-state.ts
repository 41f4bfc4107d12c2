import type { App } from "obsidian";
import type { RoutingDecision } from "../../core/decision";
import type { GroupQueue } from "../../core/queues";
import { describeRegistryError } from "../../core/registry";
import type { RelayState } from "../../obsidian/relay-state";

// What the message flow section shows, read from the relay (the core computed all of it): queue
// counts per group, the dead-letter notes newest first, the latest routing decisions and the
// registry's problems.

const RECENT_SHOWN = 10;
const DEAD_LETTERS_SHOWN = 50;

/** One row of the dead-letter list. */
export interface DeadLetterRow {
	path: string;
	errorCode?: string;
	errorMessage?: string;
	deadAt?: string;
}

export interface FlowState {
	registryPath: string;
	registryExists: boolean;
	registryErrors: string[];
	groups: GroupQueue[];
	deadLetterCount: number;
	deadLetters: DeadLetterRow[];
	recent: RoutingDecision[];
}

export function readFlowState(app: App, state: RelayState): FlowState {
	const registryPath = state.layout().registryPath;
	const registryExists = app.vault.getAbstractFileByPath(registryPath) !== null;
	const queues = state.queues();
	const dead: DeadLetterRow[] = [];
	for (const entry of state.index().all()) {
		if (entry.location.area !== "dead-letter") continue;
		dead.push({ path: entry.path, errorCode: entry.errorCode, errorMessage: entry.errorMessage, deadAt: entry.deadAt });
	}
	const when = (d: DeadLetterRow): number => {
		const t = d.deadAt ? Date.parse(d.deadAt) : Number.NaN;
		return Number.isNaN(t) ? 0 : t;
	};
	dead.sort((a, b) => when(b) - when(a) || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0));
	return {
		registryPath,
		registryExists,
		registryErrors: registryExists ? state.registry().errors.map(describeRegistryError) : [],
		groups: queues.groups,
		deadLetterCount: queues.deadLetters,
		deadLetters: dead.slice(0, DEAD_LETTERS_SHOWN),
		recent: state.recent().slice(0, RECENT_SHOWN),
	};
}
