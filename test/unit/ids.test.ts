import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAcceptableMessageId, isUuidShaped, newId, shortId } from "../../src/core/ids";
import { basename, dirname, extension, isInside, joinPath, normalizeVaultPath, safeFileSegment, safeRelativeFolder, stem } from "../../src/core/paths";
import { anyUnicodeString } from "./helpers";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("ids", () => {
	it("makes new ids that are version 4 UUIDs, each different", () => {
		const ids = Array.from({ length: 200 }, () => newId());
		for (const id of ids) {
			expect(id).toMatch(V4);
			expect(isUuidShaped(id)).toBe(true);
		}
		expect(new Set(ids).size).toBe(ids.length);
	});

	it("accepts any UUID shape and nothing else", () => {
		expect(isUuidShaped("6fa459ea-ee8a-11ca-8ba9-0242ac130003")).toBe(true);
		expect(isUuidShaped("A1B2C3D4-E5F6-7890-ABCD-EF1234567890")).toBe(true);
		expect(isUuidShaped("a1b2c3d4-e5f6-7890-abcd-ef1234567890\n")).toBe(false);
		expect(isUuidShaped("a1b2c3d4e5f67890abcdef1234567890")).toBe(false);
		expect(isUuidShaped(42)).toBe(false);
		expect(isUuidShaped(undefined)).toBe(false);
	});

	it("accepts printable message ids of 1 to 128 characters without edge whitespace", () => {
		expect(isAcceptableMessageId("msg-1")).toBe(true);
		expect(isAcceptableMessageId("réponse 😀")).toBe(true);
		expect(isAcceptableMessageId("")).toBe(false);
		expect(isAcceptableMessageId("x".repeat(129))).toBe(false);
		expect(isAcceptableMessageId("a\u0000b")).toBe(false);
		expect(isAcceptableMessageId(" a")).toBe(false);
		expect(isAcceptableMessageId(12)).toBe(false);
	});

	it("shortens ids to eight letters and digits", () => {
		expect(shortId("a1b2c3d4-e5f6-7890-abcd-ef1234567890")).toBe("a1b2c3d4");
		expect(shortId("---")).toBe("id");
	});
});

describe("safeFileSegment", () => {
	it("never produces a separator, a leading dot, a control or reserved character, or an empty name", { timeout: 60_000 }, () => {
		fc.assert(
			fc.property(fc.oneof(anyUnicodeString(120), fc.constantFrom("../../etc/passwd", "..", ".", "C:\\x", "/abs", "a/b\\c", ". .hidden", "\u0000", "[[x]]|#^")), (raw) => {
				const segment = safeFileSegment(raw);
				expect(segment.length).toBeGreaterThan(0);
				expect(segment).not.toMatch(/[/\\]/);
				expect(segment.startsWith(".")).toBe(false);
				expect(segment).not.toMatch(/[\u0000-\u001f\u007f<>:"|?*#^[\]]/);
				expect(segment).not.toMatch(/[.\s]$/);
				expect(segment.length).toBeLessThanOrEqual(80);
				expect(segment).not.toBe("..");
			}),
			{ numRuns: 1000 },
		);
	});

	it("keeps ordinary ids readable", () => {
		expect(safeFileSegment("a1b2c3d4-e5f6-7890-abcd-ef1234567890")).toBe("a1b2c3d4-e5f6-7890-abcd-ef1234567890");
		expect(safeFileSegment("../../etc/passwd")).toBe("etc-passwd");
		expect(safeFileSegment("...")).toBe("message");
		expect(safeFileSegment("", "fallback")).toBe("fallback");
	});
});

describe("vault paths", () => {
	it("normalises like Obsidian's normalizePath", () => {
		expect(normalizeVaultPath("/a\\\\b//c/")).toBe("a/b/c");
		expect(normalizeVaultPath("a\u00A0b")).toBe("a b");
		expect(normalizeVaultPath("e\u0301")).toBe("\u00e9");
		expect(normalizeVaultPath("")).toBe("/");
		expect(joinPath("A2A", "", "/", "groups", "g")).toBe("A2A/groups/g");
	});

	it("splits names", () => {
		expect(basename("a/b/c.md")).toBe("c.md");
		expect(dirname("a/b/c.md")).toBe("a/b");
		expect(dirname("c.md")).toBe("");
		expect(extension("a/b/C.MD")).toBe("md");
		expect(extension("a/.hidden")).toBe("");
		expect(stem("a/b/c.tar.gz")).toBe("c.tar");
		expect(stem("a/.hidden")).toBe(".hidden");
	});

	it("knows what is inside a folder without being fooled by name prefixes", () => {
		expect(isInside("A2A/x", "A2A")).toBe(true);
		expect(isInside("A2A", "A2A")).toBe(true);
		expect(isInside("A2A2/x", "A2A")).toBe(false);
	});

	it("accepts only relative folders that cannot escape", () => {
		expect(safeRelativeFolder(" skills/10-backend/ ")).toBe("skills/10-backend");
		for (const bad of ["../x", "/abs", "\\abs", ".hidden/x", "x/./y", "C:\\x", "c:x", "a/../b", "", " ", "a\u0000b", "a/ /b"]) {
			expect(safeRelativeFolder(bad)).toBeNull();
		}
	});
});
