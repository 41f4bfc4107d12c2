import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Document } from "yaml";
import { parseFrontmatterYaml, stringifyWithLibrary, stringifyYaml } from "../../src/core/frontmatter";
import { writeTopLevelFields } from "../../src/core/frontmatter-lines";
import { serialiseMessage } from "../../src/core/message-serialise";
import { buildRequest } from "../../src/core/compose";

// stringifyYaml writes a mapping of plain fields itself (writeTopLevelFields) and everything else
// with the YAML library: its text must be exactly the library's, for every mapping.

const keyWords = fc.constantFrom("true", "false", "null", "yes", "no", "on", "off", "y", "n", "Y", "N", "NaN", "inf", "e5", "_", "__proto__", "a-b", "x1", "0x1F", "12", "-a", "a b", "a:b", "#c", "ключ");
const key = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,11}$/), keyWords, fc.string({ maxLength: 6 }));
const plainish = fc.stringMatching(/^[-+.0-9A-Za-z_:/@ ]{1,24}$/);
const text = fc.oneof(
	plainish,
	fc.string({ maxLength: 30 }),
	fc.string({ unit: "grapheme", maxLength: 12 }),
	fc.uuid(),
	fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
	fc.constantFrom("", " ", "a ", " a", "a\nb", "\n", " \nx", "\t\nx", "a: b", "a #b", "- a", "'q'", '"q"', "yes", "null", "~", "1e5", "0o17", ".inf", "-0", "10-backend-group", "a2a-gateway", "2026-12-01", "12:30", "1_000", "@x", "`x", "%x", "!x", "&x", "*x", "[x]", "{x}", "x,y", "a|b", ">x"),
);
const scalar = fc.oneof(text, fc.integer(), fc.constantFrom(-0, 0, Number.MAX_SAFE_INTEGER + 2, 1e21, -1e-7, 0.1), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.oneof(scalar, fc.array(text, { maxLength: 4 }), fc.array(scalar, { maxLength: 3 }), fc.dictionary(key, scalar, { maxKeys: 3 }), fc.constant(undefined));
const mapping = fc.dictionary(key, value, { maxKeys: 10 });

describe("stringifyYaml: the quick way gives the YAML library's text", () => {
	it("for every mapping, byte for byte, and it reads back as what was written", () => {
		fc.assert(
			fc.property(mapping, (data) => {
				const written = stringifyYaml(data);
				expect(written).toBe(stringifyWithLibrary(data));
				if (written !== "{}\n") {
					const defined = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
					expect(JSON.stringify(parseFrontmatterYaml(written))).toBe(JSON.stringify(JSON.parse(JSON.stringify(defined))));
				}
			}),
			{ numRuns: 3000, examples: [[{ a: -0 }], [{ true: 1 }], [{ __proto__x: "y" }], [{ k: [] }], [{ k: {} }], [{ k: [""] }], [{ k: "" }]] },
		);
	}, 60_000);

	it("a gateway request note's fields take the quick way: the library writes nothing", () => {
		const request = buildRequest({ from: "a2a-gateway", to: "10-backend-group", type: "query", question: "what?", timeoutSeconds: 30, traceId: "0b7c1a52-3c55-4b4e-9d2f-6f1f5b8c2d11", hopCount: 0 }, Date.UTC(2026, 11, 3, 18, 0, 0));
		request.envelope.message_id = "5f0e8a5e-7c1d-4f58-a2a1-3c1b8d0e9f42";
		const writes = countLibraryWrites(() => serialiseMessage(request));
		expect(writes).toBe(0);
		const fields = { message_id: request.envelope.message_id, hop_count: 0, route: ["a2a-gateway"], late: true };
		expect(writeTopLevelFields(fields, () => "unused")).toBe(stringifyWithLibrary(fields));
	});
});

/** How many documents the YAML library writes while `run` runs. */
function countLibraryWrites(run: () => unknown): number {
	const proto = Document.prototype as unknown as { toString: (...a: unknown[]) => string };
	const original = proto.toString;
	let count = 0;
	proto.toString = function (this: Document, ...args: unknown[]) {
		count++;
		return original.apply(this, args);
	};
	try {
		run();
	} finally {
		proto.toString = original;
	}
	return count;
}
