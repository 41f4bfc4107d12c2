import { MCP_TOOL_NAMES } from "../../servers/mcp/tool-names";

// `a2a mcp --help`, apart from the command (cli/commands/mcp.ts), which loads the MCP server only when it runs.

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
