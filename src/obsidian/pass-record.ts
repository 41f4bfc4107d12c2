import type { RoutingDecision } from "../core/decision";
import type { PassReport } from "../router/router";
import type { Notifier } from "./notifier";

// What a pass leaves behind in the relay once it is over: its decisions and warnings kept for the
// view and the notices (the latest RECENT_LIMIT of each, newest first), its warnings and the notes it
// could not route said in notices that fold a burst into one.

const RECENT_LIMIT = 50;

/** The relay's record of its passes (the relay itself): read by relay-state.ts. */
export interface PassMemory {
	readonly recent: RoutingDecision[];
	readonly warnings: { text: string; time: number }[];
}

/** Keeps a pass's decisions and warnings in `memory` and says its warnings and failures. */
export function recordPass(report: PassReport, memory: PassMemory, notifier: Notifier): void {
	// Rejected and timed-out messages are noticed by src/ui/notices/decision-notices.ts, which reads these.
	for (const d of report.decisions) memory.recent.unshift(d);
	for (const warning of report.warnings) {
		memory.warnings.unshift({ text: warning, time: Date.now() });
		notifier.notify("warning", `A2A Relay: ${warning}`, (_n, latest) => `A2A Relay: ${latest}`);
	}
	memory.warnings.splice(RECENT_LIMIT);
	for (const failure of report.failures) {
		notifier.notify("failure", `A2A Relay could not route ${failure.path}: ${failure.error}`, (n, latest) => `A2A Relay: ${n} notes could not be routed. Latest: ${latest}`);
	}
	memory.recent.splice(RECENT_LIMIT);
}
