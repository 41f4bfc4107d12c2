// Stable command ids, in one place: users bind hotkeys to them and checks call them by id. Never
// rename one (the names users see are in src/ui/strings.ts). Obsidian prefixes each with the
// plugin id (a2a-relay:compose-message).

export const COMMAND_IDS = {
	openAgentStatus: "open-agent-status",
	composeMessage: "compose-message",
	replyToMessage: "reply-to-message",
	forwardMessage: "forward-message",
	showTrace: "show-trace",
	exportTrace: "export-trace",
	routeNow: "route-now",
	newAgent: "new-agent",
	setAgentStatus: "set-agent-status",
	appendFinding: "append-finding",
	retryDeadLetter: "retry-dead-letter",
	initVault: "init-vault",
} as const;
