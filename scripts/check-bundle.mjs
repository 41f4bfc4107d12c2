// Checks the built plugin bundle (main.js) the way Obsidian and the community directory see it,
// and that the CLI bundle was built. Run after `npm run build`; exits non-zero on any failure.
//
//   node scripts/check-bundle.mjs [path/to/main.js]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const mainPath = resolve(process.argv[2] ?? join(root, "main.js"));
const cliPath = join(root, "dist", "cli.cjs");

let failures = 0;
function pass(what) {
	console.log(`  ok    ${what}`);
}
function fail(what) {
	failures++;
	console.log(`  FAIL  ${what}`);
}
function note(what) {
	console.log(`  note  ${what}`);
}

console.log(`check-bundle: ${mainPath}`);

function checkMain() {
	if (!existsSync(mainPath)) {
		fail("main.js exists (run `npm run build` first)");
		return;
	}
	const code = readFileSync(mainPath, "utf8");
	pass(`main.js exists (${(statSync(mainPath).size / 1024).toFixed(1)} KiB)`);
	if (/\/\/# sourceMappingURL=data:/.test(code)) note("main.js carries an inline source map: this is a development build, not a release build");

	// CommonJS: it compiles as a script inside Node's module wrapper (an ES module's import/export
	// statements would be a syntax error there) and assigns module.exports.
	let compiled = null;
	try {
		compiled = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: mainPath });
	} catch (error) {
		fail(`main.js is CommonJS: it does not compile as a CommonJS module: ${error.message}`);
	}
	if (compiled) {
		if (/\bmodule\.exports\b/.test(code)) pass("main.js is CommonJS (compiles in the CommonJS wrapper, assigns module.exports)");
		else fail("main.js is CommonJS: it never assigns module.exports");
	}

	// The only module it may require at run time is obsidian: Node built-ins and electron do not
	// exist on mobile, and anything else must be bundled.
	const required = new Map();
	for (const match of code.matchAll(/\brequire\s*\(\s*(["'`])([^"'`]*)\1\s*\)/g)) {
		required.set(match[2], (required.get(match[2]) ?? 0) + 1);
	}
	const others = [...required.keys()].filter((name) => name !== "obsidian");
	if (others.length === 0) pass(`main.js requires only obsidian (${required.get("obsidian") ?? 0} require call(s) of it)`);
	else fail(`main.js requires only obsidian: it also requires ${others.map((name) => JSON.stringify(name)).join(", ")}`);
	const dynamicRequires = (code.match(/\brequire\s*\(\s*[^"'`\s)]/g) ?? []).length;
	if (dynamicRequires > 0) note(`main.js has ${dynamicRequires} require(...) call(s) with a computed argument; check they cannot load a Node module`);

	// The A2A SDK (and jose, which comes with it) belong to the CLI bundle only: the plugin calls
	// remote agents through requestUrl alone. Strings only these packages hold would show them.
	const networkCode = NETWORK_MARKERS.filter((marker) => code.includes(marker));
	if (networkCode.length === 0) pass("main.js holds no A2A SDK code (@a2a-js/sdk, jose; remote agents are called through requestUrl)");
	else fail(`main.js holds no A2A SDK code: it contains ${networkCode.map((m) => JSON.stringify(m)).join(", ")}`);
	// Network code lives in the CLI bundle only: nothing of the MCP SDK (or of any JSON-RPC server) in the plugin.
	const networkMarks = MCP_MARKS.filter((mark) => code.includes(mark));
	if (networkMarks.length === 0) pass("main.js holds no MCP code (the MCP server lives in the CLI bundle only)");
	else fail(`main.js holds no MCP code: it contains ${networkMarks.map((m) => JSON.stringify(m)).join(", ")}`);

	// Obsidian's guidelines forbid building DOM from HTML strings.
	const htmlSinks = ["innerHTML", "outerHTML", "insertAdjacentHTML"].filter((sink) => code.includes(sink));
	if (htmlSinks.length === 0) pass("main.js does not use innerHTML, outerHTML or insertAdjacentHTML");
	else fail(`main.js does not use innerHTML: it contains ${htmlSinks.join(", ")}`);

	if (!compiled) return;
	// Evaluate it with a stub `require`: enough of obsidian for the module to evaluate, not to run.
	const obsidian = fakeObsidian();
	const requested = [];
	const stubRequire = (name) => {
		requested.push(name);
		if (name === "obsidian") return obsidian;
		throw new Error(`main.js required ${JSON.stringify(name)} while loading`);
	};
	const module = { exports: {} };
	try {
		compiled.runInThisContext()(module.exports, stubRequire, module, mainPath, dirname(mainPath));
	} catch (error) {
		fail(`main.js loads with a stub obsidian: ${error && error.stack ? error.stack.split("\n").slice(0, 3).join(" | ") : String(error)}`);
		return;
	}
	pass(`main.js loads with a stub obsidian (required at load: ${requested.length ? [...new Set(requested)].join(", ") : "nothing"})`);
	const exported = module.exports && typeof module.exports.default === "function" ? module.exports.default : module.exports;
	const where = exported === module.exports ? "module.exports" : "module.exports.default";
	if (typeof exported !== "function" || !/^class\b/.test(Function.prototype.toString.call(exported))) {
		fail("main.js exports a class as module.exports.default or module.exports");
		return;
	}
	pass(`main.js exports a class as ${where}${exported.name ? ` (${exported.name})` : ""}`);
	if (exported.prototype instanceof obsidian.Plugin) pass(`the exported class extends obsidian's Plugin`);
	else fail(`the exported class extends obsidian's Plugin`);
}

/**
 * Strings of @a2a-js/sdk (its error domain, its client's card error) and of jose (its error codes):
 * none may appear in main.js. (The plugin calls remote agents itself, through requestUrl, with a
 * few lines of JSON-RPC: src/obsidian/request-url-remote-agents.ts. So the protocol's header name
 * and the routing extension's URI are in main.js by design; the SDK is not.)
 */
const NETWORK_MARKERS = ["a2a-protocol.org", "Failed to fetch Agent Card", "ERR_JWS_INVALID", "ERR_JWT_EXPIRED"];
/** Those of them the CLI bundle must hold (so that their absence from main.js means something), and the gateway's extension. */
const CLI_MARKERS = ["a2a-protocol.org", "Failed to fetch Agent Card", "urn:a2a-relay:ext:routing:v1"];

/** Strings only the MCP SDK's code holds (they survive minification): method names and its meta key. */
const MCP_MARKS = ["tools/call", "notifications/initialized", "io.modelcontextprotocol/"];

async function checkCli() {
	if (!existsSync(cliPath)) {
		fail("dist/cli.cjs exists (run `npm run build` first)");
		return;
	}
	const size = statSync(cliPath).size;
	if (size === 0) fail("dist/cli.cjs exists: it is empty");
	else pass(`dist/cli.cjs exists (${(size / 1024).toFixed(1)} KiB)`);
	const code = readFileSync(cliPath, "utf8");
	const missingA2a = CLI_MARKERS.filter((marker) => !code.includes(marker));
	if (missingA2a.length === 0) pass("dist/cli.cjs carries the A2A SDK and a2a serve (the markers main.js must not hold are found here)");
	else fail(`dist/cli.cjs carries the A2A SDK and a2a serve: it lacks ${missingA2a.map((m) => JSON.stringify(m)).join(", ")}`);
	const missing = MCP_MARKS.filter((mark) => !code.includes(mark));
	if (missing.length === 0) pass("dist/cli.cjs holds the MCP server (so the check on main.js would see it there)");
	else fail(`dist/cli.cjs holds the MCP server: ${missing.join(", ")} not found`);
	await checkMcpHandshake();
}

/** `a2a mcp` on a fresh vault answers an MCP initialize on stdout, and exits 0 when stdin ends. */
async function checkMcpHandshake() {
	const vault = mkdtempSync(join(tmpdir(), "a2a-check-bundle-"));
	try {
		const init = spawnSync(process.execPath, [cliPath, "init", "--vault", vault], { encoding: "utf8" });
		if (init.status !== 0) return fail(`a2a init runs: ${init.stderr}`);
		const child = spawn(process.execPath, [cliPath, "mcp", "--vault", vault, "--group", "10-backend-group"], { stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		const exited = new Promise((done) => child.on("close", (status) => done(status)));
		const answered = new Promise((done) => {
			child.stdout.on("data", (chunk) => {
				stdout += chunk.toString("utf8");
				if (stdout.includes("\n")) done(true);
			});
			setTimeout(() => done(false), 15000);
		});
		const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "check-bundle", version: "0" } } };
		child.stdin.write(`${JSON.stringify(initialize)}\n`);
		const ok = await answered;
		child.stdin.end();
		const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
		const status = await exited;
		clearTimeout(timer);
		let reply = null;
		try {
			reply = JSON.parse(stdout.split("\n")[0]);
		} catch {
			// not JSON: reported below
		}
		if (ok && reply?.result?.serverInfo?.name === "a2a-relay" && status === 0) pass(`dist/cli.cjs runs a2a mcp: initialize answered (protocol ${reply.result.protocolVersion}), exit 0 at the end of stdin`);
		else fail(`dist/cli.cjs runs a2a mcp: answer ${JSON.stringify(stdout.slice(0, 200))}, exit status ${status}`);
	} finally {
		rmSync(vault, { recursive: true, force: true });
	}
}

// Every value the obsidian typings export, as an inert stand-in: classes as empty classes (so
// `class X extends Plugin` evaluates and can be checked with instanceof), functions as no-ops.
function fakeObsidian() {
	const fake = {
		Platform: { isDesktop: true, isMobile: false, isDesktopApp: true, isMobileApp: false, isIosApp: false, isAndroidApp: false, isPhone: false, isTablet: false, isMacOS: false, isWin: false, isLinux: true, isSafari: false, resourcePathPrefix: "app://local/" },
		apiVersion: "1.7.2",
		moment: Object.assign(() => ({}), { locale: () => "en" }),
	};
	const names = { classes: ["Plugin", "PluginSettingTab", "ItemView", "Modal", "Notice", "Setting", "TFile", "TFolder", "TAbstractFile", "Component", "Events", "MarkdownView", "WorkspaceLeaf"], functions: ["normalizePath", "debounce", "setIcon", "parseYaml", "stringifyYaml", "requestUrl"] };
	const typings = join(root, "node_modules", "obsidian", "obsidian.d.ts");
	if (existsSync(typings)) {
		const dts = readFileSync(typings, "utf8");
		for (const m of dts.matchAll(/^export (?:declare )?(?:abstract )?class ([A-Za-z_$][\w$]*)/gm)) names.classes.push(m[1]);
		for (const m of dts.matchAll(/^export (?:declare )?function ([A-Za-z_$][\w$]*)/gm)) names.functions.push(m[1]);
		for (const m of dts.matchAll(/^export (?:declare )?(?:const|let|var|enum) ([A-Za-z_$][\w$]*)/gm)) {
			if (!(m[1] in fake)) fake[m[1]] = {};
		}
	}
	for (const name of names.classes) {
		if (!(name in fake)) fake[name] = { [name]: class {} }[name];
	}
	for (const name of names.functions) {
		if (!(name in fake)) fake[name] = { [name]: () => undefined }[name];
	}
	return fake;
}

checkMain();
await checkCli();
console.log(failures === 0 ? "check-bundle: all checks passed" : `check-bundle: ${failures} check(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
