// A small non-cryptographic hash for names and ids derived from content: the same input gives the
// same output on every device and in every runtime (no Node crypto, no Web Crypto, which is async).
// Four 32-bit FNV-1a lanes with distinct seeds, each finished with an avalanche step.

const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];

/** MurmurHash3's finaliser: every input bit changes about half the output bits. */
export function avalanche(h: number): number {
	let x = h;
	x ^= x >>> 16;
	x = Math.imul(x, 0x85ebca6b);
	x ^= x >>> 13;
	x = Math.imul(x, 0xc2b2ae35);
	x ^= x >>> 16;
	return x >>> 0;
}

/** 128 bits of hash as four unsigned 32-bit numbers. */
export function hash128(text: string): [number, number, number, number] {
	const lanes = SEEDS.map((seed, lane) => {
		let h = seed ^ Math.imul(lane + 1, 0x27d4eb2d);
		for (let i = 0; i < text.length; i++) {
			h ^= text.charCodeAt(i);
			h = Math.imul(h, 0x01000193 + lane * 2);
		}
		h ^= text.length;
		return avalanche(h);
	});
	return [lanes[0], (lanes[1] ^ lanes[0]) >>> 0, (lanes[2] ^ lanes[1]) >>> 0, (lanes[3] ^ lanes[2]) >>> 0] as [number, number, number, number];
}

const hex8 = (n: number): string => n.toString(16).padStart(8, "0");

/** `length` hex digits of the hash of `text` (at most 32). */
export function shortHash(text: string, length = 12): string {
	return hash128(text).map(hex8).join("").slice(0, length);
}

/**
 * A UUID in the version 4 layout derived from `text`: the id the router gives a note that has none,
 * so that routing the same note again (after a crash) gives it the same id.
 */
export function uuidFromText(text: string): string {
	const h = hash128(text).map(hex8).join("");
	const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
