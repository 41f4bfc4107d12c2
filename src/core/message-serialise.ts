import { fitsInBody, renderBodySections } from "./body";
import { buildNote } from "./frontmatter";
import { ENVELOPE_FIELD_ORDER } from "./message";
import type { Envelope, Message, Payload } from "./message";
import { setOwn } from "./text";

// A message as a note: flat frontmatter in a stable field order, the payload as `## Heading`
// sections (a value's own level-two headings escaped, see body.ts). Values a body section could not
// carry unchanged (non-text values, text with edge whitespace, an open code fence or a backslashed
// heading line) go to the frontmatter's `payload:` mapping instead, so that parsing the note gives
// back exactly the message that was written.

export function envelopeFields(envelope: Envelope): Record<string, unknown> {
	const ordered: Record<string, unknown> = {};
	const source = envelope as unknown as Record<string, unknown>;
	for (const field of ENVELOPE_FIELD_ORDER) {
		if (source[field] !== undefined) ordered[field] = source[field];
	}
	return ordered;
}

export function splitPayload(payload: Payload): { body: Payload; frontmatter: Payload } {
	const body: Payload = {};
	const frontmatter: Payload = {};
	for (const [key, value] of Object.entries(payload)) {
		setOwn(fitsInBody(key, value) ? body : frontmatter, key, value);
	}
	return { body, frontmatter };
}

export function serialiseMessage(message: Message): string {
	const { body, frontmatter } = splitPayload(message.payload);
	const fields: Record<string, unknown> = envelopeFields(message.envelope);
	for (const [key, value] of Object.entries(message.extra)) setOwn(fields, key, value);
	if (Object.keys(frontmatter).length > 0) fields.payload = frontmatter;
	return buildNote(fields, `\n${renderBodySections(body)}`);
}
