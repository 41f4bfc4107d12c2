import type { Outcome } from "../core/protocol";
import type { PassReport } from "../router/router";
import { ROUTE_TEXT } from "./strings";

/** "Routed 3 messages: 2 delivered, 1 rejected", "Nothing to route", or why nothing ran. */
export function describePass(report: PassReport, registryUsable: boolean): string {
	if (report.busy) return ROUTE_TEXT.busy(report.standby);
	if (!registryUsable) return ROUTE_TEXT.noRegistry;
	const counts = new Map<Outcome, number>();
	for (const d of report.decisions) counts.set(d.outcome, (counts.get(d.outcome) ?? 0) + 1);
	const routed = report.decisions.filter((d) => d.outcome !== "ignored").length;
	const ignored = ROUTE_TEXT.ignored(counts.get("ignored") ?? 0);
	const waiting = report.waiting.length > 0 ? ROUTE_TEXT.waiting(report.waiting.length) : "";
	if (routed === 0) return ROUTE_TEXT.nothing(ignored, waiting);
	const words = ROUTE_TEXT.outcomes as Record<Outcome, string>;
	const parts = (Object.keys(words) as Outcome[]).filter((o) => o !== "ignored" && counts.has(o)).map((o) => `${counts.get(o) ?? 0} ${words[o]}`);
	return ROUTE_TEXT.routed(routed, parts.join(", "), ignored, waiting);
}
