import { terminalLines, terminalText } from "../src/core/terminal-text";
import { keyToHeading } from "../src/core/body";
import type { MessageDetail } from "../src/router/message-view";

// One message whole as text (`a2a read`, `a2a wait`, `a2a take`): the envelope fields one per line,
// then each payload section under its heading. Every field and line is shown terminal-safe
// (src/core/terminal-text.ts): a field's newlines and control characters as escapes, a section's
// lines as lines, each escaped.

function value(v: unknown): string {
	if (typeof v === "string") return v;
	return JSON.stringify(v);
}

const PLACE_KEYS = new Set(["payload", "where", "group", "path", "truncated"]);

export function messageText(message: MessageDetail): string[] {
	const lines = [terminalText(`${message.path} (${message.where}${message.group ? ` of ${message.group}` : ""})`)];
	for (const [key, v] of Object.entries(message)) if (!PLACE_KEYS.has(key)) lines.push(terminalText(`${key}: ${value(v)}`));
	if (message.truncated) lines.push("(the note is larger than a message may be: shown cut)");
	for (const [key, v] of Object.entries(message.payload)) {
		lines.push("", terminalText(`## ${keyToHeading(key)}`));
		if (Array.isArray(v)) for (const item of v) lines.push(terminalText(`- ${value(item)}`));
		else lines.push(...terminalLines(value(v)));
	}
	return lines;
}
