// Small text helpers shared by the parsers and formatters.

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\u0000-\u007f]*$/;

export function utf8Length(text: string): number {
	if (ASCII.test(text)) return text.length;
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Shortens text for one-line displays (notices, log lines, table cells). */
export function oneLine(text: string, max = 120): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function describeValue(value: unknown): string {
	if (value === null || value === undefined) return "nothing";
	if (typeof value === "string") return `"${oneLine(value, 40)}"`;
	if (Array.isArray(value)) return "a list";
	if (value instanceof Date) return "a date";
	if (typeof value === "object") return "a mapping";
	if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
	return `a ${typeof value}`;
}

/**
 * Sets an own property, whatever its name: `__proto__`, `constructor` and `toString` are data in a
 * note, never the object's prototype or methods.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
	// Only `__proto__` needs the slow way: assigning it sets the prototype instead of a field.
	if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	else target[key] = value;
}

/** True when `target` has `key` as its own property (never an inherited one such as `constructor`). */
export function hasOwn(target: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(target, key);
}

/** True when `text` holds `lines` (one or more whole lines, each ending in "\n") at the start of a line. */
export function holdsLines(text: string, lines: string): boolean {
	return text.startsWith(lines) || text.includes(`\n${lines}`);
}
