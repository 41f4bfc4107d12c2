// The exact names of protocol contract v2 (docs/protocol.md): folder names, field names, values and
// error codes. Everything else refers to these constants so a typo cannot drift from the contract.

export const DEFAULT_ROOT = "A2A";
export const REGISTRY_FILE = "registry.yaml";
/** The registry as a note (contract v2 section 2): carried by every sync service. */
export const REGISTRY_NOTE = "registry.md";
/** The router's lease: a note, so that every sync service carries it to every device. */
export const LEASE_NOTE = "router.md";

/** The `source_group` and `generated_by` of the responses the router writes itself. */
export const ROUTER_SENDER = "a2a-relay";
/** The default gateway group of `a2a serve` (section 8). */
export const DEFAULT_GATEWAY_GROUP = "a2a-gateway";

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

export const MESSAGE_STATES = ["pending", "delivered", "answered", "retrying", "timed_out", "dead", "taken", "forwarded"] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

export const ERROR_CODES = [
	"INVALID_MESSAGE",
	"GROUP_NOT_FOUND",
	"MAX_HOPS_EXCEEDED",
	"CYCLE_DETECTED",
	"TIMEOUT",
	"DUPLICATE",
	"CANCELED",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const CYCLE_DETECTION_MODES = ["chain", "trace"] as const;
export type CycleDetection = (typeof CYCLE_DETECTION_MODES)[number];

export const COMMUNICATION_DEFAULTS = {
	max_hops: 5,
	timeout_seconds: 30,
	retry_attempts: 3,
	cycle_detection: "chain" as CycleDetection,
};

/**
 * Rule 3: the largest `timeout_seconds` a request (or the registry) may give: 30 days. Beyond it a
 * wait is no longer a timeout but a mistake, and far beyond it no clock can represent its end.
 */
export const MAX_TIMEOUT_SECONDS = 30 * 24 * 60 * 60;
/** Rule 8: a retry's wait doubles with each attempt, up to this (a year), so that its end is always a time. */
export const MAX_ATTEMPT_WAIT_SECONDS = 365 * 24 * 60 * 60;

/** Protocol rule 3: a note larger than this is rejected. */
export const MAX_NOTE_BYTES = 100 * 1024;
/** Protocol rule 3: a frontmatter block larger than this is rejected. */
export const MAX_FRONTMATTER_BYTES = 8 * 1024;

export const AGENT_RESULTS = ["pass", "warning", "fail", "pending"] as const;

/** Outcomes of one routing decision, as printed by `a2a route --json` and written to the log. */
export const OUTCOMES = ["delivered", "answered", "late", "rejected", "ignored", "retried", "timed_out", "duplicate", "forwarded"] as const;
export type Outcome = (typeof OUTCOMES)[number];
