import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { terminalBlock, terminalLines, terminalText } from "../../src/core/terminal-text";
import { main } from "../../cli/main";
import { logSafe } from "../../servers/a2a/http-io";

// Issue 27, finding 6: the one helper that makes outside text safe to print for a person.

const ACTS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("terminalText", () => {
	it("shows C0, DEL, C1 and bidirectional controls as visible escapes, newlines and tabs included", () => {
		expect(terminalText("a\x1b]52;c;eA==\x07b")).toBe("a\\x1b]52;c;eA==\\x07b");
		expect(terminalText("red\x1b[31m\rover\nnext\tcol")).toBe("red\\x1b[31m\\rover\\nnext\\tcol");
		expect(terminalText("\x00\x7f\x85\x9b")).toBe("\\x00\\x7f\\x85\\x9b");
		expect(terminalText("a\u202egnp.md \u2066x\u2069 \u200e\u200f\u061c \u2028\u2029")).toBe("a\\u202egnp.md \\u2066x\\u2069 \\u200e\\u200f\\u061c \\u2028\\u2029");
	});

	it("leaves every other text as it is (letters of any script, emoji, spaces, backslashes)", () => {
		for (const text of ["Bericht über Ärger", "تقرير", "報告 😀", "C:\\path\\x1b", "a\u00a0b"]) expect(terminalText(text)).toBe(text);
	});

	it("never lets through a character a terminal acts on, for any text", () => {
		const char = fc.oneof(fc.integer({ min: 0, max: 0xa0 }).map((c) => String.fromCharCode(c)), fc.constantFrom("\u061c", "\u200e", "\u2028", "\u202a", "\u202e", "\u2066", "\u2069", "é", "😀"));
		fc.assert(
			fc.property(fc.array(char, { maxLength: 30 }).map((chars) => chars.join("")), (text) => !ACTS.test(terminalText(text)) && !ACTS.test(terminalLines(text).join("").replace(/\t/g, ""))),
			{ numRuns: 5000 },
		);
	});

	it("shows every invisible format character escaped, so two ids never look alike, but keeps the joiner of emoji", () => {
		expect(terminalText("id\u200b1 \u2060 \ufeff \u00ad \u180e \u{e0041}")).toBe("id\\u200b1 \\u2060 \\ufeff \\xad \\u180e \\u{e0041}");
		expect(terminalText("a\ud800b")).toBe("a\\ud800b");
		expect(terminalLines("x\u200by\tz")).toEqual(["x\\u200by\tz"]);
		expect(terminalText("👩\u200d💻")).toBe("👩\u200d💻");
	});

	it("keeps a multi-line text's lines (LF or CRLF) and tabs, escaping the rest of each line", () => {
		expect(terminalLines("one\r\n\ttwo\x1b[2J\rthree\n")).toEqual(["one", "\ttwo\\x1b[2J\\rthree", ""]);
		expect(terminalBlock("a\nb\x07")).toBe("a\nb\\x07");
	});
});

describe("the CLI's last guard", () => {
	it("prints an error message holding outside text escaped, on one line", async () => {
		const err: string[] = [];
		const code = await main(["read", "x\x1b]52;c;eA==\x07\ny", "extra\r", "--vault", "/nonexistent-a2a-vault"], { out: () => undefined, err: (l) => err.push(l) });
		expect(code).toBeGreaterThan(0);
		for (const line of err) expect(line, JSON.stringify(line)).not.toMatch(ACTS);
	});
});

describe("a2a serve's log lines", () => {
	it("show a client's method and path through the same helper, cut to their length", () => {
		expect(logSafe("/groups/x\x1b]52;c;eA==\x07\u202e/")).toBe("/groups/x\\x1b]52;c;eA==\\x07\\u202e/");
		expect(logSafe("x".repeat(300))).toBe(`${"x".repeat(200)}…`);
	});
});
