import { Notice } from "obsidian";
import { writeTraceNote } from "../../actions/export-trace";
import { messageNotice } from "../notices/message-notice";
import { NOTICE_TEXT } from "../strings";
import type { UiParts } from "../ui-parts";

/** Writes the trace's note and says where, with a link to it. */
export async function exportTrace(parts: Pick<UiParts, "app" | "state" | "vault">, traceId: string): Promise<void> {
	try {
		const path = await writeTraceNote(parts.vault, parts.state.layout(), traceId, parts.state.index().traceTimeline(traceId), Date.now());
		messageNotice(parts.app, parts.state, { before: NOTICE_TEXT.traceExported, ref: { path } });
	} catch (error) {
		new Notice(NOTICE_TEXT.traceExportFailed(error instanceof Error ? error.message : String(error)));
	}
}
