// `npm run demo`: builds the plugin, copies the demo vault that ships with the repository
// (demo/vault, never changed) to demo/played-vault (ignored by git) when that copy does not exist
// yet, installs the plugin there, then plays a scripted scenario through the real `a2a` command
// line, narrating as it goes, and ends by bringing the shipped agents' times up to now (see
// demo-times.mjs). Running it again first removes what the previous run created in the copy (and
// only that), so the scenario starts fresh and your own notes stay. The checkout is left as it was:
// `git status` is clean after it.
//
//   node scripts/demo.mjs [--reset] [--fresh] [--vault DIR] [--no-build]
//   --reset     only remove what the previous run created
//   --fresh     start from a new copy of demo/vault (the old copy, and what you added to it, go)
//   --vault DIR play in that copy of the demo vault instead (the browser test's screenshots do)
//   --no-build  use the built main.js and dist/cli.cjs as they are, install nothing into the vault
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { refreshShippedAgentTimes } from "./demo-times.mjs";
import { installPluginFiles } from "./plugin-files.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const vaultFlag = process.argv.indexOf("--vault");
/** The demo vault as shipped: the demo plays in a copy of it, so the checkout stays as it is. */
const shipped = path.join(root, "demo", "vault");
const vault = vaultFlag > 0 && process.argv[vaultFlag + 1] ? path.resolve(process.argv[vaultFlag + 1]) : path.join(root, "demo", "played-vault");
if (vault === shipped) {
	console.error("The demo plays in a copy of demo/vault, never in it: give another --vault DIR (or none: demo/played-vault).");
	process.exit(1);
}
if (vaultFlag < 0 && process.argv.includes("--fresh")) rmSync(vault, { recursive: true, force: true });
// What an older demo left in demo/vault itself (its run manifest, a lock) is not copied.
const leftover = new Set([path.join(shipped, ".a2a-demo.json"), path.join(shipped, "A2A", ".router.lock")]);
if (vaultFlag < 0 && !existsSync(vault)) cpSync(shipped, vault, { recursive: true, filter: (from) => !leftover.has(from) });
const cli = path.join(root, "bin", "a2a.cjs");
const manifestFile = path.join(vault, ".a2a-demo.json");
const color = process.stdout.isTTY ? (code, text) => `\x1b[${code}m${text}\x1b[0m` : (_code, text) => text;
const say = (text) => console.log(`\n${color("1;36", "▸")} ${text}`);
const detail = (text) => console.log(`  ${color("2", text)}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function run(cmd, args, options = {}) {
	const result = spawnSync(cmd, args, { cwd: root, encoding: "utf8", ...options });
	if (result.status !== 0 && !options.allowFail) {
		process.stderr.write(result.stdout ?? "");
		process.stderr.write(result.stderr ?? "");
		throw new Error(`${cmd} ${args.join(" ")} exited with ${result.status}`);
	}
	return result;
}

/** Runs `a2a ARGS --vault <the played copy> --json` and returns its JSON lines. */
function a2a(...args) {
	const result = run(process.execPath, [cli, ...args, "--vault", vault, "--json"]);
	return result.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

function route() {
	const decisions = a2a("route").filter((d) => d.outcome !== "ignored");
	for (const d of decisions) {
		const where = path.relative(vault, path.join(vault, d.path));
		const code = d.error_code ? ` ${color("33", d.error_code)}` : "";
		detail(`${d.outcome.padEnd(9)} ${d.source_group ?? "?"} -> ${d.target_group ?? "?"}${code}  ${where}`);
		if (d.reason && d.outcome !== "delivered" && d.outcome !== "answered") detail(`          ${d.reason}`);
	}
	return decisions;
}

function send(from, to, type, text, extra = []) {
	const flag = type === "task" ? "--task" : "--question";
	const [sent] = a2a("send", "--from", from, "--to", to, "--type", type, flag, text, ...extra);
	created.ids.push(sent.message_id);
	detail(`wrote ${sent.path}`);
	return sent;
}

function reply(messageId, answer, extra = []) {
	const [sent] = a2a("reply", "--message", messageId, "--status", "success", "--answer", answer, ...extra);
	created.ids.push(sent.message_id);
	detail(`wrote ${sent.path}`);
	return sent;
}

function agent(name, ...fields) {
	const [out] = a2a("agent", "set", name, ...fields);
	if (!created.agents.includes(out.path)) created.agents.push(out.path);
	detail(`${name}: ${fields.join(" ")}`);
}

function finding(name, action, context, data, decisions, next) {
	a2a("agent", "finding", name, "--action", action, "--context", context, "--data", data, "--decisions", decisions, "--next", next);
	detail(`${name}: finding "${action}"`);
}

const resetOnly = process.argv.includes("--reset");
// ---- 1. Build and install -------------------------------------------------------------------
if (!resetOnly && !process.argv.includes("--no-build")) {
say("Building the plugin and the a2a command line");
run("npm", ["run", "build", "--silent"], { stdio: "inherit" });
const pluginDir = installPluginFiles(root, vault);
detail(`installed into ${path.relative(root, pluginDir)} and enabled`);
}

// ---- 2. Forget the previous run -------------------------------------------------------------
const previous = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, "utf8")) : null;
const created = { ids: [], agents: [], paths: [] };
if (previous) {
	say("Removing what the previous demo run created (nothing else is touched)");
	for (const rel of [...previous.paths, ...previous.agents]) rmSync(path.join(vault, rel), { force: true });
	const logDir = path.join(vault, "A2A", "log");
	for (const name of existsSync(logDir) ? readdirSync(logDir) : []) {
		const file = path.join(logDir, name);
		const lines = readFileSync(file, "utf8").split("\n");
		const kept = lines.filter((line) => !previous.ids.some((id) => line.includes(id)));
		const onlyHeader = kept.filter((l) => l.startsWith("| ") && !l.startsWith("| Time") && !l.startsWith("| ---")).length === 0;
		if (onlyHeader && previous.logs?.includes(name)) rmSync(file);
		else if (kept.length !== lines.length) writeFileSync(file, kept.join("\n"));
	}
	detail(`${previous.paths.length} message notes and ${previous.agents.length} agent notes removed`);
}
if (resetOnly) {
	if (existsSync(manifestFile)) rmSync(manifestFile);
	console.log("The demo vault is back to how it was shipped, plus anything you added.");
	process.exit(0);
}
const logsBefore = new Set(existsSync(path.join(vault, "A2A", "log")) ? readdirSync(path.join(vault, "A2A", "log")) : []);

// ---- 3. The scenario --------------------------------------------------------------------------
say("Setting up the vault: a2a init (creates what is missing, overwrites nothing)");
a2a("init");

say("Three agents in three groups start work");
agent("backend-orchestrator", "agent_role=orchestrator", "group=10-backend-group", "objective=Design the user table and API");
agent("frontend-orchestrator", "agent_role=orchestrator", "group=20-frontend-group", "objective=Build the registration form");
agent("devops-orchestrator", "agent_role=orchestrator", "group=30-devops-group", "objective=Ship the registration feature");
for (const name of ["backend-orchestrator", "frontend-orchestrator", "devops-orchestrator"]) agent(name, "status=active", "progress_percent=5", "last_action=Process started");

say("A query: the backend asks the frontend which registration fields are mandatory");
const query = send("10-backend-group", "20-frontend-group", "query", "What fields are mandatory in the registration form?", ["--context", "Designing the user table in PostgreSQL", "--priority", "high"]);
route();
agent("frontend-orchestrator", "status=running", "progress_percent=30", "last_action=Answering the backend's question");
reply(query.message_id, "Mandatory: name (max 100 chars), email (valid), password (min 8 chars). Optional: phone, avatar_url.");
route();
agent("backend-orchestrator", "status=running", "progress_percent=35", "last_action=Designing the users table");

say("A task: devops asks the backend for a migration plan; the backend delegates part of it and asks security, all on one trace");
const task = send("30-devops-group", "10-backend-group", "task", "Provide the database migration plan for the registration release");
route();
const delegated = send("10-backend-group", "20-frontend-group", "task", "List the form changes the migration must support", ["--trace", task.trace_id, "--context", "Delegated from devops' migration task"]);
route();
detail(`the delegated request is hop ${delegated.hop_count} of trace ${task.trace_id}`);

say("A cycle: the frontend, still holding the backend's request, asks devops, which waits on this very chain");
// Written by hand, as an agent may write its own note (a hidden file, then renamed): a2a send would
// refuse it before the router sees it.
const outbox = path.join(vault, "A2A", "groups", "20-frontend-group", "outbox");
const cycle = { id: randomUUID(), file: path.join(outbox, "ask-devops-staging.md") };
created.ids.push(cycle.id);
writeFileSync(
	path.join(outbox, ".ask-devops-staging.md.tmp"),
	`---\nmessage_id: ${cycle.id}\ntrace_id: ${task.trace_id}\nhop_count: 2\nsource_group: 20-frontend-group\ntarget_group: 30-devops-group\nrequest_type: query\ncreated: ${new Date().toISOString()}\n---\n\n## Question\n\nCan devops confirm the staging database is migrated?\n`,
);
renameSync(path.join(outbox, ".ask-devops-staging.md.tmp"), cycle.file);
detail(`wrote ${path.relative(vault, cycle.file).split(path.sep).join("/")}`);
route();
reply(delegated.message_id, "The form adds phone and avatar_url; both nullable.");
route();

say("A timeout: on the same trace the backend asks security with a 1-second timeout; nobody answers (2 retries, doubling)");
send("10-backend-group", "40-security-group", "query", "Is storing password hashes with bcrypt cost 12 compliant?", ["--trace", task.trace_id, "--timeout", "1"]);
route();
for (let waited = 0; waited < 20000; waited += 1000) {
	await sleep(1000);
	if (route().some((d) => d.outcome === "timed_out")) break;
}
reply(task.message_id, "Migration 0042 adds users(name, email unique, password_hash, phone null, avatar_url null); the security review timed out.", ["--artifact", "skills/10-backend-group/migrations/0042_users.sql"]);
route();

say("An artifact: the frontend hands devops the built form bundle");
const artifact = a2a("send", "--from", "20-frontend-group", "--to", "30-devops-group", "--type", "artifact", "--context", "Registration form bundle, build 143", "--artifact", "skills/20-frontend-group/build/registration-143.zip")[0];
created.ids.push(artifact.message_id);
detail(`wrote ${artifact.path}`);
route();
reply(artifact.message_id, "Bundle received and deployed to staging.");
route();

say("The agents finish");
agent("frontend-orchestrator", "status=completed", "progress_percent=100", "result=warning", "last_action=Form shipped; phone validation pending", "sections_passed=5", "sections_failed=1");
finding("frontend-orchestrator", "Registration form shipped", "Fields agreed with the backend", "- **Fields**: 5\n- **Validation gaps**: 1 (phone)", "Ship now, fix phone validation next sprint", "Add phone validation");
agent("backend-orchestrator", "status=completed", "progress_percent=100", "result=pass", "last_action=Migration 0042 ready");
finding("backend-orchestrator", "Migration planned", "Devops asked for the migration plan", "- **Tables**: users\n- **Security review**: timed out", "Proceed without the security answer, flag it", "Ask security again");
agent("devops-orchestrator", "status=running", "progress_percent=80", "last_action=Deploying build 143");
agent("devops-orchestrator", "status=failed", "error=Staging deploy failed: migration lock held", "result=fail", "last_action=Deploy aborted");

// ---- 4. Remember what this run created, so the next run can remove exactly that ---------------
const ids = new Set(created.ids);
const walk = (dir) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)])) : []);
for (const file of walk(path.join(vault, "A2A"))) {
	if (!file.endsWith(".md") || file.includes(`${path.sep}log${path.sep}`)) continue;
	const text = readFileSync(file, "utf8");
	const field = (name) => /^([a-z_]+): (.*)$/gm.exec(text) && (text.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1] ?? "").trim();
	if (ids.has(field("message_id")) || ids.has(field("in_reply_to"))) {
		created.paths.push(path.relative(vault, file).split(path.sep).join("/"));
		ids.add(field("message_id"));
	}
}
const logs = (existsSync(path.join(vault, "A2A", "log")) ? readdirSync(path.join(vault, "A2A", "log")) : []).filter((n) => !logsBefore.has(n));
writeFileSync(manifestFile, `${JSON.stringify({ ids: [...ids], paths: created.paths, agents: created.agents.map((p) => p.split(path.sep).join("/")), logs: [...(previous?.logs ?? []), ...logs] }, null, 2)}\n`);

say("Bringing the shipped agents' times up to now: all just updated, but one stopped reporting on purpose");
for (const line of refreshShippedAgentTimes(vault, Date.now())) detail(line);

say("Status");
console.log(run(process.execPath, [cli, "status", "--vault", vault], { allowFail: true }).stdout);
console.log(color("1;32", `Done. Open ${vault} in Obsidian (Open folder as vault) to see the agent status sidebar: the radio tower icon in the ribbon. It is a copy of demo/vault; npm run demo -- --fresh starts from a new copy.`));
