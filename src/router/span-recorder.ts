import { messageSpan, settledBy } from "../core/message-span";
import type { SpanEvent, SpanRecord } from "../core/message-span";
import type { MessageIndex } from "../core/message-index";
import type { PassReport } from "./pass-context";

// Turns what a router decided into spans, one per message, handed to a sink (the CLI's exports them
// over OTLP/HTTP: node/telemetry/). What happens to a message on its way (a retry, a forward to a
// remote agent, a late answer, this router taking the lease over) is kept as an event until the
// message is settled; a router that starts mid-conversation still ends the span, with the events it saw.

/** Where finished spans go. `record` never blocks and never throws: a sink drops what it cannot take. */
export interface SpanSink {
	record(span: SpanRecord): void;
}

/** Events kept for messages not yet settled: bounded, the oldest message's events go first. */
const MAX_PENDING = 10_000;

export class SpanRecorder {
	private readonly pending = new Map<string, SpanEvent[]>();
	/** Times this router took the lease from another router, newest last (a few are enough). */
	private readonly handovers: SpanEvent[] = [];
	private holding = false;
	private lastHolder: string | null = null;

	constructor(
		private readonly sink: SpanSink,
		private readonly options: { includeText: boolean },
	) {}

	/** Records what one pass decided; `index` is the router's index after the pass. */
	pass(report: PassReport, index: MessageIndex, now: number): void {
		this.watchLease(report, now);
		for (const decision of report.decisions) {
			if (decision.outcome === "retried" || decision.outcome === "forwarded") {
				const entry = index.get(decision.path);
				if (entry?.messageId) this.remember(entry.messageId, { name: decision.outcome === "retried" ? "retry" : "forwarded", timeMs: decision.time, attributes: entry.attempt !== undefined ? { "a2a_relay.attempt": entry.attempt } : {} });
				continue;
			}
			const request = (id: string) => index.withId(id).find((e) => e.kind === "request");
			for (const settled of settledBy(decision, (p) => index.get(p), request)) {
				const id = settled.entry.messageId;
				if (!id) continue;
				const events = settled.role ? [] : this.take(id);
				if (settled.outcome === "late") events.push({ name: "late answer", timeMs: decision.time, attributes: {} });
				const span = messageSpan(settled.entry, settled.outcome, decision.time, settled.error, events, this.options, settled.role);
				if (!span) continue;
				for (const handover of this.handovers) if (handover.timeMs > span.startMs && handover.timeMs <= span.endMs) span.events.push({ ...handover });
				span.events.sort((a, b) => a.timeMs - b.timeMs);
				this.sink.record(span);
			}
		}
	}

	/** This router took the lease over from another: the spans of messages in flight then say so. */
	private watchLease(report: PassReport, now: number): void {
		if (report.busy) {
			this.holding = false;
			if (report.standby) this.lastHolder = report.standby;
			return;
		}
		if (!this.holding && this.lastHolder !== null) {
			this.handovers.push({ name: "lease hand-over", timeMs: now, attributes: { "a2a_relay.previous_router": this.lastHolder } });
			if (this.handovers.length > 8) this.handovers.shift();
		}
		this.holding = true;
	}

	private remember(messageId: string, event: SpanEvent): void {
		const events = this.pending.get(messageId) ?? [];
		events.push(event);
		this.pending.delete(messageId);
		this.pending.set(messageId, events);
		if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
	}

	private take(messageId: string): SpanEvent[] {
		const events = this.pending.get(messageId) ?? [];
		this.pending.delete(messageId);
		return events;
	}
}
