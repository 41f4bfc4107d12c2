import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";

// What a merge or a debugging session can leave behind in the repository: conflict markers in a
// tracked file (they render as text in the README a user reads), or command output saved at the root.

const root = path.resolve(__dirname, "..", "..");
const TEXT = /\.(md|ts|mts|mjs|cjs|js|json|css|ya?ml|sh|py|txt)$/;

function trackedFiles(): string[] | null {
	if (!existsSync(path.join(root, ".git"))) return null;
	return execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
}

it("no tracked text file holds a merge conflict marker", () => {
	const files = trackedFiles();
	if (files === null) return;
	const marked = files
		.filter((f) => TEXT.test(f) && existsSync(path.join(root, f)))
		.flatMap((f) => readFileSync(path.join(root, f), "utf8").split("\n").flatMap((line, i) => (/^(<<<<<<<|>>>>>>>) /.test(line) ? [`${f}:${i + 1}`] : [])));
	expect(marked).toEqual([]);
});

it("the repository root tracks no stray output files", () => {
	const files = trackedFiles();
	if (files === null) return;
	expect(files.filter((f) => !f.includes("/") && /\.(out|err|log|tmp)$/.test(f))).toEqual([]);
});
