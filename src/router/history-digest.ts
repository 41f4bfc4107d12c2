import type { FileInfo } from "./vault-port";

// Two summaries that let a start on a long history skip most of its copy (src/router/history-parts.ts):
//
// - A folder's digest: of the name, size, mtime, identity and ctime of every file listed in it, in
//   any order. Two listings with the same digest are the same listing, unless 64 bits of hash
//   collide: a note renamed, added, removed or written again (a new mtime or size) changes it.
// - A key filter (a Bloom filter): says of a text whether a set may hold it. "No" is certain; "may"
//   is wrong for about one text in a hundred that is not in the set.

/** FNV-1a over UTF-16 code units, from `basis`: 32 bits. */
export function textHash(text: string, basis: number): number {
	let h = basis;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/** MurmurHash3's finaliser: spreads every bit of `h` over all 32. */
function mix(h: number): number {
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

/** A number's integer part (up to 2^53) hashed into 32 bits: its low and high words both mixed in. */
function fold(n: number | undefined): number {
	if (n === undefined) return 0x9e3779b9;
	return mix((n | 0) ^ mix(Math.floor(n / 4294967296) + 0x7f4a7c15));
}

/** Accumulates a folder's digest, one file at a time in any order. */
export class FolderDigest {
	private count = 0;
	private low = 0;
	private high = 0;

	/** Adds the file named by `text` from `from` on (a path, past its folder's prefix: no string is made per file). */
	add(text: string, info: Pick<FileInfo, "size" | "mtime" | "id" | "changed">, from = 0): void {
		let a = 0x811c9dc5;
		let b = 0x050c5d1f;
		for (let i = from; i < text.length; i++) {
			const c = text.charCodeAt(i);
			a = Math.imul(a ^ c, 0x01000193);
			b = Math.imul(b ^ c, 0x01000193);
		}
		const facts = mix(fold(info.size) ^ mix(fold(info.mtime) ^ mix(fold(info.changed) ^ (info.id === undefined ? 0 : textHash(info.id, 0x811c9dc5)))));
		this.low = (this.low + mix(a ^ facts)) >>> 0;
		this.high = (this.high + mix(b ^ Math.imul(facts, 0x27d4eb2f))) >>> 0;
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

/** Bits per key: about one false "may" in a hundred with HASHES probes. */
const BITS_PER_KEY = 10;
const HASHES = 7;

/** A Bloom filter of texts (the keys of a folder's notes). */
export class KeyFilter {
	private constructor(private readonly bits: Uint8Array) {}

	/** An empty filter sized for `keys` texts. */
	static sized(keys: number): KeyFilter {
		return new KeyFilter(new Uint8Array(Math.max(8, Math.ceil((keys * BITS_PER_KEY) / 8))));
	}

	/** A filter as `encode` wrote it; null when the text is not one. */
	static decode(text: string): KeyFilter | null {
		try {
			const binary = atob(text);
			if (binary.length === 0) return null;
			const bits = new Uint8Array(binary.length);
			for (let i = 0; i < binary.length; i++) bits[i] = binary.charCodeAt(i);
			return new KeyFilter(bits);
		} catch {
			return null;
		}
	}

	add(key: string): void {
		this.probe(key, (byte, bit) => {
			this.bits[byte] |= bit;
			return true;
		});
	}

	/** False when the set certainly does not hold `key`. */
	mayHold(key: string): boolean {
		return this.probe(key, (byte, bit) => (this.bits[byte] & bit) !== 0);
	}

	encode(): string {
		let binary = "";
		for (let i = 0; i < this.bits.length; i += 0x8000) binary += String.fromCharCode(...this.bits.subarray(i, i + 0x8000));
		return btoa(binary);
	}

	/** Visits the key's HASHES bits (double hashing); stops, false, at the first `visit` that says false. */
	private probe(key: string, visit: (byte: number, bit: number) => boolean): boolean {
		const size = this.bits.length * 8;
		const a = textHash(key, 0x811c9dc5);
		const b = mix(textHash(key, 0x050c5d1f)) | 1;
		for (let i = 0; i < HASHES; i++) {
			const at = ((a + Math.imul(i, b)) >>> 0) % size;
			if (!visit(at >>> 3, 1 << (at & 7))) return false;
		}
		return true;
	}
}
