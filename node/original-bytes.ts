import type { ReadFile } from "../src/router/vault-port";

// A note that is not valid UTF-8 (a note saved as Latin-1, stray bytes) reads with U+FFFD in place of
// its undecodable bytes. The router edits such a note as text; writing that text back as UTF-8 would
// change those bytes for good. Every line the edit left as it was is therefore written with its
// original bytes: the lines before the first change and after the last one exactly, and the lines
// between them where they still match, in order.

const NEWLINE = 0x0a;

function splitBytes(bytes: Buffer): Buffer[] {
	const lines: Buffer[] = [];
	let start = 0;
	for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, start)) {
		lines.push(bytes.subarray(start, i));
		start = i + 1;
	}
	lines.push(bytes.subarray(start));
	return lines;
}

/** `text` as bytes, with the original bytes of every line it shares with `basis` (when basis kept them). */
export function keepOriginalBytes(text: string, basis: ReadFile | undefined): string | Buffer {
	const original = basis?.basis;
	if (!basis || !Buffer.isBuffer(original)) return text;
	const oldLines = basis.text.split("\n");
	const oldBytes = splitBytes(original);
	// A newline byte is never part of a multi-byte sequence, so decoded lines and byte lines correspond.
	if (oldLines.length !== oldBytes.length) return text;
	const newLines = text.split("\n");
	let head = 0;
	while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
	let tail = 0;
	while (tail < oldLines.length - head && tail < newLines.length - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
	const out: Buffer[] = oldBytes.slice(0, head);
	let i = head;
	for (let j = head; j < newLines.length - tail; j++) {
		const match = oldLines.indexOf(newLines[j], i);
		if (match >= 0 && match < oldLines.length - tail) {
			out.push(oldBytes[match]);
			i = match + 1;
		} else out.push(Buffer.from(newLines[j], "utf8"));
	}
	out.push(...oldBytes.slice(oldBytes.length - tail));
	const joined: Buffer[] = [];
	out.forEach((line, k) => {
		if (k > 0) joined.push(Buffer.from([NEWLINE]));
		joined.push(line);
	});
	return Buffer.concat(joined);
}
