import { setOwn } from "./text";

// A fast reader for the frontmatter agents and the router write most: flat `key: value` lines with
// plain, quoted, integer, boolean or null values, and block lists of such values. It returns exactly
// what the yaml library (YAML 1.2 core schema, strict, unique keys) returns for the same text, and
// null for anything it is not sure about, which the caller then reads with the library.
// test/unit/simple-yaml.differential.test.ts holds it to that on 100,000 blocks made to sit on its edges.

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
const ITEM_LINE = /^(?: {2})?- (.*)$/;
const PLAIN = /^[A-Za-z0-9_./~+$()][A-Za-z0-9_.:/@+()$~,-]*(?: [A-Za-z0-9_.:/@+()$~,-]+)*$/;
const INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const NUMERIC = /^[-+]?(?:\.[0-9]|[0-9]|\.inf|\.nan|0o|0x)/i;

const NO_VALUE = Symbol("no value");

/** Blank as YAML means it: spaces and tabs only (a no-break or ideographic space is content, not blank). */
const BLANK = /^[ \t]*$/;

/**
 * A word that starts with a letter and holds no space, no `#` and no colon at its end or beside
 * another: never a number (those start with a digit, a sign or a dot), so a string unless it is
 * null, true or false in some spelling. Most values agents write (ids, group ids, enums) are these.
 */
const LETTER_WORD = /^[A-Za-z][A-Za-z0-9_./@+-]*(?::[A-Za-z0-9_./@+-]+)*$/;
const CORE_WORD = /^(?:null|true|false)$/i;

/** One scalar as the core schema reads it, or NO_VALUE when this reader cannot be sure. */
function scalar(raw: string): unknown {
	if (LETTER_WORD.test(raw)) return CORE_WORD.test(raw) ? (raw === "null" ? null : raw === "true" ? true : raw === "false" ? false : NO_VALUE) : raw;
	const text = raw.replace(/[ \t]+$/, "");
	if (text === "" || text === "~" || text === "null") return null;
	if (text === "true") return true;
	if (text === "false") return false;
	if (INT.test(text)) return Number(text);
	if (text.startsWith('"')) {
		const inner = text.slice(1, -1);
		return text.length >= 2 && text.endsWith('"') && !/["\\]/.test(inner) ? inner : NO_VALUE;
	}
	if (text.startsWith("'")) {
		const inner = text.slice(1, -1);
		return text.length >= 2 && text.endsWith("'") && !inner.includes("'") ? inner : NO_VALUE;
	}
	if (!PLAIN.test(text) || /:(?: |$)/.test(text) || / #/.test(text) || /[()$~]/.test(text[0] ?? "")) return NO_VALUE;
	// Anything else that could be read as a number, or as null or a boolean in another spelling.
	if (NUMERIC.test(text) && /^[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?$|^[-+]?\.(?:inf|nan)$|^0[ox]/i.test(text)) return NO_VALUE;
	if (/^(?:null|true|false)$/i.test(text)) return NO_VALUE;
	return text;
}

/** The mapping of a simple frontmatter block, or null when the block is not simple. */
export function parseSimpleYaml(yaml: string): Record<string, unknown> | null {
	if (yaml.includes("\r") || yaml.includes("\t")) return null;
	const out: Record<string, unknown> = {};
	const lines = yaml.split("\n");
	let list: unknown[] | null = null;
	let listKey: string | null = null;
	// Every item of one list starts at the same column (0 or 2): the library refuses a list that
	// mixes them, or reads an indented item after one at column 0 as the rest of that item's text.
	let listIndent = 0;
	for (const line of lines) {
		if (line === "" || line.startsWith("#")) continue;
		const item = ITEM_LINE.exec(line);
		if (item) {
			if (listKey === null) return null;
			const indent = line.startsWith(" ") ? 2 : 0;
			if (list !== null && indent !== listIndent) return null;
			listIndent = indent;
			const value = scalar(item[1]);
			if (value === NO_VALUE || BLANK.test(item[1]) || item[1].startsWith("- ")) return null;
			list ??= [];
			list.push(value);
			continue;
		}
		if (listKey !== null && list !== null) setOwn(out, listKey, list);
		list = null;
		listKey = null;
		const match = KEY_LINE.exec(line);
		// A key the core schema reads as null or a boolean becomes "", "true" or "false": the library's job.
		if (!match || Object.prototype.hasOwnProperty.call(out, match[1]) || match[1] === "__proto__" || CORE_WORD.test(match[1])) return null;
		const rawValue = match[2] ?? "";
		if (BLANK.test(rawValue)) {
			listKey = match[1];
			setOwn(out, match[1], null);
			continue;
		}
		if (rawValue.startsWith("#")) return null;
		const value = scalar(rawValue);
		if (value === NO_VALUE) return null;
		setOwn(out, match[1], value);
	}
	if (listKey !== null && list !== null) setOwn(out, listKey, list);
	return out;
}
