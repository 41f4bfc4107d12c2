import type { App } from "obsidian";
import type { RoutingDecision } from "../../core/decision";
import type { GroupQueue } from "../../core/queues";
import { describeRegistryError } from "../../core/registry";
import type { Relay } from "../../obsidian/relay";

// What the message flow section shows, read from the relay (the core computed all of it): queue
// counts per group, the dead-letter notes newest first, the latest routing decisions and the
// registry's problems.

export const RECENT_SHOWN = 10;
export const DEAD_LETTERS_SHOWN = 50;

export interface DeadLetter {
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
	deadLetters: DeadLetter[];
	recent: RoutingDecision[];
}

export function readFlowState(app: App, relay: Relay): FlowState {
	const router = relay.router;
	const registryPath = router.layout.registryPath;
	const registryExists = app.vault.getAbstractFileByPath(registryPath) !== null;
	const queues = relay.queues();
	const dead: DeadLetter[] = [];
	for (const entry of router.index.all()) {
		if (entry.location.area !== "dead-letter") continue;
		dead.push({ path: entry.path, errorCode: entry.errorCode, errorMessage: entry.errorMessage, deadAt: entry.deadAt });
	}
	const when = (d: DeadLetter): number => {
		const t = d.deadAt ? Date.parse(d.deadAt) : Number.NaN;
		return Number.isNaN(t) ? 0 : t;
	};
	dead.sort((a, b) => when(b) - when(a) || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0));
	return {
		registryPath,
		registryExists,
		registryErrors: registryExists ? router.registry.errors.map(describeRegistryError) : [],
		groups: queues.groups,
		deadLetterCount: queues.deadLetters,
		deadLetters: dead.slice(0, DEAD_LETTERS_SHOWN),
		recent: relay.recent.slice(0, RECENT_SHOWN),
	};
}
