import { kindOf } from "./message";
import { ROUTER_SENDER } from "./protocol";
import type { MessageKind } from "./protocol";
import type { RawMessage } from "./message-parse";
import type { Location } from "./layout";
import { normalTime } from "./time";

// What the message index (src/core/message-index.ts) holds of one note: its entry, read from the
// note's frontmatter, or (a history note taken from a device's copy) its keys with the rest of the
// entry still as saved.

export interface IndexEntry {
	path: string;
	location: Location;
	kind: MessageKind | null;
	messageId?: string;
	traceId?: string;
	inReplyTo?: string;
	parentId?: string;
	sourceGroup?: string;
	targetGroup?: string;
	requestType?: string;
	status?: string;
	state?: string;
	route: string[];
	hopCount?: number;
	priority?: string;
	created?: string;
	deliveredAt?: string;
	expiresAt?: string;
	answeredAt?: string;
	deadAt?: string;
	attempt?: number;
	timeoutSeconds?: number;
	errorCode?: string;
	errorMessage?: string;
	processingTimeMs?: number;
	/** A response delivered after its request timed out. */
	late?: boolean;
	/** Written by the router (an error or timeout response), not by a group. */
	routerWritten?: boolean;
	/** The W3C trace context of the caller that made the message (an A2A call's `traceparent`). */
	traceparent?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export function entryFromRaw(path: string, location: Location, raw: RawMessage): IndexEntry {
	const f = raw.fields;
	return {
		path,
		location,
		kind: raw.wrapperKind && f.kind === undefined ? raw.wrapperKind : kindOf(f),
		messageId: str(f.message_id),
		traceId: str(f.trace_id),
		inReplyTo: str(f.in_reply_to),
		parentId: str(f.parent_id),
		sourceGroup: str(f.source_group),
		targetGroup: str(f.target_group),
		requestType: str(f.request_type),
		status: str(f.status),
		state: str(f.state),
		route: Array.isArray(f.route) ? f.route.filter((g): g is string => typeof g === "string") : [],
		hopCount: num(f.hop_count),
		priority: str(f.priority),
		created: normalTime(f.created) ?? str(f.created),
		deliveredAt: normalTime(f.delivered_at),
		expiresAt: normalTime(f.expires_at),
		answeredAt: normalTime(f.answered_at),
		deadAt: normalTime(f.dead_at),
		attempt: num(f.attempt),
		timeoutSeconds: num(f.timeout_seconds),
		errorCode: str(f.error_code),
		errorMessage: str(f.error_message),
		processingTimeMs: num(f.processing_time_ms),
		late: f.late === true ? true : undefined,
		routerWritten: f.generated_by === ROUTER_SENDER ? true : undefined,
		traceparent: str(f.traceparent),
	};
}

/** The keys the index looks notes up by. */
export interface EntryKeys {
	messageId?: string;
	traceId?: string;
	inReplyTo?: string;
}

/**
 * A history note's keys, with the rest of its entry still the JSON it was saved as: made into an
 * IndexEntry when something first asks for the note (a start on a year of history indexes keys, and
 * parses only what a decision or a view looks at). Its keys are the entry's keys: `make` never
 * returns others.
 */
export class DeferredEntry implements EntryKeys {
	/** Set by whoever indexes it (all the notes of one folder share one). */
	location: Location = { area: "other" };
	readonly messageId?: string;
	readonly traceId?: string;
	readonly inReplyTo?: string;

	constructor(
		readonly path: string,
		messageId: string | undefined,
		traceId: string | undefined,
		inReplyTo: string | undefined,
		/** The entry's other fields, as JSON. */
		readonly rest: string,
	) {
		this.messageId = messageId;
		this.traceId = traceId;
		this.inReplyTo = inReplyTo;
	}

	/** The entry; null when the saved rest is not an entry's JSON (a damaged copy: the note is to be read again). */
	make(): IndexEntry | null {
		let fields: Partial<IndexEntry>;
		try {
			fields = JSON.parse(this.rest) as Partial<IndexEntry>;
		} catch {
			return null;
		}
		if (typeof fields !== "object" || fields === null || !Array.isArray(fields.route) || !(fields.kind === null || typeof fields.kind === "string")) return null;
		return { ...fields, kind: fields.kind, route: fields.route, path: this.path, location: this.location, messageId: this.messageId, traceId: this.traceId, inReplyTo: this.inReplyTo };
	}

	/**
	 * False only when the entry's `field` cannot be `value`: its saved JSON does not name that value
	 * for that field (a text of the JSON never holds an unescaped quote, so nothing else can match).
	 */
	mayHold(field: keyof IndexEntry, value: string): boolean {
		return this.rest.includes(`"${field}":${JSON.stringify(value)}`);
	}
}
