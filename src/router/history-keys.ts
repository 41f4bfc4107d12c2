import { readRawMessage } from "../core/message-parse";
import type { ReadResult } from "../core/message-parse";
import type { QueuedNote } from "./pass-context";

// What decisions about the notes of a pass ask the history about: their message ids, trace ids,
// parent ids and the ids they answer (src/core/routing.ts looks notes up by nothing else). A
// decision that asks about any other key is stopped and made again on the whole history
// (IndexSync.decide), so this set only decides how much is read before the first note is routed.

const KEY_FIELDS = ["message_id", "trace_id", "parent_id", "in_reply_to"] as const;

export function historyKeys(queue: readonly QueuedNote[]): Set<string> {
	const keys = new Set<string>();
	for (const note of queue) {
		const read = parsedNote(note);
		if (!read.ok) continue;
		for (const field of KEY_FIELDS) {
			const value = read.raw.fields[field];
			if (typeof value === "string") keys.add(value);
		}
	}
	return keys;
}

/**
 * A queued note as readRawMessage reads it (with its body sections), made once per pass: the
 * decision takes it from here (a pass of more notes than the frontmatter cache holds used to parse
 * each note twice). The result is never edited; whoever changes fields works on a copy.
 */
function parsedNote(note: QueuedNote): ReadResult {
	note.parsed ??= readRawMessage(note.read.text, note.path);
	return note.parsed;
}
