// `npm test`: every check of this repository, in order, each step's output streamed:
//
//   typecheck (plugin, without Node types)  tsc -noEmit -p tsconfig.json
//   typecheck (tests, CLI, with Node types) tsc -noEmit -p tsconfig.node.json
//   lint                                    eslint --max-warnings 0 .
//   import graph                            node scripts/check-imports.mjs (no cycle, no import up a layer)
//   unit + integration tests                vitest run (default reporter + a JSON report)
//   build                                   npm run build (production main.js + dist/cli.cjs)
//   bundle check                            node scripts/check-bundle.mjs
//   release check                           node scripts/check-release.mjs (the release workflow's checks)
//   browser test                            node test/browser/run-browser-test.mjs (when it exists)
//   working tree unchanged                  git status before and after (in a git checkout)
//
// The browser test needs a Chromium: scripts/find-chromium.mjs finds one ($CHROME_PATH, chromium,
// chromium-browser or google-chrome), or installs Debian's chromium when this runs as root with
// apt-get; otherwise that step fails with the one command to run.
//
// Counting: each vitest test is one result (from the JSON report); every other step is one check,
// except the browser test, whose own `N passed, N failed` line is added when it prints one. A step
// that fails does not stop the run, except the build: without it the bundle check and the browser
// test cannot run and count as failed. The last line printed is exactly `N passed, N failed`; the
// exit status is non-zero when anything failed or when vitest ran no test.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./find-chromium.mjs";
import { ensureSyncTools } from "./sync-tools.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (pkg, file) => join(root, "node_modules", pkg, file);
const MINUTE = 60_000;

const tally = { passed: 0, failed: 0 };
const recap = [];
let vitestTestsRan = 0;

function record(name, passed, failed, detail) {
	tally.passed += passed;
	tally.failed += failed;
	recap.push({ name, passed, failed, detail });
	console.log(`\n${failed === 0 ? "✔" : "✘"} ${name}: ${detail}`);
}

let stepNumber = 0;
const STEPS = 9;
function banner(name, command) {
	stepNumber++;
	console.log(`\n━━━ [${stepNumber}/${STEPS}] ${name}: ${command}`);
}

let current = null;
for (const signal of ["SIGINT", "SIGTERM"]) {
	process.on(signal, () => {
		if (current) killGroup(current, "SIGTERM");
		console.log(`\n${signal}: stopped`);
		console.log(`${tally.passed} passed, ${tally.failed + 1} failed`);
		process.exit(130);
	});
}

function killGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}

/**
 * Runs one command in its own process group with output streamed, and resolves with its exit
 * status (a timeout kills the group and counts as status 124). With `capture`, stdout is also
 * collected for parsing.
 */
function run(command, args, { timeoutMs = 15 * MINUTE, capture = false, env = {} } = {}) {
	return new Promise((resolvePromise) => {
		const started = Date.now();
		let output = "";
		let timedOut = false;
		const child = spawn(command, args, {
			cwd: root,
			env: { ...process.env, ...env },
			stdio: ["ignore", capture ? "pipe" : "inherit", "inherit"],
			detached: true,
		});
		current = child;
		if (capture) {
			child.stdout.on("data", (chunk) => {
				process.stdout.write(chunk);
				output += chunk.toString();
			});
		}
		const timer = setTimeout(() => {
			timedOut = true;
			console.log(`\n(timed out after ${Math.round(timeoutMs / 1000)} s: stopping it)`);
			killGroup(child, "SIGTERM");
			setTimeout(() => killGroup(child, "SIGKILL"), 5000).unref();
		}, timeoutMs);
		const finish = (status) => {
			clearTimeout(timer);
			current = null;
			resolvePromise({ status: timedOut ? 124 : status, output, seconds: (Date.now() - started) / 1000 });
		};
		child.on("error", (error) => {
			console.log(`could not start ${command}: ${error.message}`);
			finish(127);
		});
		child.on("close", (code, signal) => finish(code ?? (signal ? 128 : 1)));
	});
}

const took = (r) => `${r.seconds.toFixed(1)} s`;

async function checkStep(name, shown, command, args, options) {
	banner(name, shown);
	const result = await run(command, args, options);
	if (result.status === 0) record(name, 1, 0, `passed (${took(result)})`);
	else record(name, 0, 1, `FAILED with exit status ${result.status} (${took(result)})`);
	return result.status === 0;
}

// npm, as the npm that runs this script when there is one.
function npm(args) {
	const npmCli = process.env.npm_execpath;
	return npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli, ...args]] : ["npm", args];
}

function stripAnsi(text) {
	// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with ESC
	return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}

async function vitestStep() {
	const name = "vitest (unit + integration)";
	const dir = mkdtempSync(join(tmpdir(), "a2a-vitest-"));
	const report = join(dir, "report.json");
	const args = [bin("vitest", "vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
	banner(name, "vitest run --reporter=default --reporter=json");
	const result = await run(process.execPath, args, { timeoutMs: 30 * MINUTE });
	let json = null;
	try {
		json = JSON.parse(readFileSync(report, "utf8"));
	} catch (error) {
		console.log(`(no readable JSON report at ${report}: ${error.message})`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	if (!json) {
		record(name, 0, 1, `FAILED: vitest exited with status ${result.status} and wrote no report (${took(result)})`);
		return;
	}
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	let brokenFiles = 0;
	for (const file of json.testResults ?? []) {
		const tests = file.assertionResults ?? [];
		for (const test of tests) {
			if (test.status === "passed") passed++;
			else if (test.status === "failed") failed++;
			else skipped++;
		}
		// A file that failed without a failing test did not load or crashed in a hook: one failure.
		if (file.status === "failed" && !tests.some((test) => test.status === "failed")) {
			brokenFiles++;
			failed++;
			const relative = String(file.name ?? "?").replace(`${root}/`, "");
			console.log(`✘ ${relative}: the file failed outside any test: ${oneLine(file.message ?? "")}`);
		}
	}
	vitestTestsRan = passed + (failed - brokenFiles);
	const parts = [`${passed} passed`, `${failed - brokenFiles} failed`];
	if (brokenFiles) parts.push(`${brokenFiles} file(s) failed to run`);
	if (skipped) parts.push(`${skipped} skipped or todo`);
	let extra = "";
	if (vitestTestsRan === 0 && failed === 0) {
		failed++;
		extra = `; FAILED: vitest ran no test (exit status ${result.status})`;
	} else if (result.status !== 0 && failed === 0) {
		// e.g. unhandled errors between tests, or a timeout: vitest failed though every test passed.
		failed++;
		extra = `; FAILED: vitest exited with status ${result.status}`;
	}
	record(name, passed, failed, `${parts.join(", ")}${extra} (${took(result)})`);
}

function oneLine(text, max = 200) {
	const flat = stripAnsi(String(text)).replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

async function browserStep(buildOk) {
	const name = "browser test";
	const script = join(root, "test", "browser", "run-browser-test.mjs");
	if (!existsSync(script)) {
		stepNumber++;
		console.log(`\n━━━ [${stepNumber}/${STEPS}] ${name}`);
		console.log("NOTE: test/browser/run-browser-test.mjs does not exist yet: the browser test is SKIPPED (not counted)");
		recap.push({ name, passed: 0, failed: 0, detail: "skipped: test/browser/run-browser-test.mjs does not exist" });
		return;
	}
	if (!buildOk) {
		stepNumber++;
		console.log(`\n━━━ [${stepNumber}/${STEPS}] ${name}`);
		record(name, 0, 1, "FAILED: not run, the build failed");
		return;
	}
	banner(name, "node test/browser/run-browser-test.mjs");
	let chromium;
	try {
		chromium = ensureChromium();
	} catch (error) {
		console.log(error.message);
		record(name, 0, 1, `FAILED: not run, no Chromium (${oneLine(error.message.split("\n")[0])})`);
		return;
	}
	const result = await run(process.execPath, [script], { timeoutMs: 15 * MINUTE, capture: true, env: { CHROME_PATH: chromium } });
	const counts = [...stripAnsi(result.output).matchAll(/^\s*(\d+) passed, (\d+) failed\s*$/gm)].pop();
	if (counts) {
		const passed = Number(counts[1]);
		let failed = Number(counts[2]);
		let extra = "";
		if (result.status !== 0 && failed === 0) {
			failed = 1;
			extra = `; FAILED: it exited with status ${result.status}`;
		}
		record(name, passed, failed, `${counts[1]} passed, ${counts[2]} failed${extra} (${took(result)})`);
	} else if (result.status === 0) {
		record(name, 1, 0, `passed, no "N passed, N failed" line so counted as one check (${took(result)})`);
	} else {
		record(name, 0, 1, `FAILED with exit status ${result.status} (${took(result)})`);
	}
}

/**
 * What git sees in the working tree: each changed or untracked path with its status and a hash of
 * its content (so a file that was already modified and is rewritten counts too), or null outside a
 * git checkout. Ignored files (main.js, dist/, test-results/) are not part of it.
 */
function workingTree() {
	const result = spawnSync("git", ["status", "--porcelain=v1", "-z", "--no-renames", "--untracked-files=all"], { cwd: root, encoding: "utf8" });
	if (result.status !== 0) return null;
	const state = new Map();
	for (const entry of result.stdout.split("\0").filter(Boolean)) {
		const path = entry.slice(3);
		let hash = "";
		try {
			hash = createHash("sha1").update(readFileSync(join(root, path))).digest("hex");
		} catch {
			// deleted, or a folder or link: its status says enough
		}
		state.set(path, `${entry.slice(0, 2)} ${hash}`);
	}
	return state;
}

function workingTreeStep(before) {
	const name = "working tree unchanged";
	stepNumber++;
	console.log(`\n━━━ [${stepNumber}/${STEPS}] ${name}: git status before and after`);
	if (before === null) {
		console.log("NOTE: not a git checkout: not checked (not counted)");
		recap.push({ name, passed: 0, failed: 0, detail: "skipped: not a git checkout" });
		return;
	}
	const after = workingTree() ?? new Map();
	const changed = [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path)).sort();
	if (changed.length === 0) record(name, 1, 0, "passed: the checks wrote nothing git tracks or would add");
	else {
		for (const path of changed) console.log(`  changed by the checks: ${path} (${after.get(path)?.slice(0, 2).trim() || "gone"})`);
		record(name, 0, 1, `FAILED: the checks changed ${changed.length} file(s) in the working tree: ${changed.slice(0, 3).join(", ")}`);
	}
}

console.log(`A2A Relay: all checks (node ${process.version}, ${root})`);
const treeBefore = workingTree();

await checkStep("typecheck plugin", "tsc -noEmit -p tsconfig.json", process.execPath, [bin("typescript", "bin/tsc"), "-noEmit", "-p", "tsconfig.json"], { timeoutMs: 10 * MINUTE });
await checkStep("typecheck tests and CLI", "tsc -noEmit -p tsconfig.node.json", process.execPath, [bin("typescript", "bin/tsc"), "-noEmit", "-p", "tsconfig.node.json"], { timeoutMs: 10 * MINUTE });
await checkStep("lint", "eslint --max-warnings 0 .", process.execPath, [bin("eslint", "bin/eslint.js"), "--max-warnings", "0", "."], { timeoutMs: 10 * MINUTE });
await checkStep("import graph", "node scripts/check-imports.mjs", process.execPath, [join(root, "scripts", "check-imports.mjs")], { timeoutMs: 5 * MINUTE });
try {
	// Before the tests that need them; a missing tool fails those tests, with this message above them.
	ensureSyncTools();
} catch (error) {
	console.log(`\n${error.message}`);
}
await vitestStep();
const [npmCommand, npmArgs] = npm(["run", "build"]);
const buildOk = await checkStep("build", "npm run build", npmCommand, npmArgs, { timeoutMs: 10 * MINUTE });
if (buildOk) {
	await checkStep("bundle check", "node scripts/check-bundle.mjs", process.execPath, [join(root, "scripts", "check-bundle.mjs")], { timeoutMs: 5 * MINUTE });
	await checkStep("release check", "node scripts/check-release.mjs", process.execPath, [join(root, "scripts", "check-release.mjs")], { timeoutMs: 5 * MINUTE });
} else {
	for (const name of ["bundle check", "release check"]) {
		stepNumber++;
		console.log(`\n━━━ [${stepNumber}/${STEPS}] ${name}`);
		record(name, 0, 1, "FAILED: not run, the build failed");
	}
}
await browserStep(buildOk);
workingTreeStep(treeBefore);

console.log("\n━━━ summary");
for (const step of recap) {
	const mark = step.failed > 0 ? "✘" : step.passed > 0 ? "✔" : "-";
	console.log(`${mark} ${step.name.padEnd(28)} ${step.detail}`);
}
if (vitestTestsRan === 0) console.log("vitest ran no test: this run counts as failed");
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exitCode = tally.failed > 0 || vitestTestsRan === 0 ? 1 : 0;
