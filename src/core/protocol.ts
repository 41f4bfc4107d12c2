// The exact names of protocol contract v1 (docs/protocol.md): folder names, field names, values and
// error codes. Everything else refers to these constants so a typo cannot drift from the contract.

export const DEFAULT_ROOT = "A2A";
export const REGISTRY_FILE = "registry.yaml";

export const FOLDER = {
	groups: "groups",
	inbox: "inbox",
	outbox: "outbox",
	archive: "archive",
	agents: "agents",
	deadLetter: "dead-letter",
	log: "log",
} as const;

export const REQUEST_TYPES = ["query", "task", "artifact"] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const PRIORITIES = ["low", "medium", "high"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY: Priority = "medium";

export const RESPONSE_STATUSES = ["success", "error", "timeout"] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

export const MESSAGE_KINDS = ["request", "response"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_STATES = ["pending", "delivered", "answered", "retrying", "timed_out", "dead"] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

export const ERROR_CODES = [
	"INVALID_MESSAGE",
	"GROUP_NOT_FOUND",
	"MAX_HOPS_EXCEEDED",
	"CYCLE_DETECTED",
	"TIMEOUT",
	"DUPLICATE",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const COMMUNICATION_DEFAULTS = {
	max_hops: 5,
	timeout_seconds: 30,
	retry_attempts: 3,
} as const;

/** Protocol rule 3: a note larger than this is rejected. */
export const MAX_NOTE_BYTES = 100 * 1024;
/** Protocol rule 3: a frontmatter block larger than this is rejected. */
export const MAX_FRONTMATTER_BYTES = 8 * 1024;

export const AGENT_RESULTS = ["pass", "warning", "fail", "pending"] as const;
export type AgentResult = (typeof AGENT_RESULTS)[number];

/** Outcomes of one routing decision, as printed by `a2a route --json` and written to the log. */
export const OUTCOMES = ["delivered", "answered", "rejected", "ignored", "retried", "timed_out", "duplicate"] as const;
export type Outcome = (typeof OUTCOMES)[number];
