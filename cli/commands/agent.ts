import { appendAgentFinding, checkedAgentName, findAgentNote, updateAgent } from "../../src/actions/agent-update";
import type { AgentTarget } from "../../src/actions/agent-update";
import { parseAssignment } from "../../src/core/agent-notes";
import { AGENT_STATUSES } from "../../src/core/lifecycle";
import { UsageError, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { openSession } from "../session";
import type { Session } from "../session";
import { agentFolders } from "../../node/status-report";

export const AGENT_HELP = `Usage: a2a agent set NAME key=value... [--vault DIR] [--root NAME] [--json]
       a2a agent finding NAME --action TEXT [--context T] [--data T] [--decisions T] [--next T]
                         [--vault DIR] [--root NAME] [--json]

set      updates the agent note's frontmatter in one atomic write (other fields are kept). A value
         is kept as written, as text, except progress_percent (a number from 0 to 100) and status
         (${AGENT_STATUSES.join(", ")}): a wrong one is refused and nothing is written.
         Creates <root>/agents/NAME.md with status: spawned when there is no such agent yet.
         Example: a2a agent set ui-explorer status=running progress_percent=50 "last_action=Checking links"
finding  appends a finding (## [timestamp] ACTION with Context, Data, Decisions, Next steps).`;

/** Where an agent's note is looked for: the root's agents folder, then the plugin's extra agent folders. */
export async function agentTarget(session: Pick<Session, "router" | "vault">, name: string): Promise<AgentTarget> {
	return { name, folders: await agentFolders(session) };
}

export async function runAgent(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const [action, name, ...rest] = args.positionals;
	if (action !== "set" && action !== "finding") {
		const what = action === undefined ? "say what to do" : `unknown action "${action.slice(0, 40)}"`;
		throw new UsageError(`${what}: a2a agent set NAME key=value... or a2a agent finding NAME --action TEXT`);
	}
	if (!name) throw new UsageError(`a2a agent ${action} needs the agent's NAME`);
	checkedAgentName(name);
	const now = Date.now();
	if (action === "finding") {
		if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(" ")}: give the finding's text with --action, --context, --data, --decisions and --next`);
		const finding = { action: required(args, "action", "the finding's title"), context: one(args, "context"), data: one(args, "data"), decisions: one(args, "decisions"), nextSteps: one(args, "next") };
		const session = await openSession(args, io);
		const done = await appendAgentFinding(session.vault, await agentTarget(session, name), finding, now);
		if (session.json) io.out(JSON.stringify({ path: done.path, created: done.created, heading: done.heading }));
		else io.out(`${done.path}: finding "${finding.action}" appended`);
		return 0;
	}
	let updates: [string, unknown][];
	try {
		updates = rest.map(parseAssignment);
	} catch (error) {
		const message = (error as Error).message;
		throw new UsageError(/ is not key=value$| is not a usable field name$/.test(message) ? `${message}; write each field as key=value` : message);
	}
	const session = await openSession(args, io);
	const target = await agentTarget(session, name);
	if (updates.length === 0 && (await findAgentNote(session.vault, target)) !== null) throw new UsageError("give at least one key=value to set, e.g. status=running progress_percent=10");
	const done = await updateAgent(session.vault, target, updates, now);
	for (const warning of done.warnings) io.err(`warning: ${warning}`);
	if (session.json) io.out(JSON.stringify({ path: done.path, created: done.created, fields: Object.fromEntries(updates), warnings: done.warnings }));
	else io.out(`${done.path}${done.created ? " (created)" : ""}: ${updates.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ") || "status=\"spawned\""}`);
	return 0;
}
