// Browser test of the agent status view: the PRODUCTION main.js, loaded against the fake Obsidian
// in headless Chromium (driven by playwright-core; scripts/find-chromium.mjs finds or installs it),
// with Obsidian-like light and dark theme variables and the plugin's styles.css. Two vaults:
//
//   - the test fixture (fixture-vault.ts), with hostile strings and odd values: the rendered DOM,
//     the live updates, keyboard use, themes and the layout at a phone's width are checked on it;
//     its pictures are test-results/fixture-{light,dark,phone}.png;
//   - the demo vault after `npm run demo` (played into a temporary copy by scripts/demo.mjs): what
//     a newcomer sees, checked for test strings and for the one agent stale on purpose, and shown in
//     test-results/agent-status-{light,dark}.png; the trace of its migration conversation (a cycle
//     rejected, a request timed out after its retries) in test-results/trace-demo-{light,dark}.png.
//
// Usage: node test/browser/run-browser-test.mjs [--update-docs]
//   (builds main.js and dist/cli.cjs first when missing or older than the sources). Writes only
//   under test-results/; with --update-docs (`npm run screenshots`) it also copies the demo
//   vault's pictures to docs/images/ when every check before that passed. Prints one line per check and ends
//   with exactly `N passed, N failed`; the exit status is non-zero when a check failed. Nothing
//   leaves 127.0.0.1.
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { chromium } from "playwright-core";
import { STALE_AGENT } from "../../scripts/demo-times.mjs";
import { ensureChromium } from "../../scripts/find-chromium.mjs";
import { runUiChecks } from "./ui-checks.mjs";
import { PHONE_WIDTH, RAW_ISO, runFirstMinuteChecks, visibleText } from "./first-minute-checks.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const here = join(root, "test", "browser");
const results = join(root, "test-results");
const UPDATE_DOCS = process.argv.includes("--update-docs");
/** `--cost-only` (for `npm run bench`): only the view's cost in Chromium, printed as a `COST {json}` line. */
const COST_ONLY = process.argv.includes("--cost-only");
/** `--cost-history=N`: the archived messages of the cost page with history (20,000 unless told; the year bench asks 100,000). */
const COST_HISTORY = Number(process.argv.find((a) => a.startsWith("--cost-history="))?.slice("--cost-history=".length) ?? 20000);
const costFigures = {};
/** Text that must never show in the README's pictures: markup, script, the fixture's hostile strings. */
const TEST_STRINGS = /<img|<script|onerror|alert\(|javascript:/i;

const tally = { passed: 0, failed: 0 };

function report(name, error) {
	if (error) {
		tally.failed++;
		console.log(`✘ ${name}\n    ${String(error?.stack ?? error).split("\n").slice(0, 6).join("\n    ")}`);
	} else {
		tally.passed++;
		console.log(`✔ ${name}`);
	}
}

/** One check; with `--cost-only`, only those marked `cost` run. */
async function check(name, fn, { cost = false } = {}) {
	if (COST_ONLY && !cost) return;
	try {
		const note = await fn();
		report(note ? `${name} (${note})` : name);
	} catch (error) {
		report(name, error);
	}
}

function assert(condition, message) {
	if (!condition) throw new Error(message);
}

function assertEqual(actual, expected, what) {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

function finish(code) {
	if (COST_ONLY) console.log(`COST ${JSON.stringify(costFigures)}`);
	console.log(`${tally.passed} passed, ${tally.failed} failed`);
	process.exit(code ?? (tally.failed > 0 ? 1 : 0));
}

// ---- build what the page needs ---------------------------------------------------------------

function newestSourceTime() {
	let newest = 0;
	const visit = (path) => {
		const st = statSync(path);
		if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
		else if (/\.(ts|json)$/.test(path)) newest = Math.max(newest, st.mtimeMs);
	};
	for (const entry of ["main.ts", "src", "manifest.json", "package.json"]) if (existsSync(join(root, entry))) visit(join(root, entry));
	return newest;
}

function ensureMainJs() {
	const mainJs = join(root, "main.js");
	const cliJs = join(root, "dist", "cli.cjs");
	const newest = newestSourceTime();
	if ([mainJs, cliJs].every((f) => existsSync(f) && statSync(f).mtimeMs >= newest)) return "main.js and dist/cli.cjs are up to date";
	console.log("main.js or dist/cli.cjs is missing or older than the sources: building them");
	const built = spawnSync(process.execPath, ["esbuild.config.mjs", "production"], { cwd: root, stdio: "inherit" });
	if (built.status !== 0 || !existsSync(mainJs) || !existsSync(cliJs)) throw new Error(`node esbuild.config.mjs production failed (status ${built.status})`);
	return "built main.js and dist/cli.cjs";
}

/** Files of the demo vault that the build or Obsidian put there, not part of the vault's content. */
const DEMO_SKIP = /^(\.obsidian\/plugins\/a2a-relay\/(main\.js|manifest\.json|styles\.css)|\.obsidian\/workspace.*\.json|\.a2a-demo\.json|A2A\/\.router\.lock)$/;

/**
 * The demo vault as a newcomer sees it after `npm run demo`: demo/vault copied to a temporary
 * folder, the scenario played there by scripts/demo.mjs (demo/vault itself is not touched), then
 * every text file read back (vault-relative path -> text), and what `a2a status --json` reports.
 */
function playDemoVault() {
	const dir = mkdtempSync(join(tmpdir(), "a2a-demo-vault-"));
	try {
		const vault = join(dir, "vault");
		cpSync(join(root, "demo", "vault"), vault, { recursive: true, filter: (src) => !DEMO_SKIP.test(relativePath(join(root, "demo", "vault"), src)) });
		const played = spawnSync(process.execPath, [join(root, "scripts", "demo.mjs"), "--vault", vault, "--no-build"], { cwd: root, encoding: "utf8", timeout: 120_000 });
		if (played.status !== 0) throw new Error(`scripts/demo.mjs --vault ${vault} --no-build failed (status ${played.status}):\n${played.stdout}\n${played.stderr}`);
		const status = spawnSync(process.execPath, [join(root, "bin", "a2a.cjs"), "status", "--json", "--vault", vault], { encoding: "utf8" });
		if (status.status !== 0) throw new Error(`a2a status --json failed: ${status.stderr}`);
		const lines = status.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
		const files = {};
		const walk = (folder) => {
			for (const entry of readdirSync(folder, { withFileTypes: true })) {
				const full = join(folder, entry.name);
				if (entry.isDirectory()) walk(full);
				else if (/\.(md|ya?ml|json|base|canvas)$/.test(entry.name) && !DEMO_SKIP.test(relativePath(vault, full))) files[relativePath(vault, full)] = readFileSync(full, "utf8");
			}
		};
		walk(vault);
		return { files, agents: lines.filter((l) => l.type === "agent") };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function relativePath(from, to) {
	return to === from ? "" : to.slice(from.length + 1).split(sep).join("/");
}

async function bundlePage() {
	const out = await esbuild.build({
		entryPoints: [join(here, "page.ts")],
		bundle: true,
		write: false,
		format: "iife",
		platform: "browser",
		target: "es2020",
		sourcemap: "inline",
		logLevel: "warning",
	});
	return out.outputFiles[0].text;
}

const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A2A Relay: agent status (browser test)</title>
<link rel="stylesheet" href="/obsidian-base.css">
<link rel="stylesheet" href="/obsidian-ui.css">
<link rel="stylesheet" href="/styles.css">
</head>
<body class="theme-light">
<script src="/mermaid.js"></script>
<script src="/page.js"></script>
</body>
</html>
`;

function serve(files) {
	const server = createServer((req, res) => {
		const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
		const file = files[path];
		if (!file) {
			res.writeHead(404, { "content-type": "text/plain" });
			res.end("not found");
			return;
		}
		res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" });
		res.end(file.body());
	});
	return new Promise((resolvePromise, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolvePromise(server));
	});
}

// ---- in-page helpers (run in Chromium through page.evaluate) -----------------------------------

const inPage = {
	/** Rows as the view shows them. */
	rows: () =>
		Array.from(document.querySelectorAll(".a2a-status-view .a2a-agent-row")).map((row) => ({
			name: row.getAttribute("data-agent"),
			status: row.getAttribute("data-status"),
			progress: row.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow") ?? null,
			min: row.querySelector('[role="progressbar"]')?.getAttribute("aria-valuemin"),
			max: row.querySelector('[role="progressbar"]')?.getAttribute("aria-valuemax"),
			visible: row.getClientRects().length > 0,
			fill: row.querySelector(".a2a-progress-fill")?.getBoundingClientRect().width ?? 0,
			bar: row.querySelector(".a2a-progress")?.getBoundingClientRect().width ?? 0,
		})),
};

// ---- main ---------------------------------------------------------------------------------------

let server;
let context;
let userDataDir;
try {
	try {
		console.log(ensureMainJs());
	} catch (error) {
		report("build main.js", error);
		finish(1);
	}
	let executablePath;
	try {
		executablePath = ensureChromium();
	} catch (error) {
		console.log(error.message);
		report("find Chromium", new Error("no Chromium: see above"));
		finish(1);
	}
	let demo = null;
	await check("the demo's scenario plays into a copy of demo/vault (scripts/demo.mjs --vault)", async () => {
		demo = playDemoVault();
		assert(demo.agents.length > 0, "a2a status --json lists no agent in the played demo vault");
		return `${Object.keys(demo.files).length} files, ${demo.agents.length} agents`;
	});
	const pageJs = await bundlePage();
	const text = (path) => () => readFileSync(join(root, path));
	server = await serve({
		"/": { type: "text/html; charset=utf-8", body: () => PAGE_HTML },
		"/page.js": { type: "text/javascript; charset=utf-8", body: () => pageJs },
		"/main.js": { type: "text/javascript; charset=utf-8", body: text("main.js") },
		"/manifest.json": { type: "application/json", body: text("manifest.json") },
		"/styles.css": { type: "text/css; charset=utf-8", body: text("styles.css") },
		"/obsidian-base.css": { type: "text/css; charset=utf-8", body: text("test/browser/obsidian-base.css") },
		"/demo-vault.json": { type: "application/json", body: () => JSON.stringify(demo?.files ?? {}) },
		"/obsidian-ui.css": { type: "text/css; charset=utf-8", body: text("test/browser/obsidian-ui.css") },
		// Obsidian draws Mermaid diagrams with the library it bundles; the fake draws them with this one.
		"/mermaid.js": { type: "text/javascript; charset=utf-8", body: text("node_modules/mermaid/dist/mermaid.min.js") },
	});
	const url = `http://127.0.0.1:${server.address().port}/`;

	userDataDir = mkdtempSync(join(tmpdir(), "a2a-chromium-"));
	context = await chromium.launchPersistentContext(userDataDir, {
		executablePath,
		headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
		viewport: { width: 420, height: 900 },
		deviceScaleFactor: 1,
	});
	// Only localhost: anything else is refused before it leaves the machine.
	await context.route(/^(?!http:\/\/127\.0\.0\.1:)/, (route) => route.abort());
	const page = context.pages()[0] ?? (await context.newPage());
	const pageErrors = [];
	const dialogs = [];
	page.on("pageerror", (error) => pageErrors.push(String(error?.stack ?? error)));
	page.on("console", (msg) => {
		if (msg.type() === "error") pageErrors.push(`console.error: ${msg.text()}`);
	});
	page.on("dialog", (dialog) => {
		dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	mkdirSync(results, { recursive: true });

	await page.goto(url);
	const ready = await page.evaluate(() => window.a2aReady);
	await check("the production main.js loads against the fake and the view opens by its command", async () => {
		assert(ready === "ok", `the page did not start: ${ready}`);
		const info = await page.evaluate(() => ({
			leaf: !!document.querySelector('.mod-right-split .workspace-leaf-content[data-type="a2a-agent-status"] .a2a-status-view'),
			errors: window.a2a.errors(),
		}));
		assert(info.leaf, "no agent status view in the right sidebar");
		assertEqual(info.errors, [], "errors recorded by the fake host");
		assertEqual(pageErrors, [], "page errors");
	});
	if (ready !== "ok") finish(1);

	const expected = await page.evaluate(() => window.a2aExpected);

	/** Detailed rows (every agent's details shown) or the compact one-line rows, by the toolbar's switch. */
	const setCompact = (on, compact) =>
		on.evaluate((want) => {
			const toggle = document.querySelector(".a2a-compact-toggle");
			if (toggle && (toggle.getAttribute("aria-pressed") === "true") !== want) toggle.click();
		}, compact);

	await check("one row per agent, with data-agent and data-status", async () => {
		const rows = await page.evaluate(inPage.rows);
		const shown = rows.map((r) => `${r.name}=${r.status}`).sort();
		assertEqual(shown, expected.agents.map((a) => `${a.name}=${a.status}`).sort(), "rows");
		assert(rows.every((r) => r.visible), "a row is not visible");
	});

	await check("progress bars carry role, aria-valuenow, -min and -max, and are drawn to scale", async () => {
		const rows = await page.evaluate(inPage.rows);
		for (const agent of expected.agents) {
			const row = rows.find((r) => r.name === agent.name);
			assert(row, `no row for ${agent.name}`);
			assertEqual(row.progress, agent.progress, `aria-valuenow of ${agent.name}`);
			assertEqual([row.min, row.max], ["0", "100"], `aria-valuemin/max of ${agent.name}`);
			const drawn = row.bar > 0 ? Math.round((row.fill / row.bar) * 100) : -1;
			const want = agent.progress === null ? 0 : Number(agent.progress);
			assert(Math.abs(drawn - want) <= 2, `${agent.name}: the bar is drawn at ${drawn}%, not ${want}%`);
		}
	});

	await check("counts per status and the stale count", async () => {
		const counts = await page.evaluate(() =>
			Object.fromEntries(Array.from(document.querySelectorAll('.a2a-summary[aria-label="Agents per status"] [data-count]')).map((el) => [el.getAttribute("data-count"), el.getAttribute("data-value")])),
		);
		const want = { total: String(expected.agents.length), stale: "1" };
		for (const agent of expected.agents) want[agent.status] = String(Number(want[agent.status] ?? 0) + 1);
		assertEqual(Object.keys(counts).sort(), Object.keys(want).sort(), "count chips");
		for (const [key, value] of Object.entries(want)) assertEqual(counts[key], value, `count of ${key}`);
	});

	await check("seed 000's note under Runs shows role, group, last action, result and latest finding", async () => {
		const seed = await page.evaluate(() => {
			const row = document.querySelector('.a2a-agent-row[data-agent="ui-explorer-01"]');
			const text = (sel) => row?.querySelector(sel)?.textContent ?? null;
			return { meta: text(".a2a-agent-meta"), action: text(".a2a-agent-action"), result: text(".a2a-agent-result"), finding: text(".a2a-agent-finding"), age: text(".a2a-agent-age") };
		});
		assertEqual(seed.meta, "UI Explorer · 50-qa-group", "role and group");
		assertEqual(seed.action, "Checking navigation links", "last action");
		assertEqual(seed.result, "Result: pending", "result");
		// A time of day stays as the agent wrote it, without the brackets of the heading.
		assertEqual(seed.finding, "Latest finding: 10:30:15 · Navigation Check Complete", "latest finding");
		assert(/^(a few seconds|\d+ seconds) ago$/.test(seed.age ?? ""), `age: ${seed.age}`);
	});

	await check("message flow: queues per group, dead letters and routing decisions", async () => {
		const flow = await page.evaluate(() => {
			const groups = {};
			for (const tr of Array.from(document.querySelectorAll(".a2a-queue-table tbody tr"))) {
				groups[tr.getAttribute("data-group")] = Object.fromEntries(Array.from(tr.querySelectorAll("[data-count]")).map((td) => [td.getAttribute("data-count"), td.textContent]));
			}
			return {
				groups,
				dead: document.querySelector(".a2a-dead-letters")?.getAttribute("data-count"),
				deadItems: Array.from(document.querySelectorAll(".a2a-dead-item")).map((el) => ({ path: el.getAttribute("data-path"), code: el.getAttribute("data-error-code") })),
				decisions: Array.from(document.querySelectorAll(".a2a-decision")).map((el) => `${el.getAttribute("data-outcome")}:${el.getAttribute("data-error-code") ?? ""}`).sort(),
				empty: document.querySelector(".a2a-flow-empty")?.classList.contains("a2a-hidden"),
			};
		});
		assertEqual(flow.empty, true, "the flow's empty state is hidden");
		// The frontend's inbox: the backend's request, and the error response for its message to an
		// unknown group (an old dead letter gets no new response: it was answered when it died).
		assertEqual(flow.groups, {
			"10-backend-group": { inbox: "0", outbox: "0", "in-flight": "1", overdue: "0" },
			"20-frontend-group": { inbox: "2", outbox: "0", "in-flight": "0", overdue: "0" },
			"30-devops-group": { inbox: "0", outbox: "0", "in-flight": "1", overdue: "0" },
			"40-security-group": { inbox: "2", outbox: "0", "in-flight": "0", overdue: "0" },
			"a2a-gateway": { inbox: "0", outbox: "0", "in-flight": "0", overdue: "0" },
		}, "queue counts");
		assertEqual(flow.dead, "3", "dead letters");
		assertEqual(flow.deadItems.map((d) => d.code).slice(-1), ["MAX_HOPS_EXCEEDED"], "the oldest dead letter comes last");
		assertEqual(flow.deadItems.map((d) => d.code).slice(0, 2).sort(), ["GROUP_NOT_FOUND", "INVALID_MESSAGE"], "the new dead letters come first");
		assertEqual(flow.decisions, ["delivered:", "delivered:", "rejected:GROUP_NOT_FOUND", "rejected:INVALID_MESSAGE"], "routing decisions");
	});

	await check("undelivered and recent messages lead with route and type, then one plain outcome; the file name and error code are on hover", async () => {
		const rows = await page.evaluate(() =>
			Array.from(document.querySelectorAll(".a2a-decision, .a2a-dead-item")).map((el) => ({
				lead: el.querySelector(".a2a-decision-link, .a2a-dead-link")?.textContent ?? "",
				first: el.querySelector(".a2a-note-link") === el.querySelector(".a2a-decision-link, .a2a-dead-link"),
				outcomes: el.querySelectorAll(".a2a-outcome, .a2a-state").length,
				title: el.querySelector(".a2a-note-link")?.getAttribute("title") ?? "",
				code: el.getAttribute("data-error-code"),
				dead: el.classList.contains("a2a-dead-item"),
			})),
		);
		assert(rows.length >= 6, `${rows.length} rows`);
		for (const row of rows) {
			assert(/^\S+ → \S+ · [\w-]+$/.test(row.lead), `a row leads with "${row.lead}"`);
			assert(row.first, `the route is not the row's first link: ${row.lead}`);
			if (!row.dead) assertEqual(row.outcomes, 1, `outcomes shown on ${row.lead}`);
			assert(/\.md/.test(row.title) && (!row.code || row.title.includes(row.code)), `hover of ${row.lead}: ${row.title}`);
		}
		return rows.slice(0, 2).map((r) => r.lead).join("; ");
	});

	await check("no raw ISO time in the sidebar's visible text (times are relative, exact on hover)", async () => {
		await setCompact(page, false);
		const text = await visibleText(page, ".a2a-status-view");
		await setCompact(page, true);
		const found = RAW_ISO.exec(text);
		assert(!found, `raw ISO time "${found?.[0]}" in: ${text.slice(Math.max(0, (found?.index ?? 0) - 80), (found?.index ?? 0) + 40)}`);
		const titles = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-status-view time[title]")).length);
		assert(titles >= 10, `only ${titles} times with their exact time on hover`);
		return `${titles} times`;
	});

	await check("9 agents: one line per agent by default (status dot, name, bar, age); a click opens a row, again closes it", async () => {
		const info = await page.evaluate(async () => {
			const rows = Array.from(document.querySelectorAll(".a2a-agent-row"));
			const heights = rows.map((r) => r.getBoundingClientRect().height);
			const row = document.querySelector('.a2a-agent-row[data-agent="migration-runner"]');
			const meta = () => row.querySelector(".a2a-agent-meta").getClientRects().length > 0;
			const before = meta();
			row.querySelector(".a2a-agent-age").click();
			const opened = meta() && row.querySelector(".a2a-row-toggle").getAttribute("aria-expanded") === "true";
			row.click();
			const alerts = Array.from(document.querySelectorAll(".a2a-agent-row")).filter((r) => r.querySelector(".a2a-alert-marker")?.getClientRects().length).map((r) => `${r.getAttribute("data-agent")}: ${r.querySelector(".a2a-alert-marker").textContent}`);
			return { heights, before, opened, after: meta(), alerts, compact: document.querySelector(".a2a-compact-toggle")?.getAttribute("aria-pressed") };
		});
		assertEqual(info.compact, "true", "the compact switch");
		// In tab order the filter comes before the count chips and the rows.
		const order = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-agents input, .a2a-agents button, .a2a-agents select, .a2a-agents a")).slice(0, 2).map((el) => el.className));
		assert(/a2a-filter/.test(order[0] ?? ""), `first in tab order: ${order.join(", ")}`);
		assert(Math.max(...info.heights) <= 40, `row heights ${info.heights.map(Math.round).join(", ")}`);
		assertEqual([info.before, info.opened, info.after], [false, true, false], "details hidden, shown on a click, hidden again");
		// An error or a warning hidden in the details is named on the compact row.
		assertEqual(info.alerts.sort(), ["api-validator: Error", "ux-auditor: Warning"], "compact rows that name an error or a warning");
		return `rows ${Math.round(Math.min(...info.heights))}-${Math.round(Math.max(...info.heights))} px high`;
	});

	await check("agent-provided HTML is shown as text, never run", async () => {
		const info = await page.evaluate(() => {
			const row = document.querySelector('.a2a-agent-row[data-agent="ux-auditor"]');
			return { action: row?.querySelector(".a2a-agent-action")?.textContent, imgs: document.querySelectorAll(".a2a-status-view img").length, warning: row?.querySelector(".a2a-agent-warning")?.textContent };
		});
		assertEqual(info.action, expected.xss, "last action text");
		assertEqual(info.imgs, 0, "img elements in the view");
		assertEqual(dialogs, [], "alert dialogs");
		assert((info.warning ?? "").includes("progress_percent 130 is outside 0-100"), `warning: ${info.warning}`);
	});

	await check("no inline styles but the progress custom property", async () => {
		const styles = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-status-view [style]")).map((el) => el.getAttribute("style")));
		const other = styles.filter((s) => !/^--a2a-progress: \d{1,3}%;?$/.test(s ?? ""));
		assertEqual(other, [], "inline styles");
		assert(styles.length === expected.agents.length, `${styles.length} progress fills for ${expected.agents.length} agents`);
	});

	// ---- looks: themes, contrast, phone width, screenshots -------------------------------------

	const contrastReport = (on) =>
		on.evaluate(() => {
			const parse = (c) => {
				const m = /rgba?\(([^)]+)\)/.exec(c);
				if (!m) return [0, 0, 0, 0];
				const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
				return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
			};
			const over = (top, bottom) => {
				const a = top[3];
				return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
			};
			const background = (el) => {
				const layers = [];
				for (let node = el; node; node = node.parentElement) {
					const c = parse(getComputedStyle(node).backgroundColor);
					if (c[3] > 0) layers.push(c);
					if (c[3] >= 1) break;
				}
				let color = [255, 255, 255, 1];
				for (const layer of layers.reverse()) color = over(layer, color);
				return color;
			};
			const luminance = ([r, g, b]) => {
				const f = (v) => {
					const s = v / 255;
					return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
				};
				return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
			};
			const ratio = (el) => {
				const bg = background(el);
				const fg = over(parse(getComputedStyle(el).color), bg);
				const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
				return (l1 + 0.05) / (l2 + 0.05);
			};
			const selectors = [
				".a2a-agent-name",
				".a2a-agent-action",
				".a2a-agent-meta",
				".a2a-agent-age",
				".a2a-badge",
				".a2a-progress-label",
				".a2a-agent-result",
				".a2a-agent-error",
				".a2a-agent-warning",
				".a2a-stale-marker:not(.a2a-hidden)",
				".a2a-alert-marker:not(.a2a-hidden)",
				".a2a-section-summary",
				".a2a-count-chip",
				".a2a-queue-table td",
				".a2a-field-label",
				".a2a-finding-time",
				".a2a-agent-finding",
				".a2a-outcome",
				".a2a-decision-time",
				".a2a-decision-detail",
				".a2a-dead-reason",
				".a2a-dead-time",
				".a2a-show-more",
				".a2a-router-text",
				".a2a-section-title",
				".a2a-welcome-title",
				".a2a-welcome-intro",
				".a2a-step-text",
				".a2a-step-mark",
				".a2a-welcome-button",
				".a2a-queue-table thead th",
				".a2a-error-code",
				".a2a-decision-link",
				".a2a-dead-link",
			];
			const worst = {};
			for (const sel of selectors) {
				for (const el of Array.from(document.querySelectorAll(`.a2a-status-view ${sel}`))) {
					if (el.getClientRects().length === 0 || !(el.textContent ?? "").trim()) continue;
					const r = ratio(el);
					if (worst[sel] === undefined || r < worst[sel]) worst[sel] = Math.round(r * 100) / 100;
				}
			}
			const row = document.querySelector(".a2a-agent-row");
			return { worst, rowBackground: row ? getComputedStyle(row).backgroundColor : null };
		});

	const MIN_CONTRAST = 4.5;
	const setTheme = (on, theme) => on.evaluate((t) => document.body.classList.replace(t === "dark" ? "theme-light" : "theme-dark", `theme-${t}`), theme);
	const themeChecks = async (on, what, screenshotName, { minKinds = 12, rows = true } = {}) => {
		// Open the dead letters so the screenshots show them.
		await on.evaluate(() => document.querySelector(".a2a-dead-letters")?.setAttribute("open", ""));
		for (const theme of ["light", "dark"]) {
			await check(`${what}, ${theme} theme: readable text (contrast >= ${MIN_CONTRAST}:1, every text selector, labels and zero cells included) and the theme's colours`, async () => {
				await setTheme(on, theme);
				// Measured with every row's details shown, then with the compact rows.
				const compactBefore = await on.evaluate(() => document.querySelector(".a2a-compact-toggle")?.getAttribute("aria-pressed") === "true");
				await setCompact(on, false);
				const detailed = await contrastReport(on);
				await setCompact(on, true);
				const compact = await contrastReport(on);
				await setCompact(on, compactBefore);
				const worst = { ...compact.worst };
				for (const [sel, r] of Object.entries(detailed.worst)) worst[sel] = Math.min(r, worst[sel] ?? r);
				if (rows) assertEqual(detailed.rowBackground, theme === "light" ? "rgb(255, 255, 255)" : "rgb(30, 30, 30)", "row background");
				const low = Object.entries(worst).filter(([, r]) => r < MIN_CONTRAST);
				assertEqual(low, [], "text below the contrast minimum");
				assert(Object.keys(worst).length >= minKinds, `only ${Object.keys(worst).length} kinds of text were measured`);
				return `${Object.keys(worst).length} kinds of text, lowest ${Math.min(...Object.values(worst)).toFixed(2)}:1`;
			});
			await check(`${what}, ${theme} theme: screenshot test-results/${screenshotName}-${theme}.png`, async () => {
				const file = join(results, `${screenshotName}-${theme}.png`);
				await on.screenshot({ path: file, fullPage: true });
				assert(statSync(file).size > 10_000, "the screenshot is suspiciously small");
			});
		}
		await setTheme(on, "light");
	};
	await themeChecks(page, "test fixture", "fixture");

	await check(`phone width (${PHONE_WIDTH} px): everything wraps, nothing overflows sideways`, async () => {
		await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
		const overflow = await page.evaluate(() => {
			const wide = [];
			const view = document.querySelector(".a2a-status-view");
			for (const el of [view, ...Array.from(view.querySelectorAll("*"))]) {
				if (el.getClientRects().length === 0) continue;
				const r = el.getBoundingClientRect();
				// A name cut with an ellipsis (a compact row) is meant to be cut.
				const cut = getComputedStyle(el).textOverflow === "ellipsis";
				if (r.right > document.documentElement.clientWidth + 0.5 || (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible" && !cut)) {
					wide.push(`${el.tagName.toLowerCase()}.${Array.from(el.classList).join(".")} right=${Math.round(r.right)} scroll=${el.scrollWidth}/${el.clientWidth}`);
				}
			}
			return { wide: wide.slice(0, 5), page: document.documentElement.scrollWidth, width: document.documentElement.clientWidth };
		});
		assert(overflow.page <= overflow.width, `the page scrolls sideways: ${overflow.page} > ${overflow.width}`);
		assertEqual(overflow.wide, [], "elements wider than the screen");
		await page.screenshot({ path: join(results, "fixture-phone.png"), fullPage: true });
		await page.setViewportSize({ width: 420, height: 900 });
	});

	// ---- keyboard and controls -------------------------------------------------------------------

	await check("the filter box works from the keyboard; Escape clears it", async () => {
		await page.focus("input.a2a-filter");
		await page.keyboard.type("status:failed");
		const filtered = (await page.evaluate(inPage.rows)).filter((r) => r.visible).map((r) => r.name);
		assertEqual(filtered, ["api-validator"], "rows shown for status:failed");
		await page.keyboard.type(" nothing-matches");
		const empty = await page.evaluate(() => document.querySelector(".a2a-agents-empty")?.textContent);
		assert((empty ?? "").startsWith("No agent matches"), `empty state: ${empty}`);
		await page.keyboard.press("Escape");
		const all = (await page.evaluate(inPage.rows)).filter((r) => r.visible).length;
		assertEqual(all, expected.agents.length, "rows shown after Escape");
		assertEqual(await page.inputValue("input.a2a-filter"), "", "filter text after Escape");
	});

	await check("the grouping dropdown regroups by status and back", async () => {
		await page.selectOption("select.a2a-grouping", "status");
		const byStatus = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-agent-section")).map((s) => s.getAttribute("data-section")));
		assertEqual(byStatus, ["running", "active", "spawned", "failed", "completed"], "sections by status");
		await page.selectOption("select.a2a-grouping", "group");
		const byGroup = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-agent-section")).map((s) => s.getAttribute("data-section")));
		assertEqual(byGroup, ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group", "50-qa-group"], "sections by group");
	});

	// ---- live updates ------------------------------------------------------------------------------

	// The time it took is reported, never judged: speed targets are the bench's, and a loaded machine is slow.
	await check("a change through the vault updates that row in place, and no other row", async () => {
		const result = await page.evaluate(async () => {
			const row = document.querySelector('.a2a-agent-row[data-agent="migration-runner"]');
			const other = document.querySelector('.a2a-agent-row[data-agent="schema-designer"]');
			const otherText = other?.textContent;
			const records = [];
			const observer = new MutationObserver((found) => records.push(...found.filter((r) => other?.contains(r.target))));
			observer.observe(document.querySelector(".a2a-agent-list"), { subtree: true, childList: true, attributes: true, characterData: true });
			const started = performance.now();
			await window.a2a.setFrontmatter("A2A/agents/migration-runner.md", { progress_percent: 85, last_action: "Applying migration 0008_add_avatar" });
			for (;;) {
				const now = document.querySelector('.a2a-agent-row[data-agent="migration-runner"] [role="progressbar"]')?.getAttribute("aria-valuenow");
				if (now === "85" || performance.now() - started > 10_000) break;
				await new Promise((r) => setTimeout(r, 2));
			}
			const elapsed = performance.now() - started;
			observer.disconnect();
			const after = document.querySelector('.a2a-agent-row[data-agent="migration-runner"]');
			return {
				elapsed,
				same: after === row,
				progress: after?.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow"),
				action: after?.querySelector(".a2a-agent-action")?.textContent,
				otherSame: document.querySelector('.a2a-agent-row[data-agent="schema-designer"]') === other && other?.textContent === otherText,
				otherMutations: records.length,
			};
		});
		assertEqual(result.progress, "85", "aria-valuenow after the change");
		assertEqual(result.action, "Applying migration 0008_add_avatar", "last action after the change");
		assert(result.same, "the row element was replaced instead of updated in place");
		assert(result.otherSame && result.otherMutations === 0, "another row was touched");
		return `${Math.round(result.elapsed)} ms`;
	});

	await check("an outside write (another process) shows in the row and in the counts", async () => {
		const result = await page.evaluate(async () => {
			await window.a2a.externalWrite(
				"Runs/Navigation_Test_20260115.md",
				`---\nagent_id: ui-explorer-01\nagent_role: UI Explorer\ngroup: 50-qa-group\nstatus: completed\nprogress_percent: 100\nresult: pass\nlast_action: All homepage checks passed\nupdated: ${new Date().toISOString()}\n---\n# Navigation_Test_20260115\n\n## [10:30:15] Navigation Check Complete\n\n## [2026-01-15T10:35:00Z] Test Complete\n`,
			);
			await window.a2a.settle();
			const row = document.querySelector('.a2a-agent-row[data-agent="ui-explorer-01"]');
			return {
				status: row?.getAttribute("data-status"),
				progress: row?.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow"),
				finding: row?.querySelector(".a2a-agent-finding")?.textContent,
				completed: document.querySelector('.a2a-summary [data-count="completed"]')?.getAttribute("data-value"),
			};
		});
		// An ISO time becomes relative ("… ago"), exact on hover: never the raw ISO text.
		assert(/^Latest finding: .+ ago · Test Complete$/.test(result.finding ?? ""), `finding: ${result.finding}`);
		assertEqual({ ...result, finding: null }, { status: "completed", progress: "100", finding: null, completed: "3" }, "row after the outside write");
	});

	await check("a new message routed while the view is open shows in the queues", async () => {
		const inbox = await page.evaluate(async () => {
			await window.a2a.externalWrite(
				"A2A/groups/40-security-group/outbox/ask-devops.md",
				`---\ntrace_id: "e5f6a7b8-c9d0-4123-8ef0-567890123456"\nhop_count: 0\nsource_group: "40-security-group"\ntarget_group: "30-devops-group"\nrequest_type: "query"\n---\n## Question\nWhich namespace?\n`,
			);
			await window.a2a.settle();
			return document.querySelector('.a2a-queue-table tr[data-group="30-devops-group"] [data-count="inbox"]')?.textContent;
		});
		assertEqual(inbox, "1", "30-devops-group inbox");
	});

	await runUiChecks({ page, check, assert, assertEqual, results });

	await runFirstMinuteChecks({ context, url, check, assert, assertEqual, results, themeChecks, setTheme, pageErrors });

	await check("no errors in the page or the fake host", async () => {
		assertEqual(await page.evaluate(() => window.a2a.errors()), [], "host errors");
		assertEqual(pageErrors, [], "page errors");
	});

	// ---- the demo vault: what a newcomer sees, and the README's pictures -------------------------

	const demoPage = await context.newPage();
	demoPage.on("pageerror", (error) => pageErrors.push(String(error?.stack ?? error)));
	demoPage.on("dialog", (dialog) => {
		dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	await demoPage.goto(`${url}?vault=demo`);
	const demoReady = await demoPage.evaluate(() => window.a2aReady);
	await check("demo vault: the production main.js opens the view on the vault `npm run demo` leaves", async () => {
		assert(demo, "the demo vault was not played");
		assertEqual(demoReady, "ok", "demo page start");
		assertEqual(await demoPage.evaluate(() => window.a2a.errors()), [], "errors recorded by the fake host");
	});

	await check("demo vault: one row per agent that `a2a status` reports, with the same status", async () => {
		const rows = await demoPage.evaluate(inPage.rows);
		assertEqual(rows.map((r) => `${r.name}=${r.status}`).sort(), demo.agents.map((a) => `${a.name}=${a.status}`).sort(), "rows");
		assert(rows.every((r) => r.visible), "a row is not visible");
	});

	await check(`demo vault: no agent is stale but ${STALE_AGENT.id}, the one the README names`, async () => {
		const shown = await demoPage.evaluate(() => ({
			stale: Array.from(document.querySelectorAll(".a2a-agent-row.a2a-is-stale")).map((row) => row.getAttribute("data-agent")),
			chip: document.querySelector('.a2a-summary [data-count="stale"]')?.getAttribute("data-value") ?? null,
			ages: Array.from(document.querySelectorAll(".a2a-agent-row")).map((row) => `${row.getAttribute("data-agent")}: ${row.querySelector(".a2a-agent-age")?.textContent}`),
		}));
		assertEqual(shown.stale, [STALE_AGENT.id], "stale rows");
		assertEqual(shown.chip, "1", "the stale count");
		const old = shown.ages.filter((age) => / d ago$|\d+ h ago$/.test(age));
		assertEqual(old, [], "agents updated hours or days ago");
		assert(readFileSync(join(root, "README.md"), "utf8").includes(STALE_AGENT.id), `the README does not name ${STALE_AGENT.id} as the stale agent`);
	});

	await check("demo vault: no test strings, markup or images in the view", async () => {
		const view = await demoPage.evaluate(() => ({
			text: document.querySelector(".a2a-status-view")?.textContent ?? "",
			imgs: document.querySelectorAll(".a2a-status-view img").length,
			warnings: Array.from(document.querySelectorAll(".a2a-status-view .a2a-agent-warning")).map((el) => el.textContent).filter(Boolean),
		}));
		const found = TEST_STRINGS.exec(view.text);
		assert(!found, `the view shows "${found?.[0]}" in: ${view.text.slice(Math.max(0, (found?.index ?? 0) - 60), (found?.index ?? 0) + 60)}`);
		assertEqual(view.imgs, 0, "img elements");
		assertEqual(view.warnings, [], "agent warnings (a lifecycle step skipped, a value out of range)");
	});

	await themeChecks(demoPage, "demo vault", "agent-status");

	// The demo's migration trace: a delegation, a cycle the router rejects, a request that times out
	// after its retries, and the answers. Its picture is the README's trace picture.
	const cycle = await demoPage.evaluate(() => window.a2aUi.deadLetterWith("CYCLE_DETECTED"));
	for (const theme of ["light", "dark"]) {
		await check(`demo vault: Show trace on the rejected cycle draws its conversation with the rejection, the retries and the timeout marked, ${theme} theme (screenshot test-results/trace-demo-${theme}.png)`, async () => {
			assert(cycle, "the played demo vault has no dead letter with CYCLE_DETECTED");
			// Wide enough for the whole diagram at its natural size (the README's picture).
			await demoPage.setViewportSize({ width: 1100, height: 900 });
			await setTheme(demoPage, theme);
			if (theme === "light") await demoPage.evaluate((path) => window.a2aUi.showTrace(path), cycle);
			else await demoPage.evaluate(() => window.a2aUi.themeChanged());
			const shown = await demoPage.evaluate(() => window.a2aUi.traceShown());
			for (const words of ["rejected CYCLE_DETECTED", "dead letter: 30-devops-group is already on this request's chain", "timed out", "no answer in time", "attempt 3"]) {
				assert(shown.diagram.includes(words), `the diagram does not say "${words}":\n${shown.diagram}`);
			}
			const rejected = shown.rows.filter((r) => r.state === "not delivered" && r.error.startsWith("CYCLE_DETECTED: "));
			const timedOut = shown.rows.filter((r) => r.state === "timed out" && r.marks.includes("attempt 3") && r.error.startsWith("TIMEOUT"));
			assertEqual([rejected.length, timedOut.length], [1, 1], "rows of the rejected cycle and of the timed-out request");
			assert(shown.rows.length >= 8, `${shown.rows.length} messages in the trace`);
			const rowsText = await visibleText(demoPage, ".a2a-trace-list");
			const iso = RAW_ISO.exec(rowsText);
			assert(!iso, `raw ISO time "${iso?.[0]}" in the trace's rows`);
			const file = join(results, `trace-demo-${theme}.png`);
			await demoPage.locator('.workspace-leaf-content[data-type="a2a-trace"]').screenshot({ path: file });
			assert(statSync(file).size > 10_000, "the screenshot is suspiciously small");
			return `${shown.rows.length} messages`;
		});
	}
	await setTheme(demoPage, "light");
	await demoPage.close();

	if (UPDATE_DOCS) {
		await check("docs/images/agent-status-{light,dark}.png and trace-{light,dark}.png updated from the demo vault's screenshots, welcome-{light,dark}.png from the empty vault's", async () => {
			assert(tally.failed === 0, `${tally.failed} check(s) failed: the README's pictures are left as they are`);
			mkdirSync(join(root, "docs", "images"), { recursive: true });
			for (const theme of ["light", "dark"]) {
				copyFileSync(join(results, `agent-status-${theme}.png`), join(root, "docs", "images", `agent-status-${theme}.png`));
				copyFileSync(join(results, `trace-demo-${theme}.png`), join(root, "docs", "images", `trace-${theme}.png`));
				copyFileSync(join(results, `welcome-card-${theme}.png`), join(root, "docs", "images", `welcome-${theme}.png`));
			}
		});
	}

	// ---- cost in a real browser: 1,000 agents, without and with a history of 20,000 messages --------
	// Figures, not limits (speed targets are the bench's): the checks assert what the view did.

	const costIn = async (query) => {
		const page = await context.newPage();
		page.on("pageerror", (error) => pageErrors.push(String(error?.stack ?? error)));
		try {
			await page.goto(`${url}?${query}`);
			assertEqual(await page.evaluate(() => window.a2aReady), "ok", `page ${query}`);
			return await page.evaluate(() => window.a2aBench(100));
		} finally {
			await page.close();
		}
	};
	const shown = (f) => `full ${f.fullMs.toFixed(1)} ms, filter ${f.filterMs.toFixed(2)} ms, one update ${f.updateMs.toFixed(3)} ms`;
	let bare = null;
	await check("1,000 agents in Chromium: a full render, a filter, and one agent's update touching only its row", async () => {
		bare = await costIn("bench=1000");
		assertEqual(bare.rows, 1000, "rows");
		assertEqual(bare.otherRowsReplaced, 0, "other rows replaced by single updates");
		costFigures.bare = bare;
		return shown(bare);
	}, { cost: true });
	await check(`the same with ${COST_HISTORY.toLocaleString("en-US")} archived messages indexed (its figures beside those without)`, async () => {
		const withHistory = await costIn(`bench=1000&history=${COST_HISTORY}`);
		assertEqual(withHistory.rows, 1000, "rows");
		assert(withHistory.indexed >= COST_HISTORY, `${withHistory.indexed} messages indexed of ${COST_HISTORY}`);
		assertEqual(withHistory.otherRowsReplaced, 0, "other rows replaced by single updates");
		costFigures.history = withHistory;
		return `${shown(withHistory)}${bare ? `; without the history ${shown(bare)}` : ""}`;
	}, { cost: true });
} catch (error) {
	report("browser test harness", error);
} finally {
	await context?.close().catch(() => undefined);
	if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
	server?.close();
}
finish();
