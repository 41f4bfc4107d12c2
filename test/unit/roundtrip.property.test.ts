import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitNote, updateFrontmatterText, parseFrontmatterYaml, stringifyYaml } from "../../src/core/frontmatter";
import type { Message, Payload, RequestEnvelope, ResponseEnvelope } from "../../src/core/message";
import { readRawMessage } from "../../src/core/message-parse";
import { serialiseMessage } from "../../src/core/message-serialise";
import { MESSAGE_STATES, PRIORITIES, REQUEST_TYPES, RESPONSE_STATUSES } from "../../src/core/protocol";
import { validateRaw } from "../../src/core/validate";
import { anyUnicodeString } from "./helpers";

// Property: whatever valid message an agent or the router writes, reading the note back gives exactly
// that message (protocol section 4: "keeps its payload byte for byte").

const RUNS = Number(process.env.A2A_PROPERTY_RUNS ?? 600);

/** Pieces that stress the body format: headings, fences, lists, edge whitespace, RTL and emoji. */
const FRAGMENTS = [
	"\n",
	"\n\n",
	"## Question",
	"\n## Answer\n",
	"## ",
	"### Sub",
	"# Title",
	"```",
	"```ts\n",
	"\n```\n",
	"~~~",
	"  ",
	"\t",
	" ",
	"- item",
	"\n- [[Link|alias]]",
	"* star",
	"1. one",
	"שלום עולם",
	"مرحبا بالعالم",
	"\u200F",
	"\u202E",
	"😀",
	"👩‍💻",
	"🇫🇷",
	"e\u0301",
	"---",
	"\n---\n",
	"key: value",
	"&anchor *alias",
	"!!str",
	"'",
	'"',
	"\\",
	"%YAML",
	"@",
	"|",
	">",
	"#",
	"null",
	"true",
	"0x1F",
	"1e3",
	"2026-01-15",
	"~",
	"\u00A0",
	"\u2028",
	"\r\n",
	"\r",
	"\u0000",
];

const textArb: fc.Arbitrary<string> = fc.oneof(
	{ weight: 4, arbitrary: fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: "grapheme-ascii", maxLength: 8 })), { maxLength: 12 }).map((parts) => parts.join("")) },
	{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
	{ weight: 1, arbitrary: anyUnicodeString(40) },
	{ weight: 1, arbitrary: fc.lorem({ mode: "sentences", maxCount: 4 }) },
);

const artifactArb = fc.oneof(
	fc.stringMatching(/^[A-Za-z0-9_-]{1,8}(\/[A-Za-z0-9 ._-]{1,10}){0,3}\.(md|yaml|png)$/).filter((s) => s.trim() === s),
	fc.stringMatching(/^[A-Za-z0-9_ -]{1,12}$/).map((s) => `[[${s}]]`),
	textArb,
);

const nestedArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: "small", withCrossShrink: true },
		textArb,
		fc.integer(),
		fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
		fc.boolean(),
		fc.constant(null),
		fc.array(tie("value"), { maxLength: 4 }),
		fc.dictionary(fc.oneof(textArb, fc.constantFrom("a", "b", "<<", "-", "? x", "")), tie("value"), { maxKeys: 4, noNullPrototype: true }),
	),
})).value;

const payloadKeyArb = fc.oneof(
	{ weight: 5, arbitrary: fc.constantFrom("question", "context", "task", "answer", "artifacts", "next_steps", "notes", "data_2") },
	{ weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9]{1,6}(_[a-z0-9]{1,4}){0,2}$/) },
	{ weight: 1, arbitrary: fc.constantFrom("Question", "the answer", "ключ", "مفتاح", "emoji_😀", "a-b", "123", "") },
);

const payloadValueArb = (key: string): fc.Arbitrary<unknown> =>
	key === "artifacts"
		? fc.oneof({ weight: 4, arbitrary: fc.array(artifactArb, { maxLength: 5 }) }, { weight: 1, arbitrary: nestedArb })
		: fc.oneof({ weight: 5, arbitrary: textArb }, { weight: 1, arbitrary: fc.array(artifactArb, { maxLength: 3 }) }, { weight: 1, arbitrary: nestedArb });

const payloadArb: fc.Arbitrary<Payload> = fc
	.uniqueArray(payloadKeyArb, { maxLength: 5 })
	.chain((keys) => fc.tuple(...keys.map((key) => payloadValueArb(key))).map((values) => Object.fromEntries(keys.map((key, i) => [key, values[i]]))));

const groupArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/);
const uuidArb = fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.constant("a1b2c3d4-e5f6-7890-abcd-ef1234567890"));
const isoArb = fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
const messageIdArb = fc.oneof(
	fc.uuid(),
	fc
		.string({ unit: "grapheme", minLength: 1, maxLength: 30 })
		.filter((s) => s.trim() === s && s.length <= 128 && !/[\u0000-\u001f\u007f]/.test(s)),
	fc.constantFrom("123", "true", "null", "0x10", "1e3", "- x", "#1", "a: b"),
);

const extraArb: fc.Arbitrary<Record<string, unknown>> = fc.record(
	{
		tags: fc.array(fc.stringMatching(/^[a-z][a-z0-9/_-]{0,12}$/), { maxLength: 3 }),
		aliases: fc.array(textArb, { maxLength: 2 }),
		cssclasses: fc.constant(["a2a"]),
		rating: fc.integer({ min: 0, max: 10 }),
		"custom field": nestedArb,
	},
	{ requiredKeys: [] },
);

/** Router-written fields: present or absent. */
const routerFieldsArb = fc.record(
	{
		state: fc.constantFrom(...MESSAGE_STATES),
		delivered_at: isoArb,
		expires_at: isoArb,
		attempt: fc.integer({ min: 1, max: 9 }),
		answered_at: isoArb,
		dead_at: isoArb,
		error_code: fc.constantFrom("INVALID_MESSAGE", "TIMEOUT", "CYCLE_DETECTED"),
		error_message: textArb,
	},
	{ requiredKeys: [] },
);

const requestArb: fc.Arbitrary<Message> = fc
	.record(
		{
			base: fc.record(
				{
					trace_id: uuidArb,
					hop_count: fc.integer({ min: 0, max: 20 }),
					source_group: groupArb,
					target_group: groupArb,
					request_type: fc.constantFrom(...REQUEST_TYPES),
				},
				{ requiredKeys: ["trace_id", "hop_count", "source_group", "target_group", "request_type"] },
			),
			optional: fc.record(
				{
					message_id: messageIdArb,
					priority: fc.constantFrom(...PRIORITIES),
					timeout_seconds: fc.integer({ min: 1, max: 86400 }),
					created: isoArb,
					route: fc.array(groupArb, { maxLength: 5 }),
				},
				{ requiredKeys: [] },
			),
			router: routerFieldsArb,
			payload: payloadArb,
			extra: extraArb,
		},
		{ requiredKeys: ["base", "optional", "router", "payload", "extra"] },
	)
	.map(({ base, optional, router, payload, extra }) => ({
		envelope: { kind: "request", ...base, ...optional, ...router } as RequestEnvelope,
		payload,
		extra,
	}));

const responseArb: fc.Arbitrary<Message> = fc
	.record({
		base: fc.record({ trace_id: uuidArb, source_group: groupArb, status: fc.constantFrom(...RESPONSE_STATUSES) }),
		optional: fc.record(
			{
				message_id: messageIdArb,
				in_reply_to: messageIdArb,
				target_group: groupArb,
				processing_time_ms: fc.integer({ min: 0, max: 10_000_000 }),
				created: isoArb,
				route: fc.array(groupArb, { maxLength: 3 }),
			},
			{ requiredKeys: [] },
		),
		router: routerFieldsArb,
		payload: payloadArb,
		extra: extraArb,
	})
	.map(({ base, optional, router, payload, extra }) => ({
		envelope: { kind: "response", ...base, ...optional, ...router } as ResponseEnvelope,
		payload,
		extra,
	}));

function readBack(text: string): Message {
	const read = readRawMessage(text, "x.md");
	if (!read.ok) throw new Error(`does not read back: ${read.reason}\n${text}`);
	const validation = validateRaw(read.raw);
	if (!validation.ok) throw new Error(`does not validate: ${JSON.stringify(validation.problems)}\n${text}`);
	return validation.message;
}

describe("serialiseMessage then readRawMessage + validateRaw", () => {
	it("gives back exactly the request that was written", { timeout: 120_000 }, () => {
		fc.assert(
			fc.property(requestArb, (message) => {
				expect(readBack(serialiseMessage(message))).toEqual(message);
			}),
			{ numRuns: RUNS },
		);
	});

	it("gives back exactly the response that was written", { timeout: 120_000 }, () => {
		fc.assert(
			fc.property(responseArb, (message) => {
				expect(readBack(serialiseMessage(message))).toEqual(message);
			}),
			{ numRuns: RUNS },
		);
	});

	it("is stable: serialising what was read gives the same note", { timeout: 120_000 }, () => {
		fc.assert(
			fc.property(fc.oneof(requestArb, responseArb), (message) => {
				const text = serialiseMessage(message);
				expect(serialiseMessage(readBack(text))).toBe(text);
			}),
			{ numRuns: RUNS },
		);
	});

	it("puts plain text fields in ## body sections, where a reader of the note sees them", () => {
		const text = serialiseMessage({
			envelope: { kind: "request", trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", hop_count: 0, source_group: "a", target_group: "b", request_type: "query" },
			payload: { question: "What is the endpoint?", context: "Line 1\n\n- a list", artifacts: ["[[Spec]]", "docs/api.md"] },
			extra: {},
		});
		expect(splitNote(text).body).toBe("\n## Question\n\nWhat is the endpoint?\n\n## Context\n\nLine 1\n\n- a list\n\n## Artifacts\n\n- [[Spec]]\n- docs/api.md\n");
		expect(parseFrontmatterYaml(splitNote(text).yaml).payload).toBeUndefined();
	});
});

// ---------------------------------------------------------------------------------------------------
// updateFrontmatterText: the body byte for byte, untouched fields as they were (types included).

const fieldNameArb = fc.oneof(fc.constantFrom("status", "progress_percent", "last_action", "count", "ratio", "flag", "tags", "when"), fc.stringMatching(/^[a-z][a-z_]{0,8}$/));
const fieldValueArb: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer({ min: -1000, max: 1000 }),
	fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).filter((d) => !Object.is(d, -0)),
	fc.boolean(),
	textArb,
	fc.constantFrom("42", "3.5", "true", "null", "2026-01-15T10:30:00Z"),
	fc.array(fc.oneof(fc.integer(), textArb), { maxLength: 3 }),
	fc.constant(null),
);

const bodyArb = fc.oneof(textArb, fc.constantFrom("", "\n", "---\nnot: frontmatter\n---\n", "\r\n# Title\r\n\r\n## [10:30:15] Done\r\n", "\uFEFFtext"));

describe("updateFrontmatterText", () => {
	it("keeps the body byte for byte and the untouched fields with their values and types", { timeout: 120_000 }, () => {
		fc.assert(
			fc.property(
				fc.dictionary(fieldNameArb, fieldValueArb, { minKeys: 1, maxKeys: 6, noNullPrototype: true }),
				bodyArb,
				fc.boolean(),
				fc.boolean(),
				fc.dictionary(fc.constantFrom("status", "progress_percent", "new_field", "last_action"), fieldValueArb, { maxKeys: 3, noNullPrototype: true }),
				fc.boolean(),
				(fields, body, crlf, bom, edits, deleteOne) => {
					let head = `---\n${stringifyYaml(fields)}---\n`;
					if (crlf) head = head.replace(/\n/g, "\r\n");
					const text = `${bom ? "\uFEFF" : ""}${head}${body}`;
					const before = parseFrontmatterYaml(splitNote(text).yaml);
					const deleted = deleteOne ? Object.keys(fields).find((k) => !(k in edits)) : undefined;
					const out = updateFrontmatterText(text, (fm) => {
						Object.assign(fm, structuredClone(edits));
						if (deleted !== undefined) delete fm[deleted];
					});
					const split = splitNote(out);
					expect(split.body).toBe(splitNote(text).body);
					expect(out.endsWith(body)).toBe(true);
					expect(split.bom).toBe(bom ? "\uFEFF" : "");
					if (crlf) expect(split.head.replace(/\r\n/g, "")).not.toContain("\n");
					const after = parseFrontmatterYaml(split.yaml);
					for (const [key, value] of Object.entries(before)) {
						if (key in edits || key === deleted) continue;
						expect(after[key]).toEqual(value);
						expect(typeof after[key]).toBe(typeof value);
					}
					for (const [key, value] of Object.entries(edits)) expect(after[key]).toEqual(value);
					if (deleted !== undefined) expect(after).not.toHaveProperty(deleted);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it("keeps the text of untouched fields: comments, quoting and number formats", () => {
		const text = "---\nprogress_percent: 50 # half way\nlabel: '42'\nratio: 1.50\n# a comment line\nlist:\n  - \"b\" # quoted\nstatus: active\n---\n# Body\n\n## [10:30:15] Check\n";
		const out = updateFrontmatterText(text, (fm) => {
			fm.status = "running";
		});
		expect(out).toBe("---\nprogress_percent: 50 # half way\nlabel: '42'\nratio: 1.50\n# a comment line\nlist:\n  - \"b\" # quoted\nstatus: running\n---\n# Body\n\n## [10:30:15] Check\n");
		const fm = parseFrontmatterYaml(splitNote(out).yaml);
		expect(fm.progress_percent).toBe(50);
		expect(fm.label).toBe("42");
	});

	it("adds a frontmatter block to a note that has none, keeping the note as the body", () => {
		expect(updateFrontmatterText("# Just text\n", (fm) => void (fm.status = "spawned"))).toBe("---\nstatus: spawned\n---\n# Just text\n");
	});

	it("refuses a note whose frontmatter does not parse or is unterminated, rather than overwrite it", () => {
		expect(() => updateFrontmatterText("---\na: [1\n---\nbody", () => undefined)).toThrow(/YAML does not parse/);
		expect(() => updateFrontmatterText("---\na: 1\nbody", () => undefined)).toThrow(/not closed/);
	});
});
