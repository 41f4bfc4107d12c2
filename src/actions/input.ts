// Numbers typed by a user (a form field, a command-line value), read strictly: "12abc" is not 12.

/** An integer typed in a field: null when it is not one. */
export function parseInteger(text: string): number | null {
	const trimmed = text.trim();
	if (!/^[+-]?\d+$/.test(trimmed)) return null;
	const n = Number(trimmed);
	return Number.isSafeInteger(n) ? n : null;
}

/** A number typed in a field (decimals allowed): null when it is not one. */
export function parseNumber(text: string): number | null {
	const trimmed = text.trim();
	if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return null;
	const n = Number(trimmed);
	return Number.isFinite(n) ? n : null;
}
