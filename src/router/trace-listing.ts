import { isUuidShaped } from "../core/ids";
import type { IndexEntry } from "../core/message-index";
import { readRawMessage } from "../core/message-parse";
import { MAX_NOTE_BYTES } from "../core/protocol";
import { oneLine } from "../core/text";
import { refreshIndex } from "./index-refresh";
import { outboxEntries } from "./message-lookup";
import { placeOf, summaryOf } from "./message-view";
import type { MessageSummary, Where } from "./message-view";
import { Refused } from "./refused";
import type { Router } from "./router";
import { takesPart } from "./visibility";
import type { Reader } from "./visibility";

// `a2a trace` and `get_trace`: every message of one conversation in the order it happened, each
// with where it is now (an inbox, an outbox, an archive, the dead-letter folder). With a reader (the
// group an MCP server speaks for), only a trace that group takes part in: another is "not found".

export interface TraceMessage extends MessageSummary {
	where: Where;
	/** The group whose box holds the note now (null in the dead-letter folder). */
	group: string | null;
	parent_id: string | null;
	hop_count: number | null;
	delivered_at: string | null;
}

export interface TraceListing {
	trace_id: string;
	messages: TraceMessage[];
}

/** When a message took its place in the conversation: delivered, else written, else given up on. */
const when = (e: IndexEntry): string => e.deliveredAt ?? e.created ?? e.deadAt ?? "";

/**
 * Every note of trace `traceId` (a UUID): the index's and those still in an outbox (which the index
 * does not hold). `refresh: false` for a process whose index is kept current by other means (the gateway).
 */
export async function notesOfTrace(router: Router, traceId: string, options: { refresh?: boolean } = {}): Promise<IndexEntry[]> {
	// Outboxes first: a note the router carries on meanwhile is then found in the index, where it went.
	const waiting = (await outboxEntries(router)).filter((e) => e.traceId === traceId && e.kind !== null);
	if (options.refresh !== false) await refreshIndex(router);
	const indexed = router.index.inTrace(traceId).filter((e) => e.kind !== null);
	const known = new Set(indexed.map((e) => e.messageId));
	return [...indexed, ...waiting.filter((e) => !known.has(e.messageId))];
}

/** The notes of trace `traceId`, the index's and those still in outboxes; refused unless `reader` takes part in it. */
async function traceEntries(router: Router, traceId: string, reader?: Reader): Promise<IndexEntry[]> {
	if (!isUuidShaped(traceId)) {
		throw new Refused(`${JSON.stringify(oneLine(traceId, 60))} is not a trace_id (a UUID, 8-4-4-4-12 hex digits): copy it from a message's trace_id`, "trace_id");
	}
	const entries = await notesOfTrace(router, traceId);
	if (entries.length === 0 || !takesPart(entries, reader)) throw new Refused(`no message of trace "${traceId}" is in the relay: check the id (every message's trace_id names its conversation)`, "trace_id");
	return entries;
}

/**
 * Refused unless `reader` takes part in trace `traceId`, in the words get_trace has for an unknown
 * trace: a group continues only a conversation it sent or received a message in (a new one leaves
 * trace_id out), so naming another pair's trace neither joins it nor tells whether it exists.
 */
export async function checkTakesPart(router: Router, traceId: string, reader: Reader): Promise<void> {
	if (reader === undefined) return;
	try {
		await traceEntries(router, traceId, reader);
	} catch (error) {
		if (error instanceof Refused) throw new Refused(`${error.message.replace(/\)$/, "")}; to start a new conversation, leave trace_id out)`, "trace_id");
		throw error;
	}
}

export async function traceMessages(router: Router, traceId: string, reader?: Reader): Promise<TraceListing> {
	const entries = await traceEntries(router, traceId, reader);
	entries.sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : a.path < b.path ? -1 : 1));
	const messages: TraceMessage[] = [];
	for (const entry of entries) {
		const read = await router.port.read(entry.path, { maxBytes: MAX_NOTE_BYTES });
		const parsed = read ? readRawMessage(read.text, entry.path) : null;
		const place = placeOf(entry.path, entry.location);
		messages.push({
			...summaryOf(entry, parsed?.ok ? parsed.raw.payload : {}),
			where: place.where,
			group: place.group,
			parent_id: entry.parentId ?? null,
			hop_count: entry.hopCount ?? null,
			delivered_at: entry.deliveredAt ?? null,
		});
	}
	return { trace_id: traceId, messages };
}
