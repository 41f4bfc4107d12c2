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
import { buildMcpServer } from "../../servers/mcp/server";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

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
	router.warnings.sayAsTheyCome((line) => log(`warning: ${line}`));
	const watch = new IndexWatch(router, (p) => vault.abs(p));
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
