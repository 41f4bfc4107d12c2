import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hash128, shortHash, uuidFromText } from "../../src/core/hash";
import { isUuidShaped } from "../../src/core/ids";

describe("content hashes", () => {
	it("are four unsigned 32-bit numbers, the same for the same text and different for different texts", () => {
		fc.assert(
			fc.property(fc.string(), fc.string(), (a, b) => {
				const h = hash128(a);
				expect(h.every((n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32)).toBe(true);
				expect(hash128(a)).toEqual(h);
				if (a !== b) expect(shortHash(a, 32)).not.toBe(shortHash(b, 32));
			}),
			{ numRuns: 500 },
		);
	});

	it("make version-4-shaped UUIDs and hex names", () => {
		fc.assert(
			fc.property(fc.string(), (text) => {
				const id = uuidFromText(text);
				expect(isUuidShaped(id)).toBe(true);
				expect(id[14]).toBe("4");
				expect("89ab").toContain(id[19]);
				expect(shortHash(text, 10)).toMatch(/^[0-9a-f]{10}$/);
			}),
			{ numRuns: 500 },
		);
	});
});
