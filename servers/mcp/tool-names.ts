// The tools of `a2a mcp`, exactly those of protocol section 7. Kept apart from the server (and its
// SDK) so that `a2a mcp --help` names them without loading it.

export const MCP_TOOL_NAMES = [
	"send_request",
	"list_inbox",
	"read_message",
	"reply",
	"wait_for_response",
	"take_response",
	"get_trace",
	"set_agent_status",
	"append_finding",
	"relay_status",
] as const;
