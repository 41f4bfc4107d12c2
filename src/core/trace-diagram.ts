import type { IndexEntry } from "./message-index";
import { ROUTER_SENDER } from "./protocol";
import { escapeCell, noteLink } from "./routing-log";

// A conversation (the messages of one trace) as a Mermaid sequence diagram and as a Markdown
// table: the groups are the lifelines, each request and response an arrow labelled with its type
// or status, priority and time. Rejections, retries, timeouts, late and taken answers are marked.
// Pure: the caller says how a time is written (local in the app, ISO UTC in a note).

export type TimeWriter = (iso: string) => string;

/** What happened to one message, as the diagram and the table mark it. */
export interface TraceStep {
	entry: IndexEntry;
	from: string;
	to: string;
	/** The request type, or the response status. */
	what: string;
	/** Words that mark the step: rejected CODE, timed out, late, taken, retry N. */
	marks: string[];
	/** When it happened (ISO), or "" when the note says nothing. */
	time: string;
	/** The arrow: a request, a response, or a message that never arrived. */
	arrow: "request" | "response" | "lost";
}

const when = (e: IndexEntry): string => e.deliveredAt ?? e.deadAt ?? e.created ?? "";

/** The steps of a trace, in the order given (the index's timeline). */
export function traceSteps(entries: readonly IndexEntry[]): TraceStep[] {
	const steps: TraceStep[] = [];
	const byId = new Map<string, IndexEntry>();
	for (const entry of entries) if (entry.messageId && entry.kind === "request") byId.set(entry.messageId, entry);
	for (const entry of entries) {
		if (entry.kind !== "request" && entry.kind !== "response") continue;
		const marks: string[] = [];
		const dead = entry.location.area === "dead-letter";
		const timedOut = entry.state === "timed_out" || entry.errorCode === "TIMEOUT";
		if (dead && !timedOut) marks.push(`rejected ${entry.errorCode ?? ""}`.trim());
		if (timedOut) marks.push("timed out");
		if (entry.late) marks.push("late");
		if (entry.state === "taken") marks.push("taken");
		if (entry.state === "retrying" || (entry.attempt ?? 1) > 1) marks.push(`attempt ${entry.attempt ?? 2}`);
		if (entry.location.area === "box" && entry.location.box === "outbox" && !entry.deliveredAt) marks.push("not routed yet");
		const response = entry.kind === "response";
		steps.push({
			entry,
			from: entry.sourceGroup ?? "?",
			// A response may name only its sender: it goes back to whoever sent the request.
			to: entry.targetGroup ?? (entry.inReplyTo ? byId.get(entry.inReplyTo)?.sourceGroup : undefined) ?? "?",
			what: response ? (entry.status ?? "response") : (entry.requestType ?? "request"),
			marks,
			time: when(entry),
			arrow: dead && !timedOut ? "lost" : response ? "response" : "request",
		});
	}
	return steps;
}

const MERMAID_ENTITIES: Record<string, string> = { "#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", "%": "#37;" };

/** Text Mermaid shows as it is: no statement breaks, no entity or HTML syntax, one line. */
export function mermaidText(text: string): string {
	return text
		.replace(/[\r\n]+/g, " ")
		.replace(/[#;<>%]/g, (c) => MERMAID_ENTITIES[c] ?? c)
		.trim();
}

/** The lifelines in order of first appearance; the router's own responses come from "Router". */
function participants(steps: readonly TraceStep[]): Map<string, string> {
	const ids = new Map<string, string>();
	for (const step of steps) {
		for (const group of [step.from, step.to]) if (!ids.has(group)) ids.set(group, `g${ids.size}`);
	}
	return ids;
}

function label(step: TraceStep, writeTime: TimeWriter): string {
	const parts = [step.what];
	if (step.entry.kind === "request" && step.entry.priority) parts.push(step.entry.priority);
	if (step.time) parts.push(writeTime(step.time));
	return mermaidText([...parts, ...step.marks].join(" · "));
}

/** The Mermaid sequence diagram of a trace (without the code fence). */
export function traceMermaid(entries: readonly IndexEntry[], writeTime: TimeWriter): string {
	const steps = traceSteps(entries);
	const ids = participants(steps);
	const lines = ["sequenceDiagram"];
	for (const [group, id] of ids) lines.push(`    participant ${id} as ${mermaidText(group === ROUTER_SENDER ? `${group} (router)` : group)}`);
	for (const step of steps) {
		const a = ids.get(step.from) as string;
		const b = ids.get(step.to) as string;
		const arrow = step.arrow === "lost" ? "-x" : step.arrow === "response" ? "-->>" : "->>";
		lines.push(`    ${a}${arrow}${b}: ${label(step, writeTime)}`);
		// `wrap:` lets Mermaid break the reason into lines as wide as the note, instead of one line
		// wider than the diagram.
		if (step.arrow === "lost") lines.push(`    Note over ${a},${b}: wrap:${mermaidText(`dead letter: ${step.entry.errorMessage ?? step.entry.errorCode ?? "rejected"}`)}`);
		else if (step.marks.includes("timed out")) lines.push(`    Note over ${b}: ${mermaidText("no answer in time")}`);
	}
	if (steps.length === 0) lines.push("    Note right of g0: no messages");
	return lines.join("\n");
}

/** A Markdown table of the messages of a trace: one row per message, every value escaped. */
export function traceTable(entries: readonly IndexEntry[], writeTime: TimeWriter): string {
	const rows = ["| # | Time | From | To | Kind | Type or status | Priority | State | Marks | Note |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"];
	traceSteps(entries).forEach((step, i) => {
		const e = step.entry;
		const cells = [String(i + 1), step.time ? writeTime(step.time) : "", step.from, step.to, e.kind ?? "", step.what, e.priority ?? "", e.state ?? "", step.marks.join(", ")];
		rows.push(`| ${cells.map((c) => escapeCell(c)).join(" | ")} | ${noteLink(e.path)} |`);
	});
	return rows.join("\n");
}

/**
 * The note "Export trace as note" writes: the diagram, then the table. Times as the writer gives
 * them. Its property is `trace`, not `trace_id`: the note is about a conversation, not a message of
 * it (the Messages base lists notes with a trace_id).
 */
export function traceNoteText(traceId: string, entries: readonly IndexEntry[], writeTime: TimeWriter, exportedAt: string): string {
	return [
		"---",
		`trace: "${traceId.replace(/["\\]/g, "")}"`,
		`exported: ${exportedAt}`,
		`messages: ${traceSteps(entries).length}`,
		"---",
		"",
		`# Trace ${escapeCell(traceId)}`,
		"",
		"```mermaid",
		traceMermaid(entries, writeTime),
		"```",
		"",
		traceTable(entries, writeTime),
		"",
	].join("\n");
}

/** The file name of an exported trace: the trace id's first part, safe on every system. */
export function traceNoteName(traceId: string): string {
	const stem = traceId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 36) || "trace";
	return `Trace ${stem}.md`;
}
