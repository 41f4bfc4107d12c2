import { terminalText } from "../src/core/terminal-text";
import { decisionJson } from "../src/core/decision";
import type { RoutingDecision } from "../src/core/decision";
import type { PassReport } from "../src/router/router";
import type { Session } from "./session";

// What `a2a route` prints of a pass: one line per decision (one JSON object with --json), and the
// notes it could not deal with on stderr. A line shows a remote's or a note's text terminal-safe:
// its newlines and control characters as escapes (JSON lines stay exact).

function describe(d: RoutingDecision): string {
	const route = d.source_group || d.target_group ? ` ${d.source_group ?? "?"} -> ${d.target_group ?? "?"}` : "";
	const code = d.error_code ? ` ${d.error_code}:` : "";
	const why = d.reason ? ` ${d.reason}` : "";
	return `${d.outcome.padEnd(9)} ${d.message_id ?? "-"}${route}${code}${why} (${d.path})`;
}

export function printReport(session: Pick<Session, "json" | "out" | "err">, report: PassReport): void {
	for (const d of report.decisions) session.out(session.json ? decisionJson(d) : terminalText(describe(d)));
	for (const f of report.failures) session.err(terminalText(`could not route ${f.path}: ${f.error}`));
	for (const w of report.warnings) session.err(terminalText(`warning: ${w}`));
}
