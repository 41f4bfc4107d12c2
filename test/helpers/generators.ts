import fc from "fast-check";
import { stringifyYaml } from "../../src/core/frontmatter";

// fast-check generators of hostile outbox content for the fault suite (test/cli/faults-*.test.ts):
// valid requests and responses mixed with random and truncated YAML, wrong types, missing and extra
// fields, huge values, unicode (right-to-left, emoji, combining marks), CRLF and BOM, git conflict
// markers, alias bombs, control characters, the seed's wrapped notes and .yaml files, and file
// names with spaces, unicode and every ignored pattern. Every note gets a unique marker in its
// file name from the test (see `fileName`), so it can be found wherever the router puts it.

/** The registry groups of the fuzz vaults; 50-ml-group lives in its own folder outside A2A. */
export const FUZZ_GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group", "50-ml-group"] as const;
export const OUTSIDE_GROUP_FOLDER = "skills/50-ml-group";

export const FUZZ_REGISTRY = `communication:
  max_hops: 5
  timeout_seconds: 30
  retry_attempts: 3
groups:
  10-backend-group:
    description: Designs the database and the API
  20-frontend-group:
    description: Builds the user interface
  30-devops-group: {}
  40-security-group:
    description: "<script>alert('registry')</script>"
  50-ml-group:
    folder: ${OUTSIDE_GROUP_FOLDER}
`;

/** Vault-relative folder of a group's box in the fuzz registry. */
export function fuzzBox(group: string, box: "inbox" | "outbox" | "archive"): string {
	return group === "50-ml-group" ? `${OUTSIDE_GROUP_FOLDER}/${box}` : `A2A/groups/${group}/${box}`;
}

/** Hostile strings that every text field may carry. */
export const NASTY_TEXT = [
	"<img src=x onerror=alert(1)>",
	"<script>alert('x')</script>",
	"javascript:alert(1)",
	"مرحبا بالعالم — نص من اليمين إلى اليسار",
	"שלום עולם",
	"\u202Egnp.exe\u202C",
	"👩‍💻🚀🏳️‍🌈 e\u0301 \u200D\u200B",
	"[[../../../etc/passwd]]",
	"../../../etc/passwd",
	"C:\\Windows\\system32",
	"${process.env.HOME}",
	"{{constructor.constructor('alert(1)')()}}",
	"NUL\u0000byte and bell\u0007 and escape\u001b[31m",
	"\uFEFFbom inside",
	"`code` **bold** | pipe | [link](http://x)",
	"---",
	"## Not a heading?",
	"a: b\n---\nc: d",
];

const TRACE_POOL = [
	"a1b2c3d4-e5f6-7890-abcd-ef1234567890",
	"11111111-1111-4111-8111-111111111111",
	"22222222-2222-4222-8222-222222222222",
];

const textCache = new Map<number, fc.Arbitrary<string>>();
/** Any text, hostile now and then (memoised: building fc.string arbitraries is not cheap). */
const text = (maxLength = 60): fc.Arbitrary<string> => {
	let arb = textCache.get(maxLength);
	if (!arb) textCache.set(maxLength, (arb = anyText(maxLength)));
	return arb;
};

const anyText = (maxLength: number): fc.Arbitrary<string> =>
	fc.oneof(
		{ weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength }) },
		{ weight: 2, arbitrary: fc.string({ unit: "binary", maxLength }) },
		{ weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
		{ weight: 2, arbitrary: fc.lorem({ maxCount: 8 }) },
	);

/** Text a body section can hold (no surrounding whitespace, no `## ` line of its own). */
const sectionText = fc.oneof(fc.lorem({ maxCount: 20, mode: "sentences" }), fc.constantFrom(...NASTY_TEXT.filter((t) => !t.includes("##") && !t.includes("---") && t.trim() === t)));

const groupRef = fc.oneof(
	{ weight: 10, arbitrary: fc.constantFrom<string>(...FUZZ_GROUPS) },
	{ weight: 1, arbitrary: fc.constantFrom("99-nowhere", "../../etc", "..", "A2A/../../x", "/etc", ".obsidian", "a/b", "", " 10-backend-group") },
	{ weight: 1, arbitrary: text(20) },
);

const messageId = fc.oneof(
	{ weight: 6, arbitrary: fc.uuid() },
	{ weight: 3, arbitrary: fc.constant(undefined) },
	// A small pool: the same id written twice is a duplicate (or an answer to it).
	{ weight: 2, arbitrary: fc.constantFrom("dup-1", "dup-2", "dup-3", "req-1", "req-2") },
	{ weight: 1, arbitrary: text(40) },
);

const traceId = fc.oneof({ weight: 3, arbitrary: fc.uuid() }, { weight: 2, arbitrary: fc.constantFrom(...TRACE_POOL) });

const wrongType = fc.oneof(
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
	text(30),
);

export interface NoteFields {
	fields: Record<string, unknown>;
	payload: Record<string, unknown>;
}

function requestFields(group: string): fc.Arbitrary<NoteFields> {
	return fc
		.record(
			{
				message_id: messageId,
				trace_id: traceId,
				hop_count: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) }, { weight: 1, arbitrary: fc.integer({ min: 5, max: 99 }) }),
				source: fc.oneof({ weight: 12, arbitrary: fc.constant(group) }, { weight: 1, arbitrary: groupRef }),
				target_group: groupRef,
				request_type: fc.oneof({ weight: 8, arbitrary: fc.constantFrom("query", "task", "artifact") }, { weight: 1, arbitrary: text(10) }),
				priority: fc.option(fc.constantFrom("low", "medium", "high"), { nil: undefined }),
				timeout_seconds: fc.option(fc.integer({ min: 1, max: 3600 }), { nil: undefined }),
				route: fc.option(fc.array(fc.constantFrom<string>(...FUZZ_GROUPS), { maxLength: 3 }), { nil: undefined, freq: 4 }),
				question: sectionText,
				context: fc.option(sectionText, { nil: undefined }),
				artifacts: fc.option(fc.array(fc.constantFrom("../../../etc/passwd", "[[secret]]", "/etc/shadow", "A2A/registry.yaml", "C:\\x"), { minLength: 1, maxLength: 3 }), { nil: undefined }),
			},
			{ requiredKeys: ["trace_id", "hop_count", "source", "target_group", "request_type", "question"] },
		)
		.map((r) => {
			const fields: Record<string, unknown> = {};
			if (r.message_id !== undefined) fields.message_id = r.message_id;
			fields.trace_id = r.trace_id;
			fields.hop_count = r.hop_count;
			fields.source_group = r.source;
			fields.target_group = r.target_group;
			fields.request_type = r.request_type;
			if (r.priority !== undefined) fields.priority = r.priority;
			if (r.timeout_seconds !== undefined) fields.timeout_seconds = r.timeout_seconds;
			if (r.route !== undefined) fields.route = r.route;
			const payload: Record<string, unknown> = { question: r.question };
			if (r.context !== undefined) payload.context = r.context;
			if (r.artifacts !== undefined) payload.artifacts = r.artifacts;
			return { fields, payload };
		});
}

function responseFields(group: string): fc.Arbitrary<NoteFields> {
	return fc
		.record(
			{
				message_id: messageId,
				trace_id: traceId,
				source: fc.oneof({ weight: 12, arbitrary: fc.constant(group) }, { weight: 1, arbitrary: groupRef }),
				target_group: fc.option(groupRef, { nil: undefined, freq: 3 }),
				in_reply_to: fc.option(fc.oneof(fc.constantFrom("req-1", "req-2", "dup-1"), fc.uuid()), { nil: undefined }),
				status: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("success", "error", "timeout") }, { weight: 1, arbitrary: text(10) }),
				answer: sectionText,
			},
			{ requiredKeys: ["trace_id", "source", "status", "answer"] },
		)
		.map((r) => {
			const fields: Record<string, unknown> = {};
			if (r.message_id !== undefined) fields.message_id = r.message_id;
			fields.trace_id = r.trace_id;
			if (r.in_reply_to !== undefined) fields.in_reply_to = r.in_reply_to;
			fields.source_group = r.source;
			if (r.target_group !== undefined) fields.target_group = r.target_group;
			fields.status = r.status;
			if (r.status === "error") {
				fields.error_code = "INVALID_MESSAGE";
				fields.error_message = "no";
			}
			return { fields, payload: { answer: r.answer } };
		});
}

export function messageFields(group: string): fc.Arbitrary<NoteFields> {
	return fc.oneof({ weight: 3, arbitrary: requestFields(group) }, { weight: 1, arbitrary: responseFields(group) });
}

function headingOf(key: string): string {
	const words = key.replace(/_/g, " ");
	return words.charAt(0).toUpperCase() + words.slice(1);
}

export function bodyOf(payload: Record<string, unknown>): string {
	const parts: string[] = [];
	for (const [key, value] of Object.entries(payload)) {
		const content = Array.isArray(value) ? value.map((v) => `- ${String(v)}`).join("\n") : String(value);
		parts.push(`## ${headingOf(key)}\n\n${content}\n`);
	}
	return `\n${parts.join("\n")}`;
}

/** A flat note: the envelope as YAML frontmatter (written by the yaml library or by hand). */
function flatNote(n: NoteFields, byHand: boolean): string {
	const yaml = byHand
		? Object.entries(n.fields)
				.map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
				.join("\n") + "\n"
		: stringifyYaml(n.fields);
	return `---\n${yaml}---\n${bodyOf(n.payload)}`;
}

// ---- the kinds of content ----------------------------------------------------------------------

export interface GeneratedContent {
	/** What kind of input this is (for the printed counts). */
	kind: string;
	text: string;
	/** "md" for a note, "yaml"/"yml" for the seed's YAML files, or another extension. */
	ext: string;
}

const withExt = (kind: string, ext = "md") => (textValue: string): GeneratedContent => ({ kind, text: textValue, ext });

function valid(group: string): fc.Arbitrary<GeneratedContent> {
	return fc.tuple(messageFields(group), fc.boolean()).map(([n, byHand]) => ({ kind: n.fields.status !== undefined ? "valid-response" : "valid-request", text: flatNote(n, byHand), ext: "md" }));
}

function wrongFields(group: string): fc.Arbitrary<GeneratedContent> {
	return fc
		.tuple(
			messageFields(group),
			fc.subarray(["trace_id", "hop_count", "source_group", "target_group", "request_type", "status", "message_id"]),
			fc.dictionary(fc.constantFrom("trace_id", "hop_count", "priority", "route", "timeout_seconds", "created", "kind", "state", "attempt", "status", "payload", "expires_at"), wrongType, { maxKeys: 3 }),
			fc.dictionary(fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }), wrongType, { maxKeys: 4 }),
		)
		.map(([n, drop, wrong, extra]) => {
			const fields: Record<string, unknown> = { ...extra, ...n.fields };
			for (const key of drop) delete fields[key];
			Object.assign(fields, wrong);
			return withExt("wrong-fields")(flatNote({ fields, payload: n.payload }, false));
		});
}

function truncated(group: string): fc.Arbitrary<GeneratedContent> {
	return fc.tuple(valid(group), fc.double({ min: 0, max: 1, noNaN: true })).map(([c, at]) => withExt("truncated", c.ext)(c.text.slice(0, Math.floor(c.text.length * at))));
}

const randomYaml: fc.Arbitrary<GeneratedContent> = fc.oneof(
	fc.jsonValue({ maxDepth: 3 }).map((v) => withExt("random-yaml")(`---\n${stringifyYaml(v)}---\n\nbody\n`)),
	fc.string({ unit: "binary", maxLength: 200 }).map((s) => withExt("random-yaml")(`---\n${s}\n---\n`)),
	fc.constantFrom(
		"---\nkey: [unclosed\n---\n",
		"---\n: : :\n---\n",
		"---\n\t- tab indented\n---\n",
		"---\n---\n",
		"---\n",
		"---\n- a list\n- not a map\n---\n",
		"---\njust a string\n---\n",
		"---\na: 1\na: 2\n---\n",
		"---\n__proto__: {polluted: true}\nconstructor: {prototype: {polluted: true}}\ntrace_id: 11111111-1111-4111-8111-111111111111\n---\n",
		"---\n!!python/object:os.system [ls]\n---\n",
		"---\ntrace_id: !!binary aGVsbG8=\nhop_count: !!float 1\nsource_group: !custom x\n---\n",
		"---\n? [complex, key]\n: value\n---\n",
		"---\nhop_count: 0x10\nrequest_type: query\n---\n",
		"---\n%YAML 1.1\n---\n",
		"---\nkey: \"unterminated\n---\n",
	).map(withExt("random-yaml")),
);

const garbage: fc.Arbitrary<GeneratedContent> = fc.oneof(
	fc.string({ unit: "binary", maxLength: 300 }),
	fc.uint8Array({ maxLength: 200 }).map((bytes) => String.fromCharCode(...bytes)),
	fc.constantFrom("", "\u0000\u0000\u0000", "\uFEFF", "\r\n\r\n", "# Just a heading\n", "message:\n  - not a mapping\n"),
).map(withExt("garbage"));

function huge(group: string): fc.Arbitrary<GeneratedContent> {
	return fc.tuple(messageFields(group), fc.constantFrom("body", "frontmatter", "value"), fc.constantFrom("x", "é", "👍", "مرحبا ", "\u0000")).map(([n, where, unit]) => {
		if (where === "body") {
			const big = unit.repeat(Math.ceil(110_000 / Buffer.byteLength(unit)));
			return withExt("huge-body")(`${flatNote(n, false)}\n## Context\n\n${big}\n`);
		}
		const big = (unit === "\u0000" ? "z" : unit).repeat(Math.ceil((where === "frontmatter" ? 9_000 : 120_000) / Buffer.byteLength(unit)));
		return withExt(where === "frontmatter" ? "huge-frontmatter" : "huge-value")(flatNote({ fields: { ...n.fields, note: big }, payload: n.payload }, false));
	});
}

function conflictMarkers(group: string): fc.Arbitrary<GeneratedContent> {
	return fc.tuple(messageFields(group), messageFields(group)).map(([a, b]) => {
		const ours = stringifyYaml(a.fields);
		const theirs = stringifyYaml(b.fields);
		return withExt("conflict-markers")(`---\n<<<<<<< HEAD\n${ours}=======\n${theirs}>>>>>>> origin/main\n---\n${bodyOf(a.payload)}`);
	});
}

function aliasBomb(group: string): fc.Arbitrary<GeneratedContent> {
	return fc.tuple(fc.integer({ min: 4, max: 12 }), fc.boolean(), fc.constantFrom("md", "yaml")).map(([levels, wrapped, ext]) => {
		const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
		for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]`);
		const envelope = `trace_id: 11111111-1111-4111-8111-111111111111\nhop_count: 0\nsource_group: ${group}\ntarget_group: 20-frontend-group\nrequest_type: query\n`;
		if (ext === "yaml") return withExt("alias-bomb", "yaml")(`message:\n  ${envelope.trimEnd().split("\n").join("\n  ")}\n  payload:\n    ${lines.join("\n    ")}\n`);
		return withExt("alias-bomb")(wrapped ? `---\n${lines.join("\n")}\n${envelope}---\nbody\n` : `---\n${envelope}${lines.join("\n")}\n---\n\n## Question\n\nboom\n`);
	});
}

const deepNesting: fc.Arbitrary<GeneratedContent> = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.constantFrom("[", "{a: ")).map(([depth, open]) => {
	const close = open === "[" ? "]" : "}";
	return withExt("deep-nesting")(`---\ntrace_id: 11111111-1111-4111-8111-111111111111\nnested: ${open.repeat(depth)}1${close.repeat(depth)}\n---\n`);
});

function wrapped(group: string): fc.Arbitrary<GeneratedContent> {
	return fc.tuple(messageFields(group), fc.constantFrom("md", "md-bare", "yaml", "yml"), fc.boolean()).map(([n, form, keepBody]) => {
		const isResponse = n.fields.status !== undefined;
		const inner: Record<string, unknown> = { ...n.fields, payload: n.payload };
		const doc = stringifyYaml({ [isResponse ? "response" : "message"]: inner });
		if (form === "yaml" || form === "yml") return withExt("wrapped-yaml", form)(doc);
		if (form === "md-bare") return withExt("wrapped-bare")(doc);
		return withExt("wrapped")(`---\n${doc}---\n${keepBody ? "\nText before any heading stays.\n" : ""}`);
	});
}

function quarantinedLookalike(group: string): fc.Arbitrary<GeneratedContent> {
	return valid(group).map((c) => withExt("quarantined-lookalike")(c.text.replace(/^---\n/, "---\nquarantined: true\nerror_message: copied back\n")));
}

/** Any outbox content, with CRLF line ends or a BOM now and then. */
export function content(group: string): fc.Arbitrary<GeneratedContent> {
	const base = fc.oneof(
		{ weight: 24, arbitrary: valid(group) },
		{ weight: 10, arbitrary: wrongFields(group) },
		{ weight: 8, arbitrary: truncated(group) },
		{ weight: 8, arbitrary: randomYaml },
		{ weight: 5, arbitrary: garbage },
		{ weight: 2, arbitrary: huge(group) },
		{ weight: 3, arbitrary: conflictMarkers(group) },
		{ weight: 2, arbitrary: aliasBomb(group) },
		{ weight: 1, arbitrary: deepNesting },
		{ weight: 8, arbitrary: wrapped(group) },
		{ weight: 1, arbitrary: quarantinedLookalike(group) },
	);
	return fc.tuple(base, fc.constantFrom("lf", "lf", "lf", "lf", "crlf", "bom", "bom+crlf")).map(([c, eol]) => {
		let t = c.text;
		if (eol.includes("crlf")) t = t.replace(/\r?\n/g, "\r\n");
		if (eol.includes("bom") && !t.startsWith("\uFEFF")) t = `\uFEFF${t}`;
		return { ...c, text: t, kind: eol === "lf" ? c.kind : `${c.kind}+${eol}` };
	});
}

// ---- file names --------------------------------------------------------------------------------

export interface NameParts {
	before: string;
	after: string;
	/** Replaces the content's extension when set (lock and temp files, odd extensions). */
	ext?: string;
	/** Why the router must ignore this name (rule 1), or undefined. */
	ignored?: string;
}

const namePiece = fc.oneof(
	{ weight: 6, arbitrary: fc.constant("") },
	{ weight: 3, arbitrary: fc.constantFrom("my note ", "Frage – ", "вопрос ", "سؤال ", "שאלה ", "问题 ", "🚀 ", "e\u0301te ", "a  b ", "x'y\"z ", "(1) ", "#tag ", "[[x]] ", "% & $ ", "ü".normalize("NFD") + " ", "nbsp\u00A0", "tab\t") },
	{ weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 10 }).map((s) => s.replace(/[/\0]/g, "_")) },
	// Hostile names (rule 7): backslashes that read as folders elsewhere, climbing dots, control characters.
	{ weight: 2, arbitrary: fc.constantFrom("x\\..\\..\\..\\Escaped\\", "a\\b ", "\u0001ctl\u001f ", "line\nbreak ", "bell\u0007 ", "C:\\Windows\\ ", "..\\..\\up ") },
);

export const nameParts: fc.Arbitrary<NameParts> = fc.oneof(
	{ weight: 20, arbitrary: fc.record({ before: namePiece, after: namePiece }).map((p) => ({ ...p, after: p.after.trimEnd() })) },
	{ weight: 1, arbitrary: fc.constant({ before: "", after: " (really long)" + "ł".repeat(100) }) },
	// 255 bytes of UTF-8 with the marker and the extension.
	{ weight: 1, arbitrary: fc.constant({ before: "", after: "€".repeat(80) }) },
	{ weight: 1, arbitrary: fc.constantFrom(".", "..", "...").map((dots) => ({ before: `x${dots}`, after: `${dots}y` })) },
	{ weight: 1, arbitrary: fc.constantFrom("txt", "json", "markdown", "MD").map((ext) => ({ before: "", after: "", ext })) },
	{
		weight: 4,
		arbitrary: fc.constantFrom<NameParts>(
			{ before: ".", after: "", ignored: "a dot-file" },
			{ before: "", after: ".sync-conflict-20260101-123456-ABCDEF", ignored: "a sync-conflict copy" },
			{ before: "note ", after: " (Conflicted copy 2026-01-01)", ignored: "a sync-conflict copy" },
			{ before: "note ", after: " (conflicted COPY 2026-01-01 120000)", ignored: "a sync-conflict copy" },
			{ before: "note ", after: " (Jane Doe's conflicted copy 2026-01-01)", ignored: "a sync-conflict copy" },
			{ before: "", after: " (conflict 1)", ignored: "a sync-conflict copy" },
			{ before: "", after: " (CONFLICT 2)", ignored: "a sync-conflict copy" },
			{ before: "", after: ".SYNC-CONFLICT-20260101-123456-XYZ", ignored: "a sync-conflict copy" },
			{ before: "~$", after: "", ignored: "a lock file of an editor" },
			{ before: "", after: "", ext: "tmp", ignored: "a lock or temporary file" },
			{ before: "", after: ".md", ext: "part", ignored: "a lock or temporary file" },
			{ before: "", after: "", ext: "LOCK", ignored: "a lock or temporary file" },
		),
	},
);

/** The unique marker of note `index` of run `run`; found again in any file name that holds it. */
export function marker(run: number, index: number): string {
	return `FZ${run}x${index}Q`;
}

export const MARKER_PATTERN = /FZ(\d+)x(\d+)Q/;

export function fileName(parts: NameParts, mark: string, ext: string): string {
	return `${parts.before}${mark}${parts.after}.${parts.ext ?? ext}`;
}

export interface GeneratedNote {
	group: string;
	content: GeneratedContent;
	name: NameParts;
}

// One arbitrary per group, built once (building the arbitrary tree per note is what is slow).
export const outboxNote: fc.Arbitrary<GeneratedNote> = fc.oneof(
	...FUZZ_GROUPS.map((group) => fc.record({ group: fc.constant<string>(group), content: content(group), name: nameParts })),
);
