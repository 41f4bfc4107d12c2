import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROPERTY_TYPES, mergePropertyTypes } from "../../src/core/property-types";

// The property types init writes into Obsidian's types.json: the README's Properties table, type
// for type, and the merge that adds only what is missing.

/** The README's words for Obsidian's types. */
const README_TYPES: Record<string, string> = { Text: "text", Number: "number", "Date & time": "datetime", Checkbox: "checkbox", List: "multitext" };

function readmeTable(): Record<string, string> {
	const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
	const section = readme.slice(readme.indexOf("### Properties"));
	const table: Record<string, string> = {};
	for (const line of section.split("\n").filter((l) => /^\| `/.test(l))) {
		const [names, type] = line.split("|").slice(1, 3).map((c) => c.trim());
		for (const name of names.match(/`[a-z_]+`/g) ?? []) {
			const key = name.slice(1, -1);
			expect(table[key] === undefined || table[key] === README_TYPES[type], `${key} has two types in the README`).toBe(true);
			table[key] = README_TYPES[type];
		}
	}
	return table;
}

describe("the property types", () => {
	it("are the README's Properties table, name for name and type for type", () => {
		const table = readmeTable();
		expect(Object.keys(table).length).toBeGreaterThan(30);
		expect(Object.values(table).every(Boolean), "a type the README names that Obsidian has no name for").toBe(true);
		expect({ ...PROPERTY_TYPES }).toEqual(table);
	});

	it("make a new types.json when there is none", () => {
		const merged = mergePropertyTypes(null);
		expect(merged).toMatchObject({ ok: true, added: Object.keys(PROPERTY_TYPES) });
		expect(merged.ok && JSON.parse(merged.text)).toEqual({ types: PROPERTY_TYPES });
	});

	it("add only the names the file lacks (in any case), and keep every other key", () => {
		const existing = JSON.stringify({ types: { STATE: "multitext", tags: "tags" }, future: [1] });
		const merged = mergePropertyTypes(existing, { state: "text", hop_count: "number" });
		expect(merged).toMatchObject({ ok: true, added: ["hop_count"] });
		expect(merged.ok && JSON.parse(merged.text)).toEqual({ types: { STATE: "multitext", tags: "tags", hop_count: "number" }, future: [1] });
		expect(mergePropertyTypes(merged.ok ? merged.text : "", { state: "text", hop_count: "number" })).toMatchObject({ ok: true, added: [] });
	});

	it("leave a file alone that is not the JSON object Obsidian writes", () => {
		for (const text of ["{ half", "[]", "null", '{"types": []}', '{"types": "text"}']) expect(mergePropertyTypes(text).ok, text).toBe(false);
		expect(mergePropertyTypes("")).toMatchObject({ ok: true });
	});
});
