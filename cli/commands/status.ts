import { terminalText } from "../../src/core/terminal-text";
import { formatAge, isStale } from "../../src/core/agent";
import { safeRelativeFolder } from "../../src/core/paths";
import { UsageError, integer, many } from "../args";
import type { ParsedArgs } from "../args";
import { readPluginSettings } from "../../node/plugin-settings";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";
import { agentFolders, statusReport } from "../../node/status-report";

export const STATUS_HELP = `Usage: a2a status [--json] [--agents FOLDER]... [--stale-minutes N] [--vault DIR] [--root NAME]

Prints every agent (status, progress, last action, time since its last update, stale marker) found
in <root>/agents and the extra agent folders of the plugin's settings (or --agents), then the
message counts of every group and the number of dead letters.`;

/** A column of the table: the text terminal-safe (src/core/terminal-text.ts), cut or padded to `width`. */
function pad(raw: string, width: number): string {
	const text = terminalText(raw);
	return text.length > width ? `${text.slice(0, width - 1)}… ` : text.padEnd(width + 1);
}

export async function runStatus(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const session = await openSession(args, io);
	const registryErrors = checkRegistry(session);
	const shared = await readPluginSettings(session.vault.dir);
	const extra = many(args, "agents").map((f) => {
		const folder = safeRelativeFolder(f);
		if (!folder) throw new UsageError(`--agents must be a folder inside the vault, got "${f}"`);
		return folder;
	});
	const staleMinutes = integer(args, "stale-minutes", 1) ?? shared.staleMinutes;
	const now = Date.now();
	const report = await statusReport(session, await agentFolders(session, extra), staleMinutes, now);
	for (const path of report.unreadable) io.err(terminalText(`could not read the frontmatter of ${path}`));
	if (session.json) {
		for (const row of [...report.agents, ...report.groups, report.summary]) io.out(JSON.stringify(row));
		return registryErrors ? 2 : 0;
	}
	const agents = report.records;
	const queues = { groups: report.queues, deadLetters: report.summary.dead_letters };
	io.out(`Agents (${agents.length})`);
	if (agents.length === 0) io.out("  none yet: create one with `a2a agent set NAME status=spawned`");
	else io.out(`  ${pad("NAME", 24)}${pad("STATUS", 10)}${pad("PROGRESS", 8)}${pad("LAST ACTION", 32)}${pad("UPDATED", 11)}`);
	for (const a of agents) {
		const stale = isStale(a, now, staleMinutes * 60000) ? "  STALE" : "";
		const age = a.updatedAt !== undefined ? formatAge(now - a.updatedAt) : "-";
		const progress = a.progress !== undefined ? `${Math.round(a.progress)}%` : "-";
		const result = a.result ? ` result=${terminalText(a.result)}` : "";
		io.out(`  ${pad(a.name, 24)}${pad(a.status, 10)}${pad(progress, 8)}${pad(a.lastAction ?? "-", 32)}${pad(age, 11)}${result}${stale}`);
	}
	io.out("");
	const gateway = report.groups.find((g) => g.gateway)?.group;
	io.out(`Groups (${queues.groups.filter((q) => q.group !== gateway).length})`);
	io.out(`  ${pad("GROUP", 24)}${pad("INBOX", 7)}${pad("OUTBOX", 7)}${pad("ARCHIVE", 7)}${pad("IN FLIGHT", 9)}${pad("OVERDUE", 7)}`);
	for (const q of queues.groups) {
		if (q.group === gateway) continue;
		io.out(`  ${pad(q.group, 24)}${pad(String(q.inbox), 7)}${pad(String(q.outbox), 7)}${pad(String(q.archive), 7)}${pad(String(q.inFlight), 9)}${pad(String(q.overdue), 7)}`);
	}
	const gw = queues.groups.find((q) => q.group === gateway);
	if (gw) io.out(`Gateway: ${gw.group} (a2a serve writes outside A2A clients' requests from it; it answers none): ${gw.inFlight} in flight, ${gw.inbox} answer(s) in its inbox`);
	io.out("");
	const remotes = report.groups.filter((g) => g.url !== undefined);
	if (remotes.length > 0) {
		io.out(`Remote groups (${remotes.length})`);
		for (const g of remotes) io.out(`  ${pad(g.group, 24)}${terminalText(g.url ?? "")}  ${g.forwarded ?? 0} forwarded, waiting for the answer`);
		io.out("");
	}
	io.out(`Dead letters: ${queues.deadLetters}`);
	const lease = report.summary.router;
	io.out(terminalText(lease === null ? "Routing: no router has routed this vault yet" : lease.released ? `Routing: nobody now (${lease.name} stopped at ${lease.renewed})` : `Routing: ${lease.name} (last renewal ${lease.renewed})`));
	for (const warning of report.summary.registry_warnings) io.out(terminalText(`Note: ${warning}`));
	return registryErrors ? 2 : 0;
}
