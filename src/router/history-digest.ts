import { avalanche } from "../core/hash";
import type { FileFacts, FileInfo } from "./vault-port";

// Two summaries that let a start on a long history skip most of its copy (src/router/history-parts.ts):
//
// - A folder's digest: of the name, size, mtime, identity and ctime of every file listed in it, in
//   any order. Two listings with the same digest are the same listing, unless hashes collide (see
//   FolderDigest): a note renamed, added, removed or written again (a new mtime or size) changes it.
// - A key filter (a Bloom filter): says of a text whether a set may hold it. "No" is certain; "may"
//   is wrong for about one text in 2,000 that is not in the set (one in a hundred for a filter
//   written before filters carried their probe count, until its part is saved again).

/** FNV-1a over UTF-16 code units, from `basis`: 32 bits. */
export function textHash(text: string, basis: number): number {
	let h = basis;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/** The low 32 bits of a number's integer part (up to 2^53). */
const lowBits = (n: number) => Math.floor(n) >>> 0;
/** The high bits of a number's integer part (up to 2^53). */
const highBits = (n: number) => Math.floor(n / 4294967296) | 0;

/**
 * Accumulates a folder's digest, one file at a time in any order: each file's name and facts are
 * hashed into 32 bits, and the digest is the count of files and two sums of those hashes (the
 * second of each hash spread again), so that two listings of 100,000 files that differ in any file
 * differ in the digest unless 64 bits collide, or a file's hash does: one chance in 2^32 for a
 * file renamed, or replaced by another, with the same size and mtime. A start hashes every history
 * file's name and facts (src/router/history-from-copy.ts readFor): one multiplication per character
 * and four spreads per file.
 */
export class FolderDigest {
	private count = 0;
	private low = 0;
	private high = 0;

	/** Adds the file named by `text` from `from` on (a path, past its folder's prefix: no string is made per file). */
	add(text: string, info: FileFacts, from = 0): void {
		let h = 0x811c9dc5;
		for (let i = from; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
		// Spread before the mtime joins it, so that a name's hash and an mtime cannot cancel each other.
		h = avalanche(avalanche(h) ^ lowBits(info.mtime));
		h = avalanche(h ^ highBits(info.mtime) ^ Math.imul(lowBits(info.size), 0x9e3779b1));
		// Facts the plugin's adapter does not tell (Obsidian keeps no ctime or identity per file) cost nothing.
		if (info.changed !== undefined || info.id !== undefined || highBits(info.size) !== 0) {
			const id = info.id === undefined ? 0 : textHash(info.id, 0x811c9dc5);
			const changed = info.changed === undefined ? 0x7f4a7c15 : avalanche(lowBits(info.changed) ^ avalanche(highBits(info.changed)));
			h = avalanche(h ^ avalanche(id ^ changed ^ highBits(info.size)));
		}
		this.low = (this.low + h) >>> 0;
		this.high = (this.high + avalanche(h ^ 0x27d4eb2f)) >>> 0;
		this.count++;
	}

	value(): string {
		return `${this.count}.${this.low.toString(36)}.${this.high.toString(36)}`;
	}
}

/** The digest of a folder's listing (its files' paths all start with `folder/`). */
export function listingDigest(folder: string, infos: readonly FileInfo[]): string {
	const digest = new FolderDigest();
	const skip = folder.length + 1;
	for (const info of infos) digest.add(info.path, info, skip);
	return digest.value();
}

/** The same digest of a folder's listing, as an adapter visits its files by name (`eachFileIn`). */
export function visitedDigest(each: (visit: (name: string, facts: FileFacts) => void) => void): string {
	const digest = new FolderDigest();
	each((name, facts) => digest.add(name, facts));
	return digest.value();
}

/** Bits per key and probes per key: about one false "may" in 2,000 (a start probes every folder's filter with a few keys). */
const BITS_PER_KEY = 16;
const HASHES = 11;

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** The six bits each base64 character stands for; NOT_BASE64 for a character that is none ("=", padding, stands for 0). */
const NOT_BASE64 = 255;
const SEXTETS = new Uint8Array(128).fill(NOT_BASE64);
for (let i = 0; i < BASE64.length; i++) SEXTETS[BASE64.charCodeAt(i)] = i;
SEXTETS["=".charCodeAt(0)] = 0;

/**
 * A Bloom filter of texts (the keys of a folder's notes), written as its probe count, a dot and its
 * bits in base64. One decoded from its text reads its bits in that text as keys are looked up (a
 * start looks up a few keys in filters of 100,000): a byte written in characters that are not
 * base64 reads as all ones, so that characters damaged into others answer "may", not a wrong "no".
 */
export class KeyFilter {
	/** `bits`, or (null) the `bytes` bytes written in base64 in `text` from `from` on. */
	private constructor(
		private readonly hashes: number,
		private readonly bits: Uint8Array | null,
		private readonly text: string,
		private readonly from: number,
		private readonly bytes: number,
	) {}

	/** An empty filter sized for `keys` texts. */
	static sized(keys: number): KeyFilter {
		const bits = new Uint8Array(Math.max(8, Math.ceil((keys * BITS_PER_KEY) / 8)));
		return new KeyFilter(HASHES, bits, "", 0, bits.length);
	}

	/** Whether a filter's text is of the form written before filters carried their probe count. */
	static isLegacy(text: string): boolean {
		return !text.includes(".");
	}

	/** A filter as `encode` wrote it; null when the text is not one. */
	static decode(text: string): KeyFilter | null {
		const dot = text.indexOf(".");
		// A filter written before its probe count was (no dot: base64 has none) was probed seven times per key.
		const hashes = KeyFilter.isLegacy(text) ? 7 : Number(text.slice(0, dot));
		const from = dot + 1;
		const length = text.length - from;
		if (dot === 0 || dot > 2 || !Number.isInteger(hashes) || hashes < 1 || length === 0 || length % 4 !== 0) return null;
		// Padding ends the text: one "=" or two.
		const pad = text.indexOf("=", from);
		if (pad >= 0 && pad < text.length - 2) return null;
		const padding = pad < 0 ? 0 : text.length - pad;
		if (padding === 2 && text[text.length - 1] !== "=") return null;
		return new KeyFilter(hashes, null, text, from, (length / 4) * 3 - padding);
	}

	/** Adds a key to a filter made by `sized`. */
	add(key: string): void {
		const bits = this.bits;
		if (!bits) throw new Error("a decoded key filter is read only");
		this.probe(key, (byte, bit) => {
			bits[byte] |= bit;
			return true;
		});
	}

	/** False when the set certainly does not hold `key`. */
	mayHold(key: string): boolean {
		return this.probe(key, (byte, bit) => (this.byteAt(byte) & bit) !== 0);
	}

	encode(): string {
		const bits = this.bits;
		if (!bits) return this.text;
		let binary = "";
		for (let i = 0; i < bits.length; i += 0x8000) binary += String.fromCharCode(...bits.subarray(i, i + 0x8000));
		return `${this.hashes}.${btoa(binary)}`;
	}

	private byteAt(i: number): number {
		if (this.bits) return this.bits[i];
		// Byte i is one of the three that the four characters from 4 * floor(i / 3) on stand for.
		const t = this.text;
		const at = this.from + Math.floor(i / 3) * 4;
		const sextet = (k: number) => {
			const code = t.charCodeAt(at + k);
			return code < 128 ? SEXTETS[code] : NOT_BASE64;
		};
		const s0 = sextet(0);
		const s1 = sextet(1);
		const s2 = sextet(2);
		const s3 = sextet(3);
		if (s0 === NOT_BASE64 || s1 === NOT_BASE64 || s2 === NOT_BASE64 || s3 === NOT_BASE64) return 255;
		const group = (s0 << 18) | (s1 << 12) | (s2 << 6) | s3;
		return (group >>> (16 - 8 * (i % 3))) & 255;
	}

	/** Visits the key's bits, one per probe (double hashing); stops, false, at the first `visit` that says false. */
	private probe(key: string, visit: (byte: number, bit: number) => boolean): boolean {
		const size = this.bytes * 8;
		const a = textHash(key, 0x811c9dc5);
		const b = avalanche(textHash(key, 0x050c5d1f)) | 1;
		for (let i = 0; i < this.hashes; i++) {
			const at = ((a + Math.imul(i, b)) >>> 0) % size;
			if (!visit(at >>> 3, 1 << (at & 7))) return false;
		}
		return true;
	}
}
