import { readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

// The rule of docs/architecture.md: a file of the project's own code (src/, cli/, servers/, node/)
// is at most 300 lines, and one that is longer is named, with its reason, in the README's
// "Development" section. Both ways: a long file the README does not name fails, and so does a file
// the README names as long that no longer is.

const ROOT = path.resolve(__dirname, "../..");
const LIMIT = 300;

function sourceFiles(folder: string): string[] {
	return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
		.filter((name) => name.endsWith(".ts"))
		.map((name) => `${folder}/${name.split(path.sep).join("/")}`);
}

/** Lines as `wc -l` counts them, and the last one also when no newline ends it. */
const lines = (file: string) => {
	const text = readFileSync(path.join(ROOT, file), "utf8");
	return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
};

/** The files of our own code the README's sentence on long files names, each with the line count it gives. */
function namedInReadme(): Map<string, number> {
	const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
	const start = readme.indexOf(`is at most ${LIMIT} lines but`);
	expect(start, "the README's Development section says which files are over the limit").toBeGreaterThan(0);
	const sentence = readme.slice(start, readme.indexOf("\n- ", start));
	const named = new Map<string, number>();
	for (const match of sentence.matchAll(/`((?:src|cli|servers|node)\/[^`]+\.ts)`\s*\((\d+)/g)) named.set(match[1], Number(match[2]));
	return named;
}

describe("file lengths", () => {
	it(`keeps every file of src/, cli/, servers/ and node/ at most ${LIMIT} lines, or names it in the README with its length`, () => {
		const long = new Map<string, number>();
		for (const file of ["src", "cli", "servers", "node"].flatMap(sourceFiles)) {
			const count = lines(file);
			if (count > LIMIT) long.set(file, count);
		}
		const named = namedInReadme();
		expect([...long.keys()].sort(), JSON.stringify(Object.fromEntries(long))).toEqual([...named.keys()].sort());
		// The README's own figure may lag a few lines behind the file, but it says the file is long.
		for (const [file, count] of named) expect(count, file).toBeGreaterThan(LIMIT);
	});
});
