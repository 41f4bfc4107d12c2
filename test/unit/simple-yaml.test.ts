import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseYamlSafe } from "../../src/core/frontmatter";
import { parseSimpleYaml } from "../../src/core/simple-yaml";

// The fast frontmatter reader promises: either exactly what the yaml library reads, or null (then the
// library reads the block). These tests hold it to that on the values agents actually write.

const RUNS = Number(process.env.A2A_PROPERTY_RUNS ?? 600);

/** Spaces YAML treats as content, which JavaScript's trim() would strip. */
const UNICODE_SPACES = ["\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u202f", "\u205f", "\u3000", "\ufeff"];

/** What the router reads when the fast reader steps aside. */
function library(yaml: string): unknown {
	return parseYamlSafe(yaml) ?? {};
}

describe("parseSimpleYaml", () => {
	it("reads a value of one Unicode space as that space, never as null (no-break, ideographic, BOM)", () => {
		for (const space of UNICODE_SPACES) {
			for (const yaml of [`a: "42"\nstatus: ${space}\n`, `tags:\n  - ${space}\n`]) {
				const fast = parseSimpleYaml(yaml);
				const named = `${JSON.stringify(yaml)} (U+${space.codePointAt(0)?.toString(16)})`;
				if (fast !== null) expect(JSON.stringify(fast), named).toBe(JSON.stringify(library(yaml)));
				expect(JSON.stringify(fast ?? library(yaml)), named).toContain(JSON.stringify(space));
			}
		}
	});

	it("leaves a key the core schema reads as null or a boolean (null:, True:, FALSE:) to the library", () => {
		for (const key of ["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"]) {
			const yaml = `${key}: 1\nname: x\n`;
			expect(parseSimpleYaml(yaml), yaml).toBeNull();
			expect(Object.keys(library(yaml) as object)).toEqual([key.toLowerCase() === "null" ? "" : key.toLowerCase(), "name"]);
		}
		expect(parseSimpleYaml("nullable: 1\n")).toEqual({ nullable: 1 });
	});

	it("reads an empty value (spaces and tabs only) as null, as the library does", () => {
		expect(parseSimpleYaml("status:   \nname: x\n")).toEqual({ status: null, name: "x" });
		expect(library("status:   \nname: x\n")).toEqual({ status: null, name: "x" });
	});

	it("returns the library's reading or null for any block of key lines and list items", () => {
		const piece = fc.oneof(
			fc.constantFrom("", " ", "42", "-7", "3.5", "1e3", "0x1F", "true", "True", "null", "~", "#x", "a #b", "a: b", "'q'", '"q"', '"a\\"b"', "- x", "x y", "@at", "(p)"),
			fc.constantFrom(...UNICODE_SPACES),
			fc.string({ unit: "grapheme", maxLength: 6 }),
		);
		const value = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""));
		const line = fc.oneof(
			fc.tuple(fc.stringMatching(/^[a-z][a-z_]{0,5}$/), value).map(([key, v]) => `${key}: ${v}`),
			value.map((v) => `  - ${v}`),
			fc.constantFrom("# comment", "", "list:"),
		);
		fc.assert(
			fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
				const yaml = `${lines.join("\n")}\n`;
				const fast = parseSimpleYaml(yaml);
				if (fast === null) return;
				let expected: unknown;
				try {
					expected = library(yaml);
				} catch {
					throw new Error(`the fast reader accepted a block the library refuses: ${JSON.stringify(yaml)}`);
				}
				expect(JSON.stringify(fast)).toBe(JSON.stringify(expected));
			}),
			{ numRuns: RUNS },
		);
	});
});
