import type { McpServer } from "@modelcontextprotocol/server";
import { appendAgentFinding, updateAgent } from "../../src/actions/agent-update";
import type { AgentTarget } from "../../src/actions/agent-update";
import { isFieldName } from "../../src/core/agent-notes";
import { Refused } from "../../src/router/refused";
import { readPluginSettings } from "../../node/plugin-settings";
import { agentFolders, statusReport } from "../../node/status-report";
import type { McpContext } from "./context";
import { agentStatusResult, findingResult, relayStatusResult } from "./outputs";
import { answer } from "./results";
import { agentStatusArgs, findingArgs, noArgs } from "./schemas";

// The tools about agents: set_agent_status and append_finding write the server's agent note (the
// seed's memory node, `--agent NAME`), relay_status reads everything as `a2a status --json` does.

async function target(ctx: McpContext): Promise<AgentTarget> {
	if (ctx.agent === undefined) {
		throw new Refused(`this server keeps no agent note: start it with --agent NAME (a2a mcp --vault DIR --group ${ctx.group} --agent NAME) to use this tool`);
	}
	return { name: ctx.agent, group: ctx.group, folders: await agentFolders(ctx) };
}

const STANDARD = ["status", "progress_percent", "last_action", "result", "error"];
/** Names that would reach an object's prototype instead of a field. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The fields to write, the standard ones first; refused when there is none or a name is not a field name. */
function updatesOf(args: Record<string, unknown>): [string, unknown][] {
	const keys = Object.keys(args).filter((k) => args[k] !== undefined);
	const bad = keys.find((k) => !isFieldName(k) || UNSAFE_KEYS.has(k));
	if (bad !== undefined) throw new Refused(`"${bad.slice(0, 60)}" is not a field name you can set: use letters, digits, "_" and "-", starting with a letter`);
	if (keys.length === 0) throw new Refused("give at least one field to set, e.g. status: running, progress_percent: 10");
	const ordered = [...STANDARD.filter((k) => keys.includes(k)), ...keys.filter((k) => !STANDARD.includes(k))];
	return ordered.map((k) => [k, args[k]]);
}

export function registerAgentTools(server: McpServer, ctx: McpContext): void {
	const agent = ctx.agent ?? "(none: start a2a mcp with --agent NAME)";
	server.registerTool(
		"set_agent_status",
		{
			title: "Update your agent status note",
			description: `Sets fields on your agent note (${agent}) in one atomic write, e.g. status running with progress_percent and last_action. Lifecycle: spawned -> active -> running -> completed | failed; a move outside it is written and reported in warnings.`,
			inputSchema: agentStatusArgs,
			outputSchema: agentStatusResult,
		},
		(args) => answer(ctx, "set_agent_status", async () => updateAgent(ctx.vault, await target(ctx), updatesOf(args), Date.now())),
	);

	server.registerTool(
		"append_finding",
		{
			title: "Record a finding",
			description: `Appends a finding to your agent note (${agent}): a "## [time] action" section with Context, Data, Decisions and Next steps.`,
			inputSchema: findingArgs,
			outputSchema: findingResult,
		},
		(args) =>
			answer(ctx, "append_finding", async () =>
				appendAgentFinding(ctx.vault, await target(ctx), { action: args.action, context: args.context, data: args.data, decisions: args.decisions, nextSteps: args.next_steps }, Date.now()),
			),
	);

	server.registerTool(
		"relay_status",
		{
			title: "Relay status",
			description: "Every agent (status, progress, last action, stale) and every group's queue counts (inbox, outbox, archive, in flight, overdue), as a2a status --json.",
			inputSchema: noArgs,
			outputSchema: relayStatusResult,
			annotations: { readOnlyHint: true },
		},
		() =>
			answer(ctx, "relay_status", async () => {
				const settings = await readPluginSettings(ctx.vault.dir);
				const report = await statusReport(ctx, await agentFolders(ctx), settings.staleMinutes, Date.now());
				return { agents: report.agents, groups: report.groups, summary: report.summary };
			}),
	);
}
