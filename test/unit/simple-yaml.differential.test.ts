import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml, parseYamlSafe, readFrontmatter, stringifyYaml, updateFrontmatterText } from "../../src/core/frontmatter";
import { editTopLevelKeys } from "../../src/core/frontmatter-lines";
import { parseSimpleYaml } from "../../src/core/simple-yaml";

// The fast frontmatter reader's promise, checked against its oracle: for any block it either steps
// aside (null: the yaml library reads it, with the options the router uses) or returns exactly what
// the library returns, key order, number signs and all; it never accepts a block the library refuses.
// The blocks are made to sit on the reader's edges: list items at column 0 and indented in one list,
// odd indentation, quotes, colons, comments, empty values, keys the core schema reads as null or a
// boolean, tabs, CRLF and Unicode.

// 100,000 blocks take a few seconds: the library reads only the blocks the fast reader answers for
// (about one in seven); where the reader steps aside the library's verdict is the router's by construction.
const RUNS = Number(process.env.A2A_DIFFERENTIAL_RUNS ?? 100_000);
// The editor test reads every block with the library first (most are not the fast reader's): fewer runs.
const EDIT_RUNS = Math.round(RUNS / 50);

const KEYS = ["a", "b", "tags", "status", "x-y", "_k", "null", "Null", "True", "FALSE", "__proto__", "on", "a b", "a:b", "é", "1", "-k", "#k", "'q'", '"q"', "? k", "k "];

const SCALARS = [
	"", " ", "  ", "\t", "x", "hello world", "agent-1", "10-backend-group", "a_b.c/d@e+f", "a,b", "~x", "$x", "(p)", "x(y)",
	"0", "-0", "+0", "00", "007", "42", "-7", "+7", "1_000", "3.5", "-3.5", ".5", "5.", "1e3", "1E-3", "0o17", "0O17", "0x1F", "0X1f", "0b1",
	".inf", "-.inf", "+.INF", ".NaN", ".nan", "123456789012345", "1234567890123456", "9007199254740993",
	"null", "Null", "NULL", "nUll", "~", "true", "True", "TRUE", "tRue", "false", "False", "yes", "no", "on", "off", "y", "n",
	"'q'", "''", "'it''s'", "'a", "'a'b'", '"q"', '""', '"a\\"b"', '"a\\nb"', '"a', '"a"b"', "'a' #c", '"a" #c', "'a'x",
	"a:b", "a: b", "a:", "a :b", "http://x.y/z", "12:30", "1:2:3", ":x", "a::b", "a:,b",
	"#c", " #c", "a #c", "a#c", "a # c", "x #",
	"é", "日本", "😀", "\u00a0", "\ufeff", "\u200b", "\u2028", "\u0085", "a\u00a0b", "\u202e", "a\u3000",
	"@x", "`x", "%x", "&x", "*x", "!x", "!!str x", "|", ">", "[a]", "{a: 1}", "[", "{", "?", "? x", "-", "- x", "-x", "--", "---", "...", ",x", "x,", "a]", "a}",
	"x ", "x\t", "x  ", " x", "x\ty", "a  b", "a - b",
];

const indent = fc.constantFrom("", "", "", " ", "  ", "  ", "   ", "    ", "\t", " \t");
const afterColon = fc.constantFrom(" ", " ", " ", " ", " ", " ", " ", " ", " ", " ", " ", " ", "", "  ", "\t", " \t");
const afterDash = fc.constantFrom(" ", " ", " ", " ", " ", " ", " ", " ", " ", " ", " ", " ", "", "  ", "\t");
const scalar = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...SCALARS) },
	{ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...SCALARS), fc.constantFrom(...SCALARS)).map(([a, b]) => a + b) },
	{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) },
	{ weight: 1, arbitrary: fc.tuple(fc.constantFrom("'", '"'), fc.string({ unit: fc.oneof(fc.constantFrom("a", " ", "\u00a0", "\u0085", "\u2028", "\ufeff", "\x07", "\x7f", "\x9b", "\u202e", "#", ":"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), maxLength: 5 })).map(([q, t]) => q + t + q) },
	{ weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(..."aZ09 -_:#'\"\\.,@/!&*|>[]{}?%`~\t"), maxLength: 8 }) },
);
const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,4}$/) });

const line = fc.oneof(
	{ weight: 6, arbitrary: fc.tuple(indent, key, afterColon, scalar).map(([i, k, s, v]) => `${i}${k}:${s}${v}`) },
	{ weight: 3, arbitrary: fc.tuple(key).map(([k]) => `${k}:`) },
	{ weight: 5, arbitrary: fc.tuple(indent, afterDash, scalar).map(([i, s, v]) => `${i}-${s}${v}`) },
	{ weight: 1, arbitrary: fc.tuple(indent, scalar).map(([i, v]) => `${i}#${v}`) },
	{ weight: 1, arbitrary: fc.tuple(indent, scalar).map(([i, v]) => `${i}${v}`) },
	{ weight: 1, arbitrary: fc.constantFrom("", " ", "\t", "---", "...", "- - x", "-", "  -", "? a", ": b", "%YAML 1.2", "a: &x 1", "b: *x") },
);

/** Mostly values the reader answers for, so that its answers get compared; now and then an edge. */
const common = fc.constantFrom("x", "agent-1", "42", "-7", "hello world", "10-backend-group", "a_b.c/d@e+f", "'q'", '"q"', "", "true", "null", "~", "2026-01-15T23:59:59.999Z");
const value = fc.oneof({ weight: 8, arbitrary: common }, { weight: 1, arbitrary: scalar });

/** Where a list item may start: mostly the two shapes the reader knows (column 0, two spaces), mixed at times. */
const itemIndent = fc.constantFrom("", "", "", "", "", "  ", "  ", "  ", "  ", "  ", " ", "   ", "    ", "\t");
const plainKey = fc.oneof({ weight: 12, arbitrary: fc.constantFrom("a", "b", "tags", "status", "x-y", "_k") }, { weight: 1, arbitrary: key });

/** A field as agents write it: `key: value`, or `key:` and its list items, the items' indentation chosen one by one or shared. */
const field = fc.oneof(
	{ weight: 3, arbitrary: fc.tuple(plainKey, afterColon, value).map(([k, s, v]) => [`${k}:${s}${v}`]) },
	{
		weight: 3,
		arbitrary: fc
			.tuple(plainKey, fc.constantFrom("", "", " ", "\t"), fc.array(fc.tuple(itemIndent, afterDash, value), { minLength: 0, maxLength: 4 }), fc.boolean(), itemIndent)
			.map(([k, tail, items, shared, first]) => [`${k}:${tail}`, ...items.map(([i, s, v]) => `${shared ? first : i}-${s}${v}`)]),
	},
	{ weight: 1, arbitrary: fc.constantFrom(["# a comment"], [""]) },
	{ weight: 1, arbitrary: line.map((l) => [l]) },
);

/** A whole frontmatter block: fields or loose lines, one end-of-line convention (or mixed), with or without a last one. */
const block = fc
	.tuple(
		fc.oneof({ weight: 5, arbitrary: fc.array(field, { minLength: 1, maxLength: 4 }).map((fields) => fields.flat()) }, { weight: 1, arbitrary: fc.array(line, { minLength: 1, maxLength: 7 }) }),
		fc.constantFrom("\n", "\n", "\n", "\n", "\n", "\n", "\n", "\n", "\r\n", "\r", "mixed"),
		fc.constantFrom(true, true, true, false),
	)
	.map(([lines, eol, last]) => {
		let text = "";
		lines.forEach((l, n) => {
			const end = eol === "mixed" ? (n % 2 === 0 ? "\r\n" : "\n") : eol;
			text += n < lines.length - 1 || last ? l + end : l;
		});
		return text;
	});

type Verdict = { ok: true; value: unknown } | { ok: false; error: string };

/** The slow path: the library, as the router calls it (a block of only comments is an empty mapping). */
function oracle(yaml: string): Verdict {
	try {
		return { ok: true, value: parseYamlSafe(yaml) ?? {} };
	} catch (error) {
		return { ok: false, error: (error as Error).message };
	}
}

/** Deep equality that tells -0 from 0, key order included, own keys only (`__proto__` as a key). */
function same(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, n) => same(item, b[n]));
	if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
		if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
		const ka = Object.keys(a);
		const kb = Object.keys(b);
		return ka.length === kb.length && ka.every((k, n) => k === kb[n] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
	}
	return Object.is(a, b);
}

function show(value: unknown): string {
	return JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? "-0 (negative zero)" : v));
}

/** Null when the fast reader keeps its promise for this block, otherwise what went wrong. */
function difference(yaml: string): string | null {
	const fast = parseSimpleYaml(yaml);
	if (fast === null) return null;
	const expected = oracle(yaml);
	if (!expected.ok) return `the fast reader accepted ${JSON.stringify(yaml)}, which the library refuses (${expected.error}), as ${show(fast)}`;
	if (!same(fast, expected.value)) return `the fast reader read ${JSON.stringify(yaml)} as ${show(fast)}, the library as ${show(expected.value)}`;
	return null;
}

describe("the fast frontmatter reader against the yaml library", () => {
	it("agrees with the library on list items at column 0 and indented in one list (tags:\n  - a\n- b)", () => {
		// An item at column 0 after indented ones: the library refuses the block.
		for (const yaml of ["tags:\n  - a\n- b\n", "tags:\n  - a\n- b\nname: x\n", "a: 1\ntags:\n  - a\n  - b\n- c\n"]) {
			expect(oracle(yaml).ok, yaml).toBe(false);
			expect(difference(yaml), yaml).toBeNull();
		}
		// An indented item after one at column 0: the library reads it as the rest of that item's text.
		expect(oracle("tags:\n- a\n  - b\n")).toEqual({ ok: true, value: { tags: ["a - b"] } });
		expect(difference("tags:\n- a\n  - b\n")).toBeNull();
	});

	it(`steps aside or reads exactly what the library reads, on ${RUNS} blocks made to sit on its edges`, () => {
		let accepted = 0;
		fc.assert(
			fc.property(block, (yaml) => {
				const found = difference(yaml);
				if (found !== null) throw new Error(found);
				if (parseSimpleYaml(yaml) !== null) accepted++;
			}),
			{ numRuns: RUNS },
		);
		// The comparison means something only where the fast reader answers: a good share of the blocks.
		expect(accepted).toBeGreaterThan(RUNS / 10);
	}, 120_000);

	it("the fast editor leaves a block with a line starting with a tab to the library (b:\\n\\t\\n, then a new field)", () => {
		for (const yaml of ["b:\n\t\n", "a: 1\n_k: \n\t\n", "status:\t\n  - x\nb:\n\t\n"]) {
			const before = parseFrontmatterYaml(yaml);
			const after = { ...before, zz: ["p", "q"] };
			const written = editTopLevelKeys(yaml, before, after, (k, v) => stringifyYaml({ [k]: v }));
			if (written !== null) expect(oracle(written), JSON.stringify(written)).toEqual({ ok: true, value: after });
			const note = updateFrontmatterText(`---\n${yaml}---\nbody\n`, (fm) => {
				fm.zz = ["p", "q"];
			});
			expect(readFrontmatter(note)).toEqual(after);
		}
	});

	it(`the fast editor writes only what reads back as the edit, on ${EDIT_RUNS} blocks and edits`, () => {
		// The editor's half of the fast path (src/core/frontmatter-lines.ts): where it answers, the block it
		// writes, read by the library, is the edited mapping; it never writes a block the library refuses.
		const edit = fc.tuple(
			fc.constantFrom("a", "b", "tags", "status", "new_key"),
			fc.constantFrom<unknown>(undefined, "x", "2026-01-15T23:59:59.999Z", "a: b", "", null, 5, true, ["p", "q"], ["a: b", "#c"], [], "null", "multi\nline", " lead"),
		);
		let answered = 0;
		fc.assert(
			fc.property(block, edit, (yaml, [key, value]) => {
				let before: Record<string, unknown>;
				try {
					before = parseFrontmatterYaml(yaml);
				} catch {
					return;
				}
				const after: Record<string, unknown> = { ...before };
				if (value === undefined) delete after[key];
				else after[key] = value;
				const text = yaml === "" || yaml.endsWith("\n") ? yaml : `${yaml}\n`;
				const written = editTopLevelKeys(text, before, after, (k, v) => stringifyYaml({ [k]: v }));
				if (written === null) return;
				answered++;
				const read = oracle(written);
				if (!read.ok) throw new Error(`the fast editor wrote ${JSON.stringify(written)} from ${JSON.stringify(text)}, which the library refuses (${read.error})`);
				if (!same(read.value, after)) throw new Error(`the fast editor wrote ${JSON.stringify(written)} from ${JSON.stringify(text)}: it reads ${show(read.value)}, the edit is ${show(after)}`);
			}),
			{ numRuns: EDIT_RUNS },
		);
		expect(answered).toBeGreaterThan(EDIT_RUNS / 20);
	}, 120_000);
});
