import { hasOwn } from "./text";

// The quick way to edit simple frontmatter (src/core/frontmatter.ts uses it first): the lines of each
// changed top-level field are replaced by that field written anew, every other line stays as it
// is, byte for byte.

const sameValue = (a: unknown, b: unknown): boolean => a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b));

const SIMPLE_KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]|$)/;

/**
 * The quick way to apply an edit to simple frontmatter: the lines of each changed top-level field are
 * replaced by that field written anew, every other line stays as it is. Null (take the careful way,
 * through the YAML document) whenever the block holds anything this cannot be sure about: anchors,
 * aliases, tags, quoted or complex keys, CRLF, or a key it could not find on its own line.
 */
export function editTopLevelKeys(yaml: string, before: Record<string, unknown>, after: Record<string, unknown>, writeWithLibrary: (key: string, value: unknown) => string): string | null {
	if (yaml.includes("\r") || /(?:^|[\s[{,])[&*!]/.test(yaml)) return null;
	const lines = yaml.endsWith("\n") ? yaml.slice(0, -1).split("\n") : yaml.split("\n");
	if (yaml === "") lines.length = 0;
	const blocks = new Map<string, { start: number; end: number }>();
	let current: { start: number; end: number } | null = null;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (line === "" || /^[ \t]/.test(line) || line.startsWith("#") || line === "-" || line.startsWith("- ")) {
			if (current === null && line !== "" && !line.startsWith("#")) return null;
			continue;
		}
		const match = SIMPLE_KEY_LINE.exec(line);
		if (!match || blocks.has(match[1])) return null;
		if (current) current.end = i;
		current = { start: i, end: lines.length };
		blocks.set(match[1], current);
	}
	// Blank lines and comments that end a block stay: they introduce what follows.
	for (const block of blocks.values()) {
		while (block.end - 1 > block.start && (lines[block.end - 1] === "" || lines[block.end - 1].startsWith("#"))) block.end--;
	}
	if (blocks.size !== Object.keys(before).length || Object.keys(before).some((k) => !blocks.has(k))) return null;
	const replaced = new Map<number, string[]>();
	const dropped = new Set<number>();
	const appended: string[] = [];
	for (const key of Object.keys(before)) {
		if (hasOwn(after, key)) continue;
		const block = blocks.get(key) as { start: number; end: number };
		for (let i = block.start; i < block.end; i++) dropped.add(i);
	}
	for (const [key, value] of Object.entries(after)) {
		if (hasOwn(before, key) && sameValue(before[key], value)) continue;
		if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) || value === undefined) return null;
		const written = writeField(key, value, writeWithLibrary);
		const block = blocks.get(key);
		if (!block) {
			appended.push(...written);
			continue;
		}
		replaced.set(block.start, written);
		for (let i = block.start + 1; i < block.end; i++) dropped.add(i);
	}
	const out: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const replacement = replaced.get(i);
		if (replacement) out.push(...replacement);
		else if (!dropped.has(i)) out.push(lines[i]);
	}
	out.push(...appended);
	return Object.keys(after).length === 0 ? "" : `${out.join("\n")}\n`;
}

const PLAIN_TEXT = /^[A-Za-z0-9_/][A-Za-z0-9_.:/@+-]*(?: [A-Za-z0-9_.:/@+-]+)*$/;
const YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n|~|\.nan|\.inf)$/i;
/** What the YAML 1.2 core schema reads as a number (an integer, octal, hex, float, infinity or NaN). */
const CORE_NUMBER = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * True when a string reads back as the same string written without quotes, which is also how the
 * YAML library writes it (a time such as 2026-12-01T04:00:00.000Z, a UUID, a group id such as
 * 10-backend-group): the router's stamps take this way, the rest goes through the library.
 */
export function isPlainSafe(text: string): boolean {
	return PLAIN_TEXT.test(text) && !YAML_WORDS.test(text) && !CORE_NUMBER.test(text) && !/:(?: |$)/.test(text);
}

/** One field as YAML lines: the common shapes written directly, anything else by the YAML library. */
function writeField(key: string, value: unknown, writeWithLibrary: (key: string, value: unknown) => string): string[] {
	if (typeof value === "number" && Number.isSafeInteger(value)) return [`${key}: ${value}`];
	if (typeof value === "boolean") return [`${key}: ${value}`];
	if (typeof value === "string" && isPlainSafe(value)) return [`${key}: ${value}`];
	if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string" && isPlainSafe(item))) {
		return [`${key}:`, ...value.map((item) => `  - ${String(item)}`)];
	}
	return writeWithLibrary(key, value).replace(/\n$/, "").split("\n");
}
