import type { Outcome } from "./protocol";
import { oneLine } from "./text";

// One routing decision: what `a2a route --json` prints, the log note records and the view lists.

export interface RoutingDecision {
	outcome: Outcome;
	message_id?: string;
	trace_id?: string;
	/** Where the note is now. */
	path: string;
	error_code?: string;
	/** Where the note was before this decision. */
	from?: string;
	source_group?: string;
	target_group?: string;
	/** Why: the error message of a rejection, or why a file is ignored. */
	reason?: string;
	/** Epoch ms. */
	time: number;
}

/** The JSON line of `a2a route --json` (protocol section 6). */
export function decisionJson(d: RoutingDecision): string {
	const line: Record<string, unknown> = { outcome: d.outcome, message_id: d.message_id ?? null, trace_id: d.trace_id ?? null, path: d.path };
	if (d.error_code) line.error_code = d.error_code;
	if (d.from && d.from !== d.path) line.from = d.from;
	if (d.source_group) line.source_group = d.source_group;
	if (d.target_group) line.target_group = d.target_group;
	if (d.reason) line.reason = d.reason;
	return JSON.stringify(line);
}

const cell = (text: string | undefined): string => (text ? oneLine(text, 200).replace(/\|/g, "\\|") : "");

export function logHeader(day: string): string {
	return `# Routing log ${day}\n\n| Time | Outcome | Message | Trace | Route | Error | Note |\n| --- | --- | --- | --- | --- | --- | --- |\n`;
}

/** One Markdown table row per decision; `[[path|name]]` links the note where it is now. */
export function logLine(d: RoutingDecision): string {
	const time = new Date(d.time).toISOString().slice(11, 19);
	const route = d.source_group || d.target_group ? `${d.source_group ?? "?"} -> ${d.target_group ?? "?"}` : "";
	const name = d.path.split("/").pop() ?? d.path;
	return `| ${time} | ${d.outcome} | ${cell(d.message_id)} | ${cell(d.trace_id)} | ${cell(route)} | ${cell(d.error_code)} | [[${d.path.replace(/\|/g, "")}\\|${cell(name)}]] |\n`;
}

/** Splits a table row on its unescaped pipes. */
function splitRow(line: string): string[] {
	const cells: string[] = [];
	let current = "";
	for (let i = 0; i < line.length; i++) {
		if (line[i] === "\\" && line[i + 1] === "|") {
			current += "\\|";
			i++;
		} else if (line[i] === "|") {
			cells.push(current.trim());
			current = "";
		} else current += line[i];
	}
	return cells.slice(1);
}

/** Reads the rows of a log note back (for the view's latest decisions). */
export function parseLogLines(text: string): { time: string; outcome: string; messageId: string; traceId: string; route: string; errorCode: string; path: string }[] {
	const rows = [];
	for (const line of text.split("\n")) {
		if (!line.startsWith("| ") || line.startsWith("| Time") || line.startsWith("| ---")) continue;
		const cells = splitRow(line);
		if (cells.length < 7) continue;
		const link = /^\[\[(.*?)\\?\|/.exec(cells[6]);
		const [time, outcome, messageId, traceId, route, errorCode] = cells.slice(0, 6).map((c) => c.replace(/\\\|/g, "|"));
		rows.push({ time, outcome, messageId, traceId, route, errorCode, path: link ? link[1] : "" });
	}
	return rows;
}
