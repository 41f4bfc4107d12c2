import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// scripts/find-chromium.mjs, the way `npm test` finds the browser for its browser test. Run with
// --no-install: a test never installs anything. A2A_CHROMIUM_SEARCH_PATH hides this machine's
// browsers, as on a fresh machine.

const script = path.resolve(__dirname, "..", "..", "scripts", "find-chromium.mjs");
let dir = "";
beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-find-chromium-"));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

function find(env: Record<string, string | undefined>) {
	const base: NodeJS.ProcessEnv = { ...process.env };
	delete base.CHROME_PATH;
	const result = spawnSync(process.execPath, [script, "--no-install"], { env: { ...base, ...env }, encoding: "utf8", timeout: 20_000 });
	return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

async function fakeBrowser(name: string): Promise<string> {
	const file = path.join(dir, name);
	await fs.writeFile(file, "#!/bin/sh\necho fake\n", { mode: 0o755 });
	return file;
}

describe("find-chromium", () => {
	it("with no browser anywhere it looks in, it stops with the one command that installs one", async () => {
		const result = find({ A2A_CHROMIUM_SEARCH_PATH: dir });
		expect(result.status).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("No Chromium for the browser test: looked for chromium, chromium-browser, google-chrome, google-chrome-stable");
		expect(result.stderr).toMatch(/apt-get update && (sudo )?apt-get install -y --no-install-recommends chromium|this system's package manager/);
		expect(result.stderr).toContain("CHROME_PATH");
	});

	it("finds chromium-browser or google-chrome too, in the folders it searches", async () => {
		const chrome = await fakeBrowser("google-chrome");
		expect(find({ A2A_CHROMIUM_SEARCH_PATH: dir })).toMatchObject({ status: 0, stdout: chrome });
		const chromiumBrowser = await fakeBrowser("chromium-browser");
		expect(find({ A2A_CHROMIUM_SEARCH_PATH: dir })).toMatchObject({ status: 0, stdout: chromiumBrowser });
	});

	it("$CHROME_PATH wins; when it names nothing executable, it says so instead of guessing", async () => {
		const custom = await fakeBrowser("my-chrome");
		await fakeBrowser("chromium");
		expect(find({ A2A_CHROMIUM_SEARCH_PATH: dir, CHROME_PATH: custom })).toMatchObject({ status: 0, stdout: custom });
		const missing = find({ A2A_CHROMIUM_SEARCH_PATH: dir, CHROME_PATH: path.join(dir, "nope") });
		expect(missing.status).toBe(1);
		expect(missing.stderr).toContain(`CHROME_PATH=${path.join(dir, "nope")} is not an executable file`);
	});

	it("a file that is not executable is not a browser", async () => {
		await fs.writeFile(path.join(dir, "chromium"), "not a program", { mode: 0o644 });
		expect(find({ A2A_CHROMIUM_SEARCH_PATH: dir }).status).toBe(1);
	});
});
