import type { VaultLayout } from "../core/layout";
import type { IndexEntry } from "../core/message-index";
import { joinPath } from "../core/paths";
import { iso } from "../core/time";
import { traceNoteName, traceNoteText } from "../core/trace-diagram";
import type { VaultPort } from "../router/vault-port";
import { createUnderFreeName } from "../router/free-names";

// Export trace as note: the trace's sequence diagram and its table of messages, written as a new
// note in `<root>/traces/` (never over another note: a taken name gets the next free one). Times
// in a note are ISO UTC, like every time the router writes.

export const TRACES_FOLDER = "traces";

export async function writeTraceNote(vault: Pick<VaultPort, "create">, layout: VaultLayout, traceId: string, entries: readonly IndexEntry[], now: number): Promise<string> {
	const text = traceNoteText(traceId, entries, (time) => time, iso(now));
	return createUnderFreeName(vault, joinPath(layout.root, TRACES_FOLDER), traceNoteName(traceId), text, traceId);
}
