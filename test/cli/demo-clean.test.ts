import { execFileSync, spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm run demo` leaves the checkout as it found it (issue 28, item 8): it plays in a copy of
// demo/vault that git ignores, and says where that copy is. Run here in a fresh repository made of
// the files the demo uses (its scripts, the demo vault, the launcher, .gitignore), with the CLI
// bundle built where the launcher looks for it; --no-build skips the plugin's build.

const repo = path.resolve(__dirname, "..", "..");
let clone = "";

function git(...args: string[]): string {
	return execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { cwd: clone, encoding: "utf8" });
}

beforeAll(async () => {
	clone = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-demo-clone-"));
	for (const item of ["scripts", "demo", "bin", ".gitignore", "package.json"]) await fs.cp(path.join(repo, item), path.join(clone, item), { recursive: true });
	// Only what git tracks of the demo vault: leftovers of a demo played here before are not part of a clone.
	git("init", "-q");
	git("add", "-A");
	git("commit", "-qm", "clone");
	git("clean", "-qfdX");
	await esbuild.build({ entryPoints: [path.join(repo, "cli", "bin.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: path.join(clone, "dist", "cli.cjs"), logLevel: "silent" });
}, 60_000);

afterAll(async () => {
	if (clone) await fs.rm(clone, { recursive: true, force: true });
});

describe("npm run demo", () => {
	it("plays in demo/played-vault, says so, and leaves git status clean", async () => {
		{
			const played = spawnSync(process.execPath, ["scripts/demo.mjs", "--no-build"], { cwd: clone, encoding: "utf8", timeout: 120_000, env: { ...process.env, FORCE_COLOR: "0" } });
			expect({ status: played.status, stderr: played.stderr }).toMatchObject({ status: 0 });
			expect(played.stdout).toContain(`Done. Open ${path.join(clone, "demo", "played-vault")} in Obsidian`);
			expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
		}
		const archive = await fs.readdir(path.join(clone, "demo", "played-vault", "A2A", "groups", "10-backend-group", "archive"));
		expect(archive.length).toBeGreaterThan(0);
	}, 240_000);
});
