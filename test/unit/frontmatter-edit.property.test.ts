import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml, splitNote, stringifyYaml, updateFrontmatterText } from "../../src/core/frontmatter";
import { isPlainSafe } from "../../src/core/frontmatter-lines";

// updateFrontmatterText takes a quick line-level way for simple frontmatter and the careful way
// through the YAML document otherwise: both must give exactly the fields the edit asked for, keep
// the body byte for byte, and keep untouched lines as they were.

const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/);
const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const value = fc.oneof(scalar, fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }), fc.dictionary(key, scalar, { maxKeys: 3 }));
const fields = fc.dictionary(key, value, { maxKeys: 8 });

/** The same fields written three ways: the library's output, PyYAML's block lists at column 0, and with comments. */
function writeStyles(data: Record<string, unknown>): string[] {
	const plain = stringifyYaml(data);
	const pyStyle = plain.replace(/^ {2}- /gm, "- ");
	const commented = `# written by an agent\n${plain}# trailing comment\n`;
	return Object.keys(data).length === 0 ? [""] : [plain, pyStyle, commented];
}

describe("updateFrontmatterText", () => {
	it("gives exactly the edited fields and keeps the body, for every way of writing the block", () => {
		fc.assert(
			fc.property(fields, fc.dictionary(key, fc.option(value, { nil: undefined }), { maxKeys: 5 }), fc.string({ maxLength: 40 }), (data, changes, bodyText) => {
				for (const yaml of writeStyles(data)) {
					let readable: Record<string, unknown>;
					try {
						readable = parseFrontmatterYaml(yaml);
					} catch {
						continue; // a style the YAML reader refuses is no input for this property
					}
					const body = `\n${bodyText}\n`;
					const note = `---\n${yaml}---\n${body}`;
					const expected = structuredClone(readable);
					const result = updateFrontmatterText(note, (fm) => {
						for (const [k, v] of Object.entries(changes)) {
							if (v === undefined) delete fm[k];
							else fm[k] = structuredClone(v);
						}
					});
					for (const [k, v] of Object.entries(changes)) {
						if (v === undefined) delete expected[k];
						else expected[k] = v;
					}
					const split = splitNote(result);
					expect(split.body).toBe(body);
					expect(parseFrontmatterYaml(split.yaml)).toEqual(expected);
					for (const line of yaml.split("\n")) {
						const field = /^([a-z_][a-z0-9_]*):/.exec(line)?.[1];
						if (field && !(field in changes)) expect(split.yaml).toContain(line);
					}
				}
			}),
			// -0 must come back as -0, not as the 0 a template literal writes: always tried.
			{ numRuns: 400, examples: [[{}, { a: -0 }, ""]] },
		);
	}, 60_000);

	it("writes a string without quotes exactly when the YAML library would, and it reads back the same", () => {
		const plainish = fc.stringMatching(/^[-+.0-9A-Za-z_:/@ ]{1,24}$/);
		const samples = fc.oneof(plainish, fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.uuid(), fc.constantFrom("1e5", "0x1F", "0o17", ".5", "-3", "+1", ".inf", ".NaN", "1_000", "12:30", "10-backend-group", "yes", "null"));
		fc.assert(
			fc.property(samples, (text) => {
				const written = stringifyYaml({ k: text });
				if (isPlainSafe(text)) expect(written).toBe(`k: ${text}\n`);
				expect(parseFrontmatterYaml(written)).toEqual({ k: text });
			}),
			{ numRuns: 2000 },
		);
	});
});
