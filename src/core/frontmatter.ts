import { Document, isMap, isPair, isScalar, isSeq, parseDocument, visit } from "yaml";
import type { Node } from "yaml";
import { editTopLevelKeys, writeTopLevelFields } from "./frontmatter-lines";
import { parseSimpleYaml } from "./simple-yaml";
import { hasOwn, isPlainObject, setOwn } from "./text";

// Frontmatter handling shared by every reader and writer of notes: splitting a note into its YAML
// block and its body, parsing YAML safely (alias bombs and duplicate keys are errors, never a hang),
// and editing fields in place while every other byte of the note stays as it was.

/** Aliases a legitimate note may use; beyond this a document is treated as an alias bomb. */
const MAX_ALIASES = 64;

/**
 * Nesting a legitimate note may use. The yaml library converts and writes nested values
 * recursively: a note nested some hundreds of levels deep parsed, then overflowed the stack when
 * the router stamped it, and (moved but never stamped) wedged every later routing pass.
 */
const MAX_DEPTH = 100;

export interface SplitNote {
	/** True when the note starts with a `---` line and the block is closed by another `---` line. */
	hasFrontmatter: boolean;
	/** True when the note opens a `---` block that never closes (typically still being written). */
	unterminated: boolean;
	/** The YAML between the fences, without them. */
	yaml: string;
	/** Everything after the closing fence line, byte for byte. */
	body: string;
	/** The fences and YAML as they stand in the note (used to replace only that part). */
	head: string;
	bom: string;
	eol: "\n" | "\r\n";
}

export function splitNote(text: string): SplitNote {
	const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
	const src = bom ? text.slice(1) : text;
	const eol = /\r\n/.test(src.slice(0, 200)) ? "\r\n" : "\n";
	const empty = { hasFrontmatter: false, unterminated: false, yaml: "", body: src, head: "", bom, eol } as SplitNote;
	const firstLineEnd = src.indexOf("\n");
	const firstLine = (firstLineEnd < 0 ? src : src.slice(0, firstLineEnd)).replace(/\r$/, "");
	if (firstLine.trimEnd() !== "---") return empty;
	let pos = firstLineEnd < 0 ? src.length : firstLineEnd + 1;
	const yamlStart = pos;
	while (pos < src.length) {
		const end = src.indexOf("\n", pos);
		const line = (end < 0 ? src.slice(pos) : src.slice(pos, end)).replace(/\r$/, "");
		if (line.trimEnd() === "---") {
			const yamlEnd = pos;
			const after = end < 0 ? src.length : end + 1;
			return {
				hasFrontmatter: true,
				unterminated: false,
				yaml: src.slice(yamlStart, yamlEnd),
				body: src.slice(after),
				head: src.slice(0, after),
				bom,
				eol,
			};
		}
		if (end < 0) break;
		pos = end + 1;
	}
	return { ...empty, unterminated: true, body: "" };
}

export class YamlError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "YamlError";
	}
}

function parseDoc(yaml: string, uniqueKeys = true): Document {
	// resolveKnownTags: false keeps `!!binary`, `!!set`, `!!omap`, `!!timestamp` values as plain data
	// (text, lists, mappings) with their tag kept for writing back: a `!!binary` value parsed into
	// bytes cannot be written again with lineWidth 0 (the library divides by it), which made every
	// stamp of such a note throw, and the note wedged every later routing pass.
	const doc = parseDocument(yaml, { uniqueKeys, prettyErrors: false, strict: true, resolveKnownTags: false });
	if (doc.errors.length > 0) {
		const first = doc.errors[0];
		throw new YamlError(`YAML does not parse: ${first.message.split("\n")[0]}`);
	}
	checkDepth(doc);
	return doc;
}

/**
 * What the library refuses to write in an anchor name (whitespace in JavaScript's sense, controls,
 * flow indicators), though it reads one: `b: &x\u00a0` read, then every stamp of the note threw, and
 * the note was neither routed nor quarantined. PyYAML refuses such a name when it reads it.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what an anchor may not hold
const UNWRITABLE_ANCHOR = /[\x00-\x19\s,[\]{}]/;

/** Throws YamlError when collections nest deeper than MAX_DEPTH or an anchor cannot be written back (walked without recursion). */
function checkDepth(doc: Document): void {
	const stack: [unknown, number][] = [[doc.contents, 1]];
	for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
		const [node, depth] = top;
		const anchor = (node as { anchor?: unknown } | null)?.anchor;
		if (typeof anchor === "string" && UNWRITABLE_ANCHOR.test(anchor)) throw new YamlError(`YAML does not parse: the anchor ${JSON.stringify(anchor)} holds whitespace or a control character`);
		if (isMap(node) || isSeq(node)) {
			if (depth > MAX_DEPTH) throw new YamlError(`YAML does not parse: values are nested more than ${MAX_DEPTH} levels deep`);
			for (const item of node.items) stack.push([item, depth + 1]);
		} else if (isPair(node)) {
			stack.push([node.key, depth], [node.value, depth]);
		}
	}
}

function docToJs(doc: Document): unknown {
	try {
		return doc.toJS({ maxAliasCount: MAX_ALIASES });
	} catch (error) {
		throw new YamlError(`YAML does not parse: ${(error as Error).message.split("\n")[0]}`);
	}
}

/**
 * Parses any YAML text into plain data; throws YamlError on a syntax error, a duplicate key or an
 * alias bomb. With `onDuplicateKey`, duplicate keys are reported through it instead (the first wins).
 */
export function parseYamlSafe(yaml: string, onDuplicateKey?: (path: string) => void): unknown {
	if (!onDuplicateKey) return docToJs(parseDoc(yaml));
	const doc = parseDoc(yaml, false);
	visit(doc, {
		Map(_key, map, path) {
			const seen = new Set<string>();
			map.items = map.items.filter((pair) => {
				const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
				if (!seen.has(key)) {
					seen.add(key);
					return true;
				}
				const parents = path.filter(isPair).map((p) => String(isScalar(p.key) ? p.key.value : p.key));
				onDuplicateKey([...parents, key].join("."));
				return false;
			});
		},
	});
	return docToJs(doc);
}

/**
 * The last frontmatter blocks parsed, by their text: the router reads a note, then stamps the same
 * text moments later, and the second parse is the costliest step of routing. Entries are never
 * handed out: callers get a copy.
 */
const parsed = new Map<string, Record<string, unknown>>();
const PARSED_LIMIT = 256;

function parseFrontmatterShared(yaml: string): Record<string, unknown> {
	const hit = parsed.get(yaml);
	if (hit) return hit;
	let data: unknown = !/\S/.test(yaml) ? {} : (parseSimpleYaml(yaml) ?? parseYamlSafe(yaml));
	if (data === null || data === undefined) data = {};
	if (!isPlainObject(data)) throw new YamlError("the frontmatter is not a mapping of fields");
	if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value as string);
	parsed.set(yaml, data);
	return data;
}

/** Parses a frontmatter block: always a mapping (an empty block is an empty mapping). */
export function parseFrontmatterYaml(yaml: string): Record<string, unknown> {
	return cloneData(parseFrontmatterShared(yaml));
}

/**
 * A frontmatter block with what it parsed to, kept by a reader that may edit the same note later
 * (updateFrontmatterText takes it instead of parsing that very block again: a pass over more notes
 * than the cache above holds would parse each note twice). `data` is shared: never edited.
 */
export interface ParsedBlock {
	readonly yaml: string;
	readonly data: Readonly<Record<string, unknown>>;
}

/** parseFrontmatterYaml, and the block to hand to updateFrontmatterText. */
export function parseFrontmatterBlock(yaml: string): { data: Record<string, unknown>; block: ParsedBlock } {
	const shared = parseFrontmatterShared(yaml);
	return { data: cloneData(shared), block: { yaml, data: shared } };
}

/** A deep copy of parsed YAML data (mappings, lists and scalars; own keys only, `__proto__` included). */
export function cloneData<T>(value: T): T {
	if (Array.isArray(value)) return value.map((item: unknown) => cloneData(item)) as T;
	if (isPlainObject(value)) {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value)) setOwn(out, key, cloneData(value[key]));
		return out as T;
	}
	return value;
}

/** Reads the frontmatter of a note; null when it has none. Throws YamlError when it does not parse. */
export function readFrontmatter(text: string): Record<string, unknown> | null {
	const split = splitNote(text);
	if (split.unterminated) throw new YamlError("the frontmatter block is not closed by a --- line");
	return split.hasFrontmatter ? parseFrontmatterYaml(split.yaml) : null;
}

/**
 * The yaml library writes a string whose leading lines hold only spaces or tabs (" \n", "\t\nx") as a
 * block scalar without an indentation indicator, which reads back different or not at all. Such
 * strings are written double-quoted instead, so every value reads back exactly.
 */
function quoteAmbiguousBlocks(node: Document | Node): void {
	visit(node, {
		Scalar(_key, scalar) {
			const leading = typeof scalar.value === "string" ? /^[ \t\n]*\n/.exec(scalar.value) : null;
			if (leading && /[ \t]/.test(leading[0])) scalar.type = "QUOTE_DOUBLE";
		},
	});
}

/**
 * `lineWidth: 0` never folds lines. Double-quoted strings stay on one line with `\n` escapes: the
 * library's multi-line double-quoted form turns a line holding a single space into a backslash.
 */
const TO_STRING = { lineWidth: 0, minContentWidth: 0, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY };

/** Any data as YAML text; a mapping of plain fields is written without the library, to the same text. */
export function stringifyYaml(data: unknown): string {
	return (isPlainObject(data) ? writeTopLevelFields(data, writeFieldWithLibrary) : null) ?? stringifyWithLibrary(data);
}

/** The YAML library's text for `data` (the reference the quick way must equal). */
export function stringifyWithLibrary(data: unknown): string {
	const doc = new Document(data, { aliasDuplicateObjects: false });
	quoteAmbiguousBlocks(doc);
	return doc.toString(TO_STRING);
}

const writeFieldWithLibrary = (key: string, value: unknown): string => stringifyWithLibrary({ [key]: value });

/** Builds a note from a frontmatter mapping and a body. */
export function buildNote(frontmatter: Record<string, unknown>, body: string): string {
	const yaml = Object.keys(frontmatter).length === 0 ? "" : stringifyYaml(frontmatter);
	return `---\n${yaml}---\n${body}`;
}

function sameValue(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Edits a note's frontmatter through a callback, like Obsidian's processFrontMatter: fields the
 * callback does not touch keep their exact text (comments, quoting, number types), and the body is
 * kept byte for byte. Throws YamlError when the existing frontmatter does not parse. `parsedBlock`:
 * the block as a reader of this text parsed it (parseFrontmatterBlock), when it has it.
 */
export function updateFrontmatterText(text: string, edit: (frontmatter: Record<string, unknown>) => void, parsedBlock?: ParsedBlock): string {
	const split = splitNote(text);
	if (split.unterminated) throw new YamlError("the frontmatter block is not closed by a --- line");
	if (split.hasFrontmatter) {
		// A block parsed before is used only for that very block.
		const current = parsedBlock !== undefined && parsedBlock.yaml === split.yaml ? (parsedBlock.data as Record<string, unknown>) : parseFrontmatterShared(split.yaml);
		const working = cloneData(current);
		edit(working);
		const yaml = editTopLevelKeys(split.yaml, current, working, writeFieldWithLibrary);
		if (yaml !== null) return `${split.bom}---${split.eol}${yaml}---${split.eol}${split.body}`;
	}
	const doc = split.hasFrontmatter && split.yaml.trim() !== "" ? parseDoc(split.yaml) : new Document({});
	const before = docToJs(doc) ?? {};
	if (!isPlainObject(before)) throw new YamlError("the frontmatter is not a mapping of fields");
	const working = cloneData(before);
	edit(working);
	if (!isMap(doc.contents)) doc.contents = doc.createNode({});
	for (const key of Object.keys(before)) {
		if (!hasOwn(working, key)) doc.delete(key);
	}
	for (const [key, value] of Object.entries(working)) {
		if (!hasOwn(before, key) || !sameValue(before[key], value)) {
			const node = doc.createNode(value);
			quoteAmbiguousBlocks(node);
			doc.set(key, node);
		}
	}
	let yaml = Object.keys(working).length === 0 ? "" : doc.toString(TO_STRING);
	if (split.eol === "\r\n") yaml = yaml.replace(/\r?\n/g, "\r\n");
	const head = `---${split.eol}${yaml}---${split.eol}`;
	return `${split.bom}${head}${split.body}`;
}
