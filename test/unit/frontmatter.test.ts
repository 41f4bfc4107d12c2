import { describe, expect, it } from "vitest";
import { fitsInBody, headingToKey, keyToHeading, parseBodySections, renderBodySections } from "../../src/core/body";
import { buildNote, parseFrontmatterYaml, parseYamlSafe, readFrontmatter, splitNote, stringifyYaml, updateFrontmatterText } from "../../src/core/frontmatter";

// Splitting notes, reading YAML safely, writing it so that it reads back exactly, and the body's
// `## Heading` sections.

describe("splitNote", () => {
	it("splits the frontmatter from the body, keeping the body byte for byte", () => {
		const split = splitNote("---\na: 1\n---\n\n# Body\n---\nnot a fence\n");
		expect(split).toMatchObject({ hasFrontmatter: true, unterminated: false, yaml: "a: 1\n", body: "\n# Body\n---\nnot a fence\n", head: "---\na: 1\n---\n", bom: "", eol: "\n" });
	});

	it("recognises CRLF notes and a byte order mark", () => {
		const split = splitNote("\uFEFF---\r\na: 1\r\n---\r\nbody\r\n");
		expect(split).toMatchObject({ hasFrontmatter: true, bom: "\uFEFF", eol: "\r\n", body: "body\r\n", head: "---\r\na: 1\r\n---\r\n" });
		expect(parseFrontmatterYaml(split.yaml)).toEqual({ a: 1 });
	});

	it("accepts fences with trailing spaces and a closing fence at the very end", () => {
		expect(splitNote("---  \na: 1\n--- ")).toMatchObject({ hasFrontmatter: true, yaml: "a: 1\n", body: "" });
	});

	it("treats a note that does not start with --- as having no frontmatter", () => {
		expect(splitNote("text\n---\na: 1\n---\n")).toMatchObject({ hasFrontmatter: false, unterminated: false, body: "text\n---\na: 1\n---\n" });
		expect(splitNote(" ---\na: 1\n---\n").hasFrontmatter).toBe(false);
		expect(splitNote("")).toMatchObject({ hasFrontmatter: false, unterminated: false, body: "" });
	});

	it("reports an unclosed block as unterminated", () => {
		expect(splitNote("---\na: 1\nb: 2")).toMatchObject({ hasFrontmatter: false, unterminated: true });
	});

	it("does not take ---- or --- text as a closing fence", () => {
		expect(splitNote("---\na: 1\n----\n--- x\n")).toMatchObject({ unterminated: true });
	});
});

describe("parseYamlSafe", () => {
	it("throws on duplicate keys by default", () => {
		expect(() => parseYamlSafe("a: 1\na: 2\n")).toThrow(/YAML does not parse/);
	});

	it("reports each duplicate key with its path and keeps the first, when asked to", () => {
		const found: string[] = [];
		const data = parseYamlSafe("a: 1\na: 2\ngroups:\n  x: {id: 1}\n  x: {id: 2}\n", (path) => found.push(path));
		expect(data).toEqual({ a: 1, groups: { x: { id: 1 } } });
		expect(found).toEqual(["a", "groups.x"]);
	});

	it("reads timestamps as text (YAML 1.2), so nothing turns into a Date behind the user's back", () => {
		expect(parseYamlSafe("t: 2026-01-15T10:30:00Z\nd: 2026-01-15\n")).toEqual({ t: "2026-01-15T10:30:00Z", d: "2026-01-15" });
	});

	it("does not merge << keys (YAML 1.2)", () => {
		expect(parseYamlSafe("base: &b {x: 1}\nchild:\n  <<: *b\n")).toEqual({ base: { x: 1 }, child: { "<<": { x: 1 } } });
	});
});

describe("readFrontmatter", () => {
	it("is null for a note without frontmatter and {} for an empty block", () => {
		expect(readFrontmatter("# Note\n")).toBeNull();
		expect(readFrontmatter("---\n---\n")).toEqual({});
		expect(readFrontmatter("---\n# only a comment\n---\n")).toEqual({});
	});

	it("throws with a reason for an unclosed or broken block", () => {
		expect(() => readFrontmatter("---\na: 1\n")).toThrow("the frontmatter block is not closed by a --- line");
		expect(() => readFrontmatter("---\n- a\n---\n")).toThrow("the frontmatter is not a mapping of fields");
	});
});

describe("writing YAML that reads back exactly", () => {
	const tricky = [
		" \n",
		" \n\tx",
		"\n \n",
		"\t\nindented after a tab line",
		"x\n\n",
		"x\n \n",
		"ends with blank lines\n\n\n",
		"a\n \nb",
		"  two leading spaces\nsecond",
		"trailing space \nnext",
		"\u2028line separator",
		"tab\tinside",
		"'single' and \"double\"",
		"#not a comment",
		"- not a list",
		"key: not a mapping",
		"null",
		"123",
		"",
	];

	it.each(tricky.map((value) => [JSON.stringify(value), value]))("stringifyYaml keeps %s", (_shown, value) => {
		for (const data of [{ v: value }, { list: [value] }, { nested: { v: value }, after: 1 }]) {
			expect(parseFrontmatterYaml(stringifyYaml(data))).toEqual(data);
		}
	});

	it("keeps a keep-chomped block that ends the frontmatter (its final newline included)", () => {
		const text = buildNote({ kind: "request", last: "ends with two newlines\n\n" }, "body");
		expect(readFrontmatter(text)).toEqual({ kind: "request", last: "ends with two newlines\n\n" });
		expect(splitNote(text).body).toBe("body");
	});

	it.each(tricky.map((value) => [JSON.stringify(value), value]))("updateFrontmatterText writes %s so that it reads back", (_shown, value) => {
		const out = updateFrontmatterText("---\nstatus: active\n---\nbody\n", (fm) => {
			fm.last_action = value;
		});
		expect(readFrontmatter(out)).toEqual({ status: "active", last_action: value });
		expect(splitNote(out).body).toBe("body\n");
	});

	it("builds an empty frontmatter block for no fields", () => {
		expect(buildNote({}, "body")).toBe("---\n---\nbody");
	});
});

describe("updateFrontmatterText edits", () => {
	it("deletes a field the callback deletes and keeps the others in place", () => {
		const out = updateFrontmatterText("---\na: 1\nb: two\nc: [3]\n---\n", (fm) => {
			delete fm.b;
		});
		expect(out).toMatch(/^---\na: 1\nc: .*\n---\n$/);
		expect(readFrontmatter(out)).toEqual({ a: 1, c: [3] });
	});

	it("writes CRLF when the note uses CRLF, and keeps the byte order mark", () => {
		const out = updateFrontmatterText("\uFEFF---\r\nstatus: active\r\n---\r\nbody\r\n", (fm) => {
			fm.progress_percent = 50;
		});
		expect(out).toBe("\uFEFF---\r\nstatus: active\r\nprogress_percent: 50\r\n---\r\nbody\r\n");
	});

	it("removes every field when all are deleted", () => {
		expect(updateFrontmatterText("---\na: 1\n---\nb", (fm) => void delete fm.a)).toBe("---\n---\nb");
	});
});

describe("body sections", () => {
	it("maps headings to keys and keys to headings", () => {
		expect(headingToKey(" Next   Steps ")).toBe("next_steps");
		expect(keyToHeading("next_steps")).toBe("Next steps");
		expect(headingToKey(keyToHeading("error_message_2"))).toBe("error_message_2");
	});

	it("carries a value's own level-two headings in the body, escaped as Markdown escapes them, and reads them back exactly", () => {
		const question = "## Goal\n\nShip it.\n```\n## in a fence\n\\## escaped in a fence\n```\n### Level three\n## Steps";
		const body = renderBodySections({ question, context: "Plain" });
		expect(body).toBe("## Question\n\n\\## Goal\n\nShip it.\n```\n## in a fence\n\\## escaped in a fence\n```\n### Level three\n\\## Steps\n\n## Context\n\nPlain\n");
		expect(parseBodySections(body)).toEqual({ question, context: "Plain" });
		// A backslashed heading of the value's own goes to the frontmatter (notes written before read as they did).
		expect(fitsInBody("question", "Markdown tip:\n\\## is a literal heading")).toBe(false);
		expect(parseBodySections("## Question\n\nMarkdown tip:\n\\## is a literal heading\n")).toEqual({ question: "Markdown tip:\n## is a literal heading" });
		// A long Markdown task (an LLM's plan) stays in the body, far from the frontmatter's 8 KB.
		const plan = Array.from({ length: 200 }, (_, i) => `## Step ${i}\n\nDo part ${i} of the work, carefully.`).join("\n\n");
		expect(plan.length).toBeGreaterThan(8192);
		expect(fitsInBody("task", plan)).toBe(true);
		expect(parseBodySections(renderBodySections({ task: plan }))).toEqual({ task: plan });
	});

	it("says which values a body section carries unchanged", () => {
		expect(fitsInBody("question", "Why?")).toBe(true);
		expect(fitsInBody("question", "Line\n\n- list\n```\n## in a fence\n```")).toBe(true);
		expect(fitsInBody("question", "")).toBe(false);
		expect(fitsInBody("question", " padded")).toBe(false);
		expect(fitsInBody("question", "a\n## Heading")).toBe(true);
		expect(fitsInBody("question", "```\nopen fence")).toBe(false);
		expect(fitsInBody("question", "crlf\r\ntext")).toBe(false);
		expect(fitsInBody("question", 3)).toBe(false);
		expect(fitsInBody("Question", "x")).toBe(false);
		expect(fitsInBody("the question", "x")).toBe(false);
		expect(fitsInBody("artifacts", ["a.md", "[[B]]"])).toBe(true);
		expect(fitsInBody("artifacts", [])).toBe(true);
		expect(fitsInBody("artifacts", ["a\nb"])).toBe(false);
		expect(fitsInBody("artifacts", [" a"])).toBe(false);
		expect(fitsInBody("artifacts", "a.md")).toBe(false);
	});

	it("renders and reads back sections, including an empty artifact list", () => {
		const payload = { question: "Why?", artifacts: [], context: "multi\nline" };
		const body = renderBodySections(payload);
		expect(body).toBe("## Question\n\nWhy?\n\n## Artifacts\n\n## Context\n\nmulti\nline\n");
		expect(parseBodySections(body)).toEqual(payload);
	});

	it("reads an artifact holding a Unicode line separator instead of dropping it", () => {
		const payload = { artifacts: ["a\u2028b.md", "c.md"] };
		expect(fitsInBody("artifacts", payload.artifacts)).toBe(true);
		expect(parseBodySections(renderBodySections(payload))).toEqual(payload);
	});
});
