import { keyToHeading } from "../src/core/body";
import type { MessageDetail } from "../src/router/message-view";

// One message whole as text (`a2a read`, `a2a wait`, `a2a take`): the envelope fields one per line,
// then each payload section under its heading.

function value(v: unknown): string {
	if (typeof v === "string") return v;
	return JSON.stringify(v);
}

const PLACE_KEYS = new Set(["payload", "where", "group", "path", "truncated"]);

export function messageText(message: MessageDetail): string[] {
	const lines = [`${message.path} (${message.where}${message.group ? ` of ${message.group}` : ""})`];
	for (const [key, v] of Object.entries(message)) if (!PLACE_KEYS.has(key)) lines.push(`${key}: ${value(v)}`);
	if (message.truncated) lines.push("(the note is larger than a message may be: shown cut)");
	for (const [key, v] of Object.entries(message.payload)) {
		lines.push("", `## ${keyToHeading(key)}`);
		if (Array.isArray(v)) for (const item of v) lines.push(`- ${value(item)}`);
		else lines.push(value(v));
	}
	return lines;
}
