import { parseBodySections } from "./body";
import { YamlError, parseFrontmatterBlock, parseYamlSafe, splitNote } from "./frontmatter";
import type { ParsedBlock } from "./frontmatter";
import type { MessageFormat, Payload } from "./message";
import { extension } from "./paths";
import { isPlainObject, utf8Length } from "./text";

// Step one of reading a message: from the text of a note (or a .yaml file) to its raw fields and
// payload, whatever form the agent wrote it in. Checking the fields is validate.ts's job.

export interface RawMessage {
	/** Envelope and extra fields as written, the seed's wrapper unwrapped. */
	fields: Record<string, unknown>;
	payload: Payload;
	format: MessageFormat;
	/** `request` or `response` when the seed's wrapper names it. */
	wrapperKind?: "request" | "response";
	frontmatterBytes: number;
	/** The frontmatter block as parsed (a note's, not a YAML file's), for a stamp of the same text (updateFrontmatterText). */
	block?: ParsedBlock;
}

export type ReadResult = { ok: true; raw: RawMessage } | { ok: false; reason: string };

export function isYamlMessagePath(path: string): boolean {
	const ext = extension(path);
	return ext === "yaml" || ext === "yml";
}

export function isMessagePath(path: string): boolean {
	return extension(path) === "md" || isYamlMessagePath(path);
}

function unwrap(data: Record<string, unknown>): { fields: Record<string, unknown>; wrapperKind?: "request" | "response" } {
	const keys = Object.keys(data);
	if (keys.length === 1 && (keys[0] === "message" || keys[0] === "response") && isPlainObject(data[keys[0]])) {
		return { fields: { ...(data[keys[0]] as Record<string, unknown>) }, wrapperKind: keys[0] === "message" ? "request" : "response" };
	}
	return { fields: { ...data } };
}

function takePayload(fields: Record<string, unknown>): Payload | string {
	const payload = fields.payload;
	delete fields.payload;
	if (payload === undefined || payload === null) return {};
	if (!isPlainObject(payload)) return "payload must be a mapping of fields";
	return { ...payload };
}

/**
 * A .md file holding bare YAML instead of a note (an agent that wrote the seed's YAML into a .md file,
 * or a YAML file the router moved before rewriting it): read as YAML when it is clearly a message.
 */
function readBareYaml(text: string): ReadResult | null {
	try {
		const data = parseYamlSafe(text.replace(/^\uFEFF/, ""));
		if (!isPlainObject(data)) return null;
		const { fields, wrapperKind } = unwrap(data);
		if (!wrapperKind && fields.trace_id === undefined) return null;
		const payload = takePayload(fields);
		if (typeof payload === "string") return { ok: false, reason: payload };
		return { ok: true, raw: { fields, payload, format: "yaml", wrapperKind, frontmatterBytes: 0 } };
	} catch {
		return null;
	}
}

/**
 * Reads a note or YAML file into raw message fields; fails only when it cannot be read at all. With
 * `withBody: false` the body's sections are not read (the payload then holds only a frontmatter
 * `payload:` mapping): what indexing needs.
 */
export function readRawMessage(text: string, path: string, withBody = true): ReadResult {
	try {
		let data: Record<string, unknown>;
		let body = "";
		let frontmatterBytes: number;
		let format: MessageFormat;
		let block: ParsedBlock | undefined;
		if (isYamlMessagePath(path)) {
			const parsed = parseYamlSafe(text.replace(/^\uFEFF/, ""));
			if (!isPlainObject(parsed)) return { ok: false, reason: "the file is not a YAML mapping" };
			data = parsed;
			frontmatterBytes = 0;
			format = "yaml";
		} else {
			const split = splitNote(text);
			if (split.unterminated) return { ok: false, reason: "the frontmatter block is not closed by a --- line" };
			if (!split.hasFrontmatter) {
				// A note holding the seed's bare YAML (`message:` or `response:` at the top) is read as such.
				const bare = readBareYaml(text);
				if (bare) return bare;
				return { ok: false, reason: "the note has no frontmatter (it must start with a --- line)" };
			}
			({ data, block } = parseFrontmatterBlock(split.yaml));
			body = split.body;
			frontmatterBytes = utf8Length(split.head);
			format = "flat";
		}
		const { fields, wrapperKind } = unwrap(data);
		if (wrapperKind && format === "flat") format = "wrapped";
		const payload = takePayload(fields);
		if (typeof payload === "string") return { ok: false, reason: payload };
		// The body wins over the frontmatter's payload mapping on a clash (protocol section 3).
		const merged = withBody ? { ...payload, ...parseBodySections(body) } : payload;
		return { ok: true, raw: { fields, payload: merged, format, wrapperKind, frontmatterBytes, block } };
	} catch (error) {
		if (error instanceof YamlError) return { ok: false, reason: error.message };
		throw error;
	}
}
