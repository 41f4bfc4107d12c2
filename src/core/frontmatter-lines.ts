import { hasOwn } from "./text";

// The quick way to edit simple frontmatter (src/core/frontmatter.ts uses it first): the lines of each
// changed top-level field are replaced by that field written anew, every other line stays as it
// is, byte for byte.

const sameValue = (a: unknown, b: unknown): boolean => a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b));

/** The key a top-level `key: value` (or `key:`) line starts with, or null: `[A-Za-z_][A-Za-z0-9_-]*`, then `:` and a space, a tab or the line's end. */
function simpleKeyOf(line: string): string | null {
	const first = line.charCodeAt(0);
	if (!(isLetter(first) || first === 95 /* _ */)) return null;
	let i = 1;
	for (; i < line.length; i++) {
		const c = line.charCodeAt(i);
		if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 45 /* - */)) break;
	}
	if (line.charCodeAt(i) !== 58 /* : */) return null;
	const next = line.charCodeAt(i + 1);
	return i + 1 === line.length || next === 32 || next === 9 ? line.slice(0, i) : null;
}

/** False when the text has no `&`, `*` or `!` at all, so no anchor, alias or tag. */
function mayHoldNodeProperty(yaml: string): boolean {
	return yaml.includes("&") || yaml.includes("*") || yaml.includes("!");
}

function isLetter(c: number): boolean {
	return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** True for a line that belongs to the field above it (indented, a list item) or to none (blank, a comment). */
function isContinuation(line: string): boolean {
	if (line === "" || line === "-") return true;
	const c = line.charCodeAt(0);
	return c === 32 || c === 9 || c === 35 /* # */ || (c === 45 && line.charCodeAt(1) === 32);
}

/**
 * The quick way to apply an edit to simple frontmatter: the lines of each changed top-level field are
 * replaced by that field written anew, every other line stays as it is. Null (take the careful way,
 * through the YAML document) whenever the block holds anything this cannot be sure about: anchors,
 * aliases, tags, quoted or complex keys, CRLF, a line starting with a tab, or a key it could not find on its own line.
 */
export function editTopLevelKeys(yaml: string, before: Record<string, unknown>, after: Record<string, unknown>, writeWithLibrary: (key: string, value: unknown) => string): string | null {
	if (yaml.includes("\r") || (mayHoldNodeProperty(yaml) && /(?:^|[\s[{,])[&*!]/.test(yaml))) return null;
	// A line that starts with a tab is left to the library: kept as it is before a field written
	// after it (`b:\n\t\nnew: x`), the library refuses the block ("tabs are not allowed as indentation").
	if (yaml.includes("\n\t") || yaml.startsWith("\t")) return null;
	const lines = yaml.endsWith("\n") ? yaml.slice(0, -1).split("\n") : yaml.split("\n");
	if (yaml === "") lines.length = 0;
	const blocks = new Map<string, { start: number; end: number }>();
	let current: { start: number; end: number } | null = null;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (isContinuation(line)) {
			if (current === null && line !== "" && !line.startsWith("#")) return null;
			continue;
		}
		const key = simpleKeyOf(line);
		if (key === null || blocks.has(key)) return null;
		if (current) current.end = i;
		current = { start: i, end: lines.length };
		blocks.set(key, current);
	}
	// Blank lines and comments that end a block stay: they introduce what follows.
	for (const block of blocks.values()) {
		while (block.end - 1 > block.start && (lines[block.end - 1] === "" || lines[block.end - 1].startsWith("#"))) block.end--;
	}
	const beforeKeys = Object.keys(before);
	if (blocks.size !== beforeKeys.length) return null;
	for (const key of beforeKeys) if (!blocks.has(key)) return null;
	// Per line: undefined keeps it, null drops it, an array replaces it.
	const edits: (string[] | null | undefined)[] = new Array<string[] | null | undefined>(lines.length);
	const appended: string[] = [];
	for (const key of beforeKeys) {
		if (hasOwn(after, key)) continue;
		const block = blocks.get(key) as { start: number; end: number };
		for (let i = block.start; i < block.end; i++) edits[i] = null;
	}
	const afterKeys = Object.keys(after);
	for (const key of afterKeys) {
		const value = after[key];
		if (hasOwn(before, key) && sameValue(before[key], value)) continue;
		if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) || value === undefined) return null;
		const written = writeField(key, value, writeWithLibrary);
		const block = blocks.get(key);
		if (!block) {
			for (const line of written) appended.push(line);
			continue;
		}
		edits[block.start] = written;
		for (let i = block.start + 1; i < block.end; i++) edits[i] = null;
	}
	if (afterKeys.length === 0) return "";
	let out = "";
	for (let i = 0; i < lines.length; i++) {
		const edit = edits[i];
		if (edit === undefined) out += `${lines[i]}\n`;
		else if (edit !== null) for (const line of edit) out += `${line}\n`;
	}
	for (const line of appended) out += `${line}\n`;
	return out;
}

const PLAIN_TEXT = /^[A-Za-z0-9_/][A-Za-z0-9_.:/@+-]*(?: [A-Za-z0-9_.:/@+-]+)*$/;
const YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n|~|\.nan|\.inf)$/i;
/** What the YAML 1.2 core schema reads as a number (an integer, octal, hex, float, infinity or NaN). */
const CORE_NUMBER = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** A time as the router writes it (toISOString): plain text, never a number or a word. */
const ROUTER_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * True when a string reads back as the same string written without quotes, which is also how the
 * YAML library writes it (a time such as 2026-12-01T04:00:00.000Z, a UUID, a group id such as
 * 10-backend-group): the router's stamps take this way, the rest goes through the library.
 */
export function isPlainSafe(text: string): boolean {
	if (ROUTER_TIME.test(text)) return true;
	return PLAIN_TEXT.test(text) && !YAML_WORDS.test(text) && !CORE_NUMBER.test(text) && !/:(?: |$)/.test(text);
}

/**
 * A whole mapping written field by field, each as `writeField` writes it: exactly the YAML library's
 * text for the mapping (test/unit/frontmatter-write.property.test.ts compares them), since the library
 * writes a block mapping's fields one after the other, each as it would write it alone. Null (write
 * it with the library) for an empty mapping, or a key the library might quote.
 */
export function writeTopLevelFields(data: Record<string, unknown>, writeWithLibrary: (key: string, value: unknown) => string): string | null {
	const keys = Object.keys(data);
	if (keys.length === 0) return null;
	for (const key of keys) if (!SIMPLE_KEY.test(key) || !isPlainSafe(key) || data[key] === undefined) return null;
	let out = "";
	for (const key of keys) for (const line of writeField(key, data[key], writeWithLibrary)) out += `${line}\n`;
	return out;
}

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** One field as YAML lines: the common shapes written directly, anything else by the YAML library. */
function writeField(key: string, value: unknown, writeWithLibrary: (key: string, value: unknown) => string): string[] {
	// -0 is a safe integer that a template literal writes as 0: the library writes it as -0.
	if (typeof value === "number" && Number.isSafeInteger(value) && !Object.is(value, -0)) return [`${key}: ${value}`];
	if (typeof value === "boolean") return [`${key}: ${value}`];
	if (typeof value === "string" && isPlainSafe(value)) return [`${key}: ${value}`];
	if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string" && isPlainSafe(item))) {
		return [`${key}:`, ...value.map((item) => `  - ${String(item)}`)];
	}
	return writeWithLibrary(key, value).replace(/\n$/, "").split("\n");
}
