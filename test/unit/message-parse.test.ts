import { describe, expect, it } from "vitest";
import { isMessagePath, isYamlMessagePath, readRawMessage } from "../../src/core/message-parse";
import { TRACE, messageOf, note, rawOf } from "./helpers";

// Reading notes in every form an agent may write them, and failing with a reason when a note cannot
// be read at all.

const REQUEST = [`trace_id: ${TRACE}`, "hop_count: 0", "source_group: a", "target_group: b", "request_type: query"];

function failure(text: string, path = "x.md"): string {
	const read = readRawMessage(text, path);
	if (read.ok) throw new Error(`expected ${path} not to read, got ${JSON.stringify(read.raw)}`);
	return read.reason;
}

/** A YAML "billion laughs" document: `levels` levels of `width` aliases each. */
function aliasBomb(levels = 9, width = 9): string {
	const lines = [`a0: &a0 [${Array(width).fill("lol").join(", ")}]`];
	for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array(width).fill(`*a${i - 1}`).join(", ")}]`);
	return lines.join("\n");
}

describe("line endings and byte order marks", () => {
	it("reads a CRLF note: fields, and body sections without carriage returns", () => {
		const text = note([...REQUEST, "priority: high"], "\n## Question\n\nLine one\nLine two\n\n## Artifacts\n\n- [[Spec]]\n").replace(/\n/g, "\r\n");
		const message = messageOf(text);
		expect(message.envelope).toMatchObject({ trace_id: TRACE, priority: "high", hop_count: 0 });
		expect(message.payload).toEqual({ question: "Line one\nLine two", artifacts: ["[[Spec]]"] });
	});

	it("reads a note that starts with a byte order mark", () => {
		const message = messageOf(`\uFEFF${note(REQUEST, "## Task\n\nDo it\n")}`);
		expect(message.envelope.trace_id).toBe(TRACE);
		expect(message.payload).toEqual({ task: "Do it" });
	});

	it("reads a CRLF note with a byte order mark", () => {
		const text = `\uFEFF${note(REQUEST, "## Task\n\nDo it\n").replace(/\n/g, "\r\n")}`;
		expect(messageOf(text).payload).toEqual({ task: "Do it" });
	});

	it("reads a .yaml file with a byte order mark and CRLF", () => {
		const text = `\uFEFFmessage:\r\n  trace_id: "${TRACE}"\r\n  hop_count: 0\r\n  source_group: a\r\n  target_group: b\r\n  request_type: task\r\n  payload:\r\n    task: "Review"\r\n`;
		expect(messageOf(text, "m.yaml").payload).toEqual({ task: "Review" });
	});
});

describe("notes that cannot be read", () => {
	it("fails an unterminated frontmatter with a reason (a note still being written)", () => {
		expect(failure(`---\n${REQUEST.join("\n")}\n`)).toBe("the frontmatter block is not closed by a --- line");
		expect(failure("---")).toBe("the frontmatter block is not closed by a --- line");
	});

	it("fails YAML that does not parse, saying so", () => {
		expect(failure(note(["trace_id: [unclosed", "hop_count: 0"]))).toMatch(/^YAML does not parse: /);
		expect(failure(note(["a: b: c"]))).toMatch(/^YAML does not parse: /);
		expect(failure("key: [1, 2", "m.yaml")).toMatch(/^YAML does not parse: /);
	});

	it("fails an alias bomb fast instead of expanding it", () => {
		const started = Date.now();
		expect(failure(note([aliasBomb()]))).toMatch(/^YAML does not parse: .*alias/i);
		expect(failure(aliasBomb(), "bomb.yaml")).toMatch(/^YAML does not parse: /);
		// Few alias nodes (7 levels of 8: 48 aliases) but millions of expanded values.
		expect(failure(note([aliasBomb(7, 8)]))).toMatch(/^YAML does not parse: /);
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it("still accepts a few aliases, as a legitimate note may use", () => {
		const raw = rawOf(note([...REQUEST, "shared: &s [x, y]", "again: *s"]));
		expect(raw.fields.again).toEqual(["x", "y"]);
	});

	it("fails duplicate keys rather than silently picking one", () => {
		expect(failure(note([...REQUEST, "hop_count: 3"]))).toMatch(/^YAML does not parse: .*unique/i);
		expect(failure(`message:\n  trace_id: x\n  trace_id: y\n`, "m.yaml")).toMatch(/^YAML does not parse/);
	});

	it("fails a frontmatter that is a list", () => {
		expect(failure(note(["- trace_id", "- hop_count"]))).toBe("the frontmatter is not a mapping of fields");
	});

	it("fails a frontmatter that is a bare scalar", () => {
		expect(failure(note(["just text"]))).toBe("the frontmatter is not a mapping of fields");
	});

	it("fails a .yaml file that is not a mapping", () => {
		expect(failure("- a\n- b\n", "m.yaml")).toBe("the file is not a YAML mapping");
		expect(failure("", "m.yml")).toBe("the file is not a YAML mapping");
	});

	it("fails a note without frontmatter that is not bare message YAML", () => {
		expect(failure("# Just a note\n\n## Question\n\nWhy?\n")).toBe("the note has no frontmatter (it must start with a --- line)");
		expect(failure("title: not a message\n")).toBe("the note has no frontmatter (it must start with a --- line)");
	});

	it("fails a payload that is not a mapping, naming it", () => {
		expect(failure(note([...REQUEST, "payload: just text"]))).toBe("payload must be a mapping of fields");
		expect(failure(`message:\n  trace_id: "${TRACE}"\n  payload: [1]\n`, "m.yaml")).toBe("payload must be a mapping of fields");
	});
});

describe("an empty frontmatter", () => {
	it("reads as no fields at all (then validation reports kind)", () => {
		const raw = rawOf("---\n---\n## Question\n\nWhy?\n");
		expect(raw.fields).toEqual({});
		expect(raw.payload).toEqual({ question: "Why?" });
	});
});

describe("payload in the frontmatter and in the body", () => {
	it("merges a payload: mapping with the body sections, the body winning on a clash", () => {
		const text = note([...REQUEST, "payload:", "  question: from the frontmatter", "  context: only in the frontmatter", "  depth: 3"], "\n## Question\n\nfrom the body\n");
		const message = messageOf(text);
		expect(message.payload).toEqual({ question: "from the body", context: "only in the frontmatter", depth: 3 });
		expect(message.envelope).not.toHaveProperty("payload");
		expect(message.extra).not.toHaveProperty("payload");
	});

	it("lets an empty body section win too (it was written on purpose)", () => {
		expect(messageOf(note([...REQUEST, "payload:", "  context: fm"], "## Context\n")).payload).toEqual({ context: "" });
	});

	it("maps headings to keys in lower case with spaces as _", () => {
		const message = messageOf(note(REQUEST, "## Next Steps\n\nShip\n\n## Error   Details\n\nNone\n\n## API_Spec v2\n\nx\n"));
		expect(message.payload).toEqual({ next_steps: "Ship", error_details: "None", api_spec_v2: "x" });
	});

	it("does not take text before the first heading, or ### headings, as separate fields", () => {
		const message = messageOf(note(REQUEST, "# Title\n\nIntro text\n\n## Answer\n\nYes.\n\n### Detail\n\nMore.\n"));
		expect(message.payload).toEqual({ answer: "Yes.\n\n### Detail\n\nMore." });
	});

	it("does not split on a ## line inside a code fence", () => {
		const message = messageOf(note(REQUEST, "## Context\n\n```md\n## Not a heading\n```\n\n~~~\n## Nor this\n~~~\n"));
		expect(message.payload).toEqual({ context: "```md\n## Not a heading\n```\n\n~~~\n## Nor this\n~~~" });
	});

	it("reads artifacts as one item per list line, paths and wikilinks, ignoring other lines", () => {
		const body = "## Artifacts\n\nThe files:\n- skills/30-devops-group/manifests/deployment.yaml\n* [[Design note]]\n+ [[Spec#Section|alias]]\n  - nested/item.md\n\n## Task\n\nReview\n";
		expect(messageOf(note(REQUEST, body)).payload).toEqual({
			artifacts: ["skills/30-devops-group/manifests/deployment.yaml", "[[Design note]]", "[[Spec#Section|alias]]", "nested/item.md"],
			task: "Review",
		});
	});

	it("keeps unicode, right-to-left text and emoji in body sections exactly", () => {
		const text = "שלום עולם 👋\nمرحبا 🇫🇷 e\u0301";
		expect(messageOf(note(REQUEST, `## Question\n\n${text}\n`)).payload.question).toBe(text);
	});
});

describe("YAML files and wrapped notes", () => {
	it("reads a flat .yaml message", () => {
		const raw = rawOf(`${REQUEST.join("\n")}\npayload:\n  question: Why?\n`, "outbox/m.yaml");
		expect(raw.format).toBe("yaml");
		expect(raw.wrapperKind).toBeUndefined();
		expect(raw.frontmatterBytes).toBe(0);
		expect(messageOf(`${REQUEST.join("\n")}\npayload:\n  question: Why?\n`, "m.yaml").payload).toEqual({ question: "Why?" });
	});

	it("reads a wrapped .yml response", () => {
		const message = messageOf(`response:\n  trace_id: "${TRACE}"\n  status: error\n  source_group: b\n  error_code: TIMEOUT\n  error_message: too slow\n  payload:\n    answer: none\n`, "r.yml");
		expect(message.envelope).toEqual({ kind: "response", trace_id: TRACE, status: "error", source_group: "b", error_code: "TIMEOUT", error_message: "too slow" });
		expect(message.payload).toEqual({ answer: "none" });
	});

	it("reads a note whose frontmatter is the seed's message: wrapper, with body sections merged", () => {
		const text = `---\nmessage:\n  trace_id: "${TRACE}"\n  hop_count: 1\n  source_group: a\n  target_group: b\n  request_type: query\n  payload:\n    question: fm\n    context: kept\n---\n## Question\n\nbody\n`;
		const raw = rawOf(text);
		expect(raw.format).toBe("wrapped");
		expect(raw.wrapperKind).toBe("request");
		expect(messageOf(text).payload).toEqual({ question: "body", context: "kept" });
	});

	it("does not unwrap message: when other keys stand beside it (it is then not the seed's shape)", () => {
		const raw = rawOf(`---\nmessage:\n  trace_id: "${TRACE}"\ntags: [x]\n---\n`);
		expect(raw.format).toBe("flat");
		expect(raw.wrapperKind).toBeUndefined();
		expect(Object.keys(raw.fields).sort()).toEqual(["message", "tags"]);
	});

	it("lets an explicit kind inside a wrapper win over the wrapper's name", () => {
		const message = messageOf(`message:\n  kind: response\n  trace_id: "${TRACE}"\n  source_group: b\n  status: success\n`, "m.yaml");
		expect(message.envelope.kind).toBe("response");
	});

	it("reads a .md file holding bare flat YAML with a trace_id", () => {
		const raw = rawOf(`${REQUEST.join("\n")}\n`, "m.md");
		expect(raw.format).toBe("yaml");
		expect(raw.fields.trace_id).toBe(TRACE);
	});

	it("tells message files from other files by extension", () => {
		expect(isMessagePath("a/b.md")).toBe(true);
		expect(isMessagePath("a/b.YAML")).toBe(true);
		expect(isMessagePath("a/b.yml")).toBe(true);
		expect(isMessagePath("a/b.txt")).toBe(false);
		expect(isMessagePath("a/.md")).toBe(false);
		expect(isYamlMessagePath("a/b.md")).toBe(false);
	});
});
