import { startTelemetry } from "../../node/telemetry/telemetry";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { version } from "../../package.json";
import { terminalText } from "../../src/core/terminal-text";
import { checkedAgentName } from "../../src/actions/agent-update";
import { keepIndexFreshWith } from "../../src/router/index-refresh";
import { one, required } from "../args";
import type { ParsedArgs } from "../args";
import { serialQueue } from "../../servers/mcp/context";
import { knownGroup } from "../known-group";
import { IndexWatch } from "../../servers/mcp/index-watch";
import type { McpContext } from "../../servers/mcp/context";
import { MCP_TOOL_NAMES, buildMcpServer } from "../../servers/mcp/server";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const MCP_HELP = `Usage: a2a mcp --group G [--agent NAME] [--vault DIR] [--root NAME]

Serves group G's mailbox as an MCP server over stdio, for an LLM agent (Claude Code, Claude Desktop,
any MCP client). stdout carries the MCP protocol only; messages go to stderr. One server per agent
process; it speaks for G, and with --agent for that agent's status note. The vault is found as for
every command (--vault, else A2A_VAULT, else upward from the current folder), but MCP clients start
their servers with a minimal environment: give --vault DIR in the client's configuration.
Tools: ${MCP_TOOL_NAMES.join(", ")}.
MCP client configuration (JSON):
  {"mcpServers": {"a2a-G": {"command": "a2a", "args": ["mcp", "--vault", "DIR", "--group", "G"]}}}
A router must run for messages to move: the plugin in Obsidian, or a2a route --watch.`;

export async function runMcp(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const group = required(args, "group", "the group this agent speaks for");
	const agent = one(args, "agent");
	if (agent !== undefined) checkedAgentName(agent);
	// Nothing of this command may write to stdout but the protocol: its io.out is not used.
	const session = await openSession(args, { out: io.err, err: io.err });
	checkRegistry(session);
	const { router, vault } = session;
	knownGroup(router.layout, group, "--group");
	const log = (line: string) => io.err(terminalText(`a2a mcp (${group}): ${line}`));
	// A long-lived reader: file events keep the index in step, so a tool call reads only what changed.
	const watch = new IndexWatch(router, (p) => vault.abs(p), undefined, (line) => log(`warning: ${line}`));
	keepIndexFreshWith(router, () => watch.refresh());
	const telemetry = await startTelemetry(process.env, io.err);
	const ctx: McpContext = { vault, router, group, agent, serial: serialQueue(), log, created: telemetry ? (fields, at) => telemetry.created(fields, at) : undefined };
	const server = buildMcpServer(ctx, version);
	const transport = new StdioServerTransport();
	const closed = new Promise<void>((resolve) => {
		transport.onclose = () => resolve();
	});
	await server.connect(transport);
	ctx.log(`serving ${vault.dir} over stdio${agent ? ` as agent ${agent}` : ""}`);
	await closed;
	watch.close();
	await telemetry?.sink.close();
	return 0;
}
