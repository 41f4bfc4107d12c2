// The frontmatter fields that belong to the router, in two kinds. Every part that must tell the
// router's fields from the writer's (Retry… removing stamps, crash recovery recognising a copy)
// reads these lists.

/** Routing state the router stamps on a note as it moves it on; a retried note loses them, and the router writes them again. */
export const ROUTING_STAMPS = [
	"state",
	"delivered_at",
	"expires_at",
	"dead_at",
	"error_code",
	"error_message",
	"attempt",
	"answered_at",
	"quarantined",
	"late",
	"forwarded_at",
	"remote_task_id",
	"resent_attempt",
] as const;

/** Envelope fields the router fills in when the writer left them out (a value the writer gave is kept). */
export const FILLED_FIELDS = ["kind", "message_id", "created", "route", "parent_id", "target_group", "in_reply_to", "processing_time_ms"] as const;
