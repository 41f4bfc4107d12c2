import type { RoutingDecision } from "./decision";
import { basename, linkByName } from "./paths";
import { OUTCOMES } from "./protocol";
import { oneLine } from "./text";

// The routing log note (`log/YYYY-MM-DD.md`): one Markdown table row per decision, written as soon
// as the decision is carried out. Every value a message supplies is escaped, so that no message can
// put HTML, a link, an embed or any other Markdown structure into the log: what a row shows is text.
// The note column links the note by its name, which the router keeps when it moves a note on, so a
// link written at delivery still opens the note once it is archived.

const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Text every step of escapeCell leaves as it is: letters, digits, ".", "-" and single inner spaces
 * (ids, UUIDs, group ids), `www.` excepted. What the router logs is nearly always this.
 */
const PLAIN_CELL = /^[A-Za-z0-9.-]+(?: [A-Za-z0-9.-]+)*$/;

function isPlainCell(text: string, max: number): boolean {
	return text.length <= max && PLAIN_CELL.test(text) && !/www\./i.test(text);
}

/** A table cell holding `text` as plain text: one line, no HTML, no Markdown structure. */
export function escapeCell(text: string | undefined, max = 200): string {
	if (!text) return "";
	if (isPlainCell(text, max)) return text;
	return oneLine(text, max)
		.replace(/[&<>]/g, (c) => HTML_ENTITIES[c])
		.replace(/[\\`*[\]#!|~=^$%]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (c) => `\\${c}`)
		// A bare address would become a link, `key:: value` a Dataview field: `://`, `::` and `www.` are written with an escaped character.
		.replace(/:\/\/|::|\bwww\./gi, (m) => (m === "::" ? "\\:\\:" : m.startsWith(":") ? "\\://" : `${m.slice(0, 3)}\\.`));
}

/** The text of a cell written by escapeCell. */
export function unescapeCell(cell: string): string {
	return cell.replace(/\\([\\`*_[\]#!|~=^$%:.])/g, "$1").replace(/&(amp|lt|gt);/g, (_m, name: string) => ({ amp: "&", lt: "<", gt: ">" })[name] ?? "");
}

export function logHeader(day: string): string {
	return `# Routing log ${day}\n\n| Time | Outcome | Message | Trace | Route | Error | Note |\n| --- | --- | --- | --- | --- | --- | --- |\n`;
}

/** The link to a note in a log row: by name (names the router writes hold no link syntax). */
export function noteLink(path: string): string {
	return linkByName(path) ?? escapeCell(basename(path));
}

/** The route cell, `from -&gt; to`: escaped as one text (two plain group ids need no escaping). */
function routeCell(from: string | undefined, to: string | undefined): string {
	if (!from && !to) return "";
	const source = from ?? "?";
	const target = to ?? "?";
	if (source.length + target.length <= 190 && isPlainCell(source, 200) && isPlainCell(target, 200)) return `${source} -&gt; ${target}`;
	return escapeCell(`${source} -> ${target}`);
}

/** One Markdown table row per decision. */
export function logLine(d: RoutingDecision): string {
	const time = new Date(d.time).toISOString().slice(11, 19);
	return `| ${time} | ${d.outcome} | ${escapeCell(d.message_id)} | ${escapeCell(d.trace_id)} | ${routeCell(d.source_group, d.target_group)} | ${escapeCell(d.error_code)} | ${noteLink(d.path)} |\n`;
}

const KNOWN_OUTCOMES: ReadonlySet<string> = new Set(OUTCOMES);

/**
 * A row read back, written again as the router writes rows (every cell escaped anew), or null when
 * it is not a row the router could have written. Rows from elsewhere (a log's conflict copy) pass
 * through this before they join a log.
 */
export function rowLine(row: LogRow): string | null {
	if (!/^\d{2}:\d{2}:\d{2}$/.test(row.time) || !KNOWN_OUTCOMES.has(row.outcome) || row.name === "") return null;
	return `| ${row.time} | ${row.outcome} | ${escapeCell(row.messageId)} | ${escapeCell(row.traceId)} | ${escapeCell(row.route)} | ${escapeCell(row.errorCode)} | ${noteLink(row.name)} |\n`;
}

/** Splits a table row on its unescaped pipes. */
function splitRow(line: string): string[] {
	const cells: string[] = [];
	let current = "";
	for (let i = 0; i < line.length; i++) {
		if (line[i] === "\\" && i + 1 < line.length) {
			current += line[i] + line[i + 1];
			i++;
		} else if (line[i] === "|") {
			cells.push(current.trim());
			current = "";
		} else current += line[i];
	}
	return cells.slice(1);
}

export interface LogRow {
	time: string;
	outcome: string;
	messageId: string;
	traceId: string;
	route: string;
	errorCode: string;
	/** The note's file name (without folder) as the row names it. */
	name: string;
}

/** Reads the rows of a log note back (for the view's latest decisions and for recovery). */
export function parseLogLines(text: string): LogRow[] {
	const rows: LogRow[] = [];
	for (const line of text.split("\n")) {
		if (!line.startsWith("| ") || line.startsWith("| Time") || line.startsWith("| ---")) continue;
		const cells = splitRow(line);
		if (cells.length < 7) continue;
		const link = /^\[\[([^\]]*)\]\]$/.exec(cells[6]);
		const [time, outcome, messageId, traceId, route, errorCode] = cells.slice(0, 6).map(unescapeCell);
		rows.push({ time, outcome, messageId, traceId, route, errorCode, name: link ? `${link[1]}.md` : unescapeCell(cells[6]) });
	}
	return rows;
}
