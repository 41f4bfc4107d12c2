import { isStale } from "../src/core/agent";
import type { AgentRecord } from "../src/core/agent";
import { agentFolders as agentFoldersOf } from "../src/core/agent-folders";
import { parseLease } from "../src/core/lease";
import { queueSummary } from "../src/core/queues";
import { gatewayGroup } from "../src/core/registry";
import type { GroupQueue } from "../src/core/queues";
import { historyCounts } from "../src/router/history-counts";
import { refreshLive } from "../src/router/index-refresh";
import { scanAgents } from "./agent-scan";
import { obsidianSyncOn, readPluginSettings } from "./plugin-settings";
import type { NodeVault } from "./node-vault";
import type { Router } from "../src/router/router";

/** What a status report reads: the vault and its router. */
interface VaultSession {
	vault: NodeVault;
	router: Router;
}

// What `a2a status --json` prints and the MCP tool `relay_status` returns: every agent (status,
// progress, last action, stale), every group's queue counts, and a summary line.

export interface AgentRow {
	type: "agent";
	name: string;
	path: string;
	status: string;
	progress: number | null;
	last_action: string | null;
	result: string | null;
	error: string | null;
	group: string | null;
	updated: string | null;
	stale: boolean;
}

export interface GroupRow {
	type: "group";
	group: string;
	inbox: number;
	outbox: number;
	archive: number;
	in_flight: number;
	overdue: number;
	/** The gateway group (`a2a serve` writes outside A2A clients' requests from it): true, else absent. */
	gateway?: true;
	/** A remote group's agent (`url:` in the registry), and its requests forwarded there and waiting. */
	url?: string;
	forwarded?: number;
}

export interface SummaryRow {
	type: "summary";
	agents: number;
	groups: number;
	dead_letters: number;
	registry_errors: number;
	/** Who routes this vault, from the lease note (null when no router ever did). */
	router: { device: string; name: string; renewed: string; released: boolean } | null;
	/** Things worth knowing about the registry (both forms present, a form a sync service may not carry). */
	registry_warnings: string[];
}

export interface StatusReport {
	agents: AgentRow[];
	groups: GroupRow[];
	summary: SummaryRow;
	/** The records behind the agent rows (for the text table). */
	records: AgentRecord[];
	queues: GroupQueue[];
	/** Agent notes whose frontmatter does not parse. */
	unreadable: string[];
}

/**
 * The registry's warnings, and one more when it is a .yaml file in a vault Obsidian Sync carries:
 * Sync carries .yaml files only with "Sync other file types" on (a2a init --registry-note writes the
 * note form). A vault no sync service is known to carry gets no such warning.
 */
async function registryWarnings(session: VaultSession): Promise<string[]> {
	const { router, vault } = session;
	const warnings = [...router.registry.warnings];
	if ((await vault.stat(router.layout.registryPath)) && !(await vault.stat(router.layout.registryNotePath)) && (await obsidianSyncOn(vault.dir))) {
		warnings.push(`${router.layout.registryPath} is a .yaml file: Obsidian Sync carries it only with "Sync other file types" on; the note ${router.layout.registryNotePath} (same mapping in its frontmatter) is carried by every sync service`);
	}
	return warnings;
}

/** Where agent notes are: the root's agents folder (new notes go there), the plugin's extra agent folders, then `extra`. */
export async function agentFolders(session: VaultSession, extra: string[] = []): Promise<string[]> {
	const shared = await readPluginSettings(session.vault.dir);
	return agentFoldersOf(session.router.layout, [...shared.extraAgentFolders, ...extra]);
}

export async function statusReport(session: VaultSession, agentFolders: string[], staleMinutes: number, now: number): Promise<StatusReport> {
	const { router, vault } = session;
	const { agents, unreadable } = await scanAgents(vault, agentFolders);
	// The history is counted from its listings, never read: a status costs the same on a year of it.
	await refreshLive(router);
	const queues = queueSummary(router.index, router.layout, now);
	const history = await historyCounts(router);
	for (const q of queues.groups) q.archive = history.archives.get(q.group) ?? 0;
	queues.deadLetters = history.deadLetters;
	const agentRows: AgentRow[] = agents.map((a) => ({
		type: "agent",
		name: a.name,
		path: a.path,
		status: a.status,
		progress: a.progress ?? null,
		last_action: a.lastAction ?? null,
		result: a.result ?? null,
		error: a.error ?? null,
		group: a.group ?? null,
		updated: a.updatedAt !== undefined ? new Date(a.updatedAt).toISOString() : null,
		stale: isStale(a, now, staleMinutes * 60000),
	}));
	const gateway = gatewayGroup(router.registry);
	const groupRows: GroupRow[] = queues.groups.map((q) => {
		const row: GroupRow = { type: "group", group: q.group, inbox: q.inbox, outbox: q.outbox, archive: q.archive, in_flight: q.inFlight, overdue: q.overdue };
		if (q.group === gateway) row.gateway = true;
		const url = router.registry.groups.get(q.group)?.url;
		return url === undefined ? row : { ...row, url, forwarded: q.forwarded };
	});
	const lease = parseLease((await vault.read(router.layout.leasePath))?.text ?? null);
	const summary: SummaryRow = {
		type: "summary",
		agents: agents.length,
		groups: queues.groups.length,
		dead_letters: queues.deadLetters,
		registry_errors: router.registry.errors.length,
		router: lease ? { device: lease.device, name: lease.name, renewed: lease.renewed, released: lease.released } : null,
		registry_warnings: await registryWarnings(session),
	};
	return { agents: agentRows, groups: groupRows, summary, records: agents, queues: queues.groups, unreadable };
}
