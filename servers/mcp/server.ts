import { McpServer } from "@modelcontextprotocol/server";
import type { McpContext } from "./context";
import { registerAgentTools } from "./tools-agent";
import { registerConversationTools } from "./tools-conversation";
import { registerMessageTools } from "./tools-messages";

// The MCP server of `a2a mcp`: exactly the tools of protocol section 7, for one group.

export function buildMcpServer(ctx: McpContext, version: string): McpServer {
	const server = new McpServer(
		{ name: "a2a-relay", version },
		{
			instructions: `You speak for the group ${ctx.group} of an A2A Relay vault. To ask another group: send_request, then wait_for_response with its message_id (call again while pending), read the response, take_response. To answer: list_inbox, read_message, reply. Use the skill "A2A Communicator" for the whole procedure.`,
		},
	);
	registerMessageTools(server, ctx);
	registerConversationTools(server, ctx);
	registerAgentTools(server, ctx);
	return server;
}
