// Text from outside (a remote agent's failure text, a note's fields and body, a file name) printed
// for a person to read. A terminal acts on control characters: ESC starts sequences that recolour,
// move the cursor, rewrite the window title or (OSC 52) set the clipboard; CR overwrites the line;
// a newline inside a field forges a line of output; bidirectional controls make text show in
// another order than it is. Every human-readable line the CLI prints shows such characters as
// visible escapes instead (`\x1b`, `\r`, `\n`, `\u202e`); JSON output is never passed through here.

/**
 * The characters shown escaped: C0 controls (tab and newline included), DEL, C1 controls, the line
 * and paragraph separators, every format character (the bidirectional controls, zero-width spaces,
 * soft hyphens, tag characters: what can make two ids look alike), but the zero-width joiner that
 * emoji sequences need, and lone surrogates.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this escapes
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|(?!\u200d)\p{Cf}|\p{Cs}/gu;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(char: string): string {
	const named = NAMED[char];
	if (named !== undefined) return named;
	const code = char.codePointAt(0) ?? 0;
	if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
	return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/** `text` as one line a terminal shows as it is: every control, separator and bidi character escaped, newlines and tabs too. */
export function terminalText(text: string): string {
	return text.replace(UNSAFE, escapeOne);
}

/** UNSAFE without the tab: in a text shown as lines (a body's code, indentation) a tab is only a tab. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this escapes
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]|(?!\u200d)\p{Cf}|\p{Cs}/gu;

/** The lines of a multi-line text (a note's body section), each terminal-safe with its tabs kept; `\r\n` and `\n` end lines. */
export function terminalLines(text: string): string[] {
	return text.split(/\r?\n/).map((line) => line.replace(UNSAFE_IN_LINES, escapeOne));
}

/** `text` made terminal-safe line by line, its line breaks and tabs kept (the CLI's last guard on every human-readable line). */
export function terminalBlock(text: string): string {
	return terminalLines(text).join("\n");
}
