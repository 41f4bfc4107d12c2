import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every word the plugin's UI shows lives in src/ui/strings.ts, so that it can be reviewed and
// translated in one place. This check reads the sources of src/ui and src/commands and fails on a
// string literal with words in it anywhere else: given to a call or a key that puts text on screen
// (setName, setDesc, setText, new Notice, text:, aria-label, ...), or one that reads like prose
// (a capitalised word, or two words with a space between them) wherever it stands. Not counted:
// literals without letters (" · ", "0-100"), literal types, module names, the operands of a
// comparison and the arguments of a lookup (key names such as "Enter" are data, not text), and
// what only developers read (console, new Error).

const ROOT = join(__dirname, "..", "..");
const FOLDERS = ["src/ui", "src/commands"];
const STRINGS_FILE = "src/ui/strings.ts";

/** Calls whose arguments are shown as text (by method name), and which arguments: all, or those named. */
const TEXT_CALLS = new Map<string, number[] | "all">([
	...["setName", "setDesc", "setText", "setTitle", "setPlaceholder", "setButtonText", "setTooltip", "setFormError", "setError", "missing", "showErrors"].map((m) => [m, "all"] as [string, "all"]),
	["setTextIfChanged", [1]],
	["addRibbonIcon", [1]],
	["addAction", [1]],
]);
/** Calls whose arguments are data, never shown (a lookup, a log line for developers). */
const DATA_CALLS = new Set(["includes", "startsWith", "endsWith", "indexOf", "has", "get", "querySelector", "querySelectorAll", "closest", "matches", "getAttribute", "hasAttribute", "removeAttribute"]);
/** Object keys whose values are shown as text (createEl options, attributes, rows). */
const TEXT_KEYS = new Set(["text", "title", "placeholder", "name", "desc", "heading", "label", "error", "aria-label", "aria-valuetext", "aria-description", "display"]);
/** Attributes shown to the user or read by assistive technology. */
const TEXT_ATTRIBUTES = new Set(["aria-label", "aria-valuetext", "aria-description", "title", "placeholder"]);
/** Words that are data in any language (a product name the UI shows as it is). */
const ALLOWED = new Set<string>([]);

interface Finding {
	file: string;
	line: number;
	text: string;
}

function sourceFiles(): string[] {
	const out: string[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const full = join(dir, name);
			if (statSync(full).isDirectory()) walk(full);
			else if (full.endsWith(".ts")) out.push(full);
		}
	};
	for (const folder of FOLDERS) walk(join(ROOT, folder));
	return out.filter((f) => relative(ROOT, f).split("\\").join("/") !== STRINGS_FILE);
}

/** The text of a literal without its substitutions. */
function staticText(node: ts.Node): string | null {
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ");
	return null;
}

const hasWord = (text: string) => /[A-Za-z]{2,}/.test(text);
const readsLikeProse = (text: string) => /\b[A-Z][a-z]{2,}/.test(text) || /[A-Za-z]{2,}[,.:;!?…]? [A-Za-z]{2,}/.test(text);

function isComparisonOperand(node: ts.Node): boolean {
	const parent = node.parent;
	if (!ts.isBinaryExpression(parent)) return false;
	const op = parent.operatorToken.kind;
	return op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
}

/** A direct argument of a lookup, of console.* or of `new Error` (a programming error, for developers). */
function isDataArgument(node: ts.Node): boolean {
	const parent = node.parent;
	if (ts.isNewExpression(parent)) return ts.isIdentifier(parent.expression) && /Error$/.test(parent.expression.text);
	if (!ts.isCallExpression(parent) || !parent.arguments.includes(node as ts.Expression)) return false;
	const callee = parent.expression;
	if (!ts.isPropertyAccessExpression(callee)) return false;
	return DATA_CALLS.has(callee.name.text) || (ts.isIdentifier(callee.expression) && callee.expression.text === "console");
}

function inTypeOrModulePosition(node: ts.Node): boolean {
	const parent = node.parent;
	return ts.isLiteralTypeNode(parent) || ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isImportTypeNode(parent.parent ?? parent);
}

function keyName(name: ts.PropertyName): string | null {
	return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;
}

/** Whether the literal is (part of) a value the UI shows: an argument of a text call, a text key's value, a text attribute. */
function inTextPosition(node: ts.Node): boolean {
	for (let at: ts.Node = node; at.parent; at = at.parent) {
		const parent = at.parent;
		if (ts.isPropertyAssignment(parent) && parent.initializer === at) {
			const key = keyName(parent.name);
			// `name` among an element's attributes is a form field's name, not its label.
			const holder = parent.parent.parent;
			if (key === "name" && ts.isPropertyAssignment(holder) && keyName(holder.name) === "attr") return false;
			return key !== null && TEXT_KEYS.has(key);
		}
		if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
			const index = parent.arguments?.indexOf(at as ts.Expression) ?? -1;
			if (index < 0) return false;
			const callee = parent.expression;
			if (ts.isNewExpression(parent)) return ts.isIdentifier(callee) && callee.text === "Notice";
			const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : "";
			if (method === "setAttr" || method === "setAttribute" || method === "setAttrIfChanged") {
				const nameArg = parent.arguments[method === "setAttrIfChanged" ? 1 : 0];
				return nameArg !== at && !!nameArg && ts.isStringLiteral(nameArg) && TEXT_ATTRIBUTES.has(nameArg.text);
			}
			const which = TEXT_CALLS.get(method);
			return which === "all" || (which !== undefined && which.includes(index));
		}
		// Through conditionals, ?? and ||, parentheses and templates, not into other expressions.
		if (!(ts.isConditionalExpression(parent) || ts.isBinaryExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isTemplateSpan(parent) || ts.isTemplateExpression(parent))) return false;
	}
	return false;
}

/** The literals with words in src/ui and src/commands outside strings.ts that the UI shows. */
function uiLiterals(files = sourceFiles()): Finding[] {
	const findings: Finding[] = [];
	for (const full of files) {
		const source = ts.createSourceFile(full, readFileSync(full, "utf8"), ts.ScriptTarget.Latest, true);
		const visit = (node: ts.Node): void => {
			const text = staticText(node);
			if (text !== null && !ts.isTemplateHead(node) && hasWord(text) && !ALLOWED.has(text) && !inTypeOrModulePosition(node) && !isComparisonOperand(node) && !isDataArgument(node)) {
				if (inTextPosition(node) || readsLikeProse(text)) {
					findings.push({ file: relative(ROOT, full).split("\\").join("/"), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
				}
			}
			if (!ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
			else node.templateSpans.forEach((span) => visit(span.expression));
		};
		visit(source);
	}
	return findings;
}

describe("the UI's words", () => {
	it("are all in src/ui/strings.ts", () => {
		expect(uiLiterals().map((f) => `${f.file}:${f.line} ${JSON.stringify(f.text)}`)).toEqual([]);
	});

	it("the check finds a word written outside strings.ts, and lets data through", () => {
		const dir = mkdtempSync(join(tmpdir(), "a2a-ui-strings-"));
		try {
			const file = join(dir, "planted.ts");
			writeFileSync(
				file,
				[
					'new Notice("Saved.");',
					'setting.setName("Colour").setDesc(`Shown ${n} times`);',
					'el.setAttr("aria-label", "Close");',
					'el.createEl("p", { cls: "a2a-x", text: "hello" });',
					'setTextIfChanged(el, done ? "" : `Done: ${n}`);',
					'const words = { group: "By group" };',
					'this.addAction("send", "send");',
					// data, not text:
					'if (evt.key === "Enter" || evt.key !== "Escape") el.addClass("a2a-row");',
					'plugin.addRibbonIcon("radio-tower", LABEL, () => undefined);',
					'console.error("A2A Relay:", error);',
					'throw new Error(`no field ${key}`);',
					'el.createEl("input", { attr: { name: "rename", placeholder: "0-100" } });',
					'if (marks.includes("not routed yet")) void 0;',
					'type Kind = "Text row" | "Other row";',
				].join("\n"),
			);
			expect(uiLiterals([file]).map((f) => `${f.line} ${f.text}`)).toEqual(["1 Saved.", "2 Colour", "2 Shown   times", "3 Close", "4 hello", "5 Done:  ", "6 By group", "7 send"]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
