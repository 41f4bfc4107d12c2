import { promises as fs, readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/protocol";
import { parseTime } from "../../src/core/time";
import { REPO, allDocBlocks, blockLabel, isRunnable, notesIn, useDocRunner, whereEverythingIs, workflowBlocks } from "../helpers/doc-examples";
import type { DocBlock, ReaderHome, RunResult } from "../helpers/doc-examples";
import { a2a } from "../helpers/temp-vault";
import { readSecret } from "../../node/secrets";

// Every shell and Python block of README.md and docs/agents.md runs as written, in a fresh home with
// a fresh vault, and does what its text says: each claim below runs one block and checks the vault
// afterwards. A block no claim runs must carry a visible marker on the line before its fence:
// `<!-- not run: why -->`, or `<!-- end to end: why -->` for the agents that need each other, which
// test/cli/docs-workflow.test.ts runs together with a router.

const runner = useDocRunner();
const GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"] as const;
const box = (group: string, folder: "inbox" | "outbox" | "archive") => `A2A/groups/${group}/${folder}`;

interface Claim {
	/** What the block does, in the test's name. */
	claim: string;
	file: "README.md" | "docs/agents.md";
	/** The block: its fence name (```python ask.py), or a pattern its code matches. */
	block: string | RegExp;
	/** The vault the block's text presupposes: set up as "Before you start" does (default), or none yet. */
	vault?: "initialized" | "none";
	/** The docs' own `a2a route --watch` runs while the block does. */
	router?: boolean;
	/** How many times the block runs, one after the other, in the same home (default 1). */
	times?: number;
	before?(home: ReaderHome): Promise<void>;
	check(home: ReaderHome, runs: RunResult[]): Promise<void>;
}

/** The time a claim started, to tell what the block wrote from what was there. */
let startedAt = 0;

async function agentStatus(vault: string, name: string): Promise<Record<string, unknown>> {
	const status = await a2a(vault, "status", "--json");
	const agent = status.json.find((line) => line.type === "agent" && line.name === name);
	expect(agent, `a2a status lists ${name}`).toBeDefined();
	return agent as Record<string, unknown>;
}

/** Only these folders hold notes; every other group folder and the dead-letter folder are empty. */
async function expectOnlyNotesIn(vault: string, expected: Record<string, number>): Promise<void> {
	const places = await whereEverythingIs(vault, GROUPS);
	const counts = Object.fromEntries(Object.entries(places).map(([place, notes]) => [place, notes.length]).filter(([, n]) => n !== 0));
	expect(counts).toEqual(expected);
}

const CLAIMS: Claim[] = [
	{
		claim: "the command line on one machine: init, send, route, inbox, reply, route, wait, take, agent set, status",
		file: "README.md",
		block: /^export A2A_VAULT=~\/vault\s+#/m,
		vault: "none",
		async check(h, [run]) {
			expect(run.stderr).not.toMatch(/warning|refused|error/i);
			expect(run.stdout).toContain("Requests to answer (1)");
			expect(run.stdout).toMatch(/^state: answered$/m);
			const [request] = await notesIn(h.vault, box("20-frontend-group", "archive"));
			expect(request.fm).toMatchObject({ source_group: "10-backend-group", request_type: "query", state: "answered" });
			expect(request.text).toContain("What fields are mandatory in the registration form?");
			const [response] = await notesIn(h.vault, box("10-backend-group", "archive"));
			expect(response.fm).toMatchObject({ in_reply_to: request.fm.message_id, source_group: "20-frontend-group", status: "success", state: "taken" });
			expect(response.text).toContain("name, email, password");
			await expectOnlyNotesIn(h.vault, { "20-frontend-group/archive": 1, "10-backend-group/archive": 1 });
			expect(await agentStatus(h.vault, "ui-explorer")).toMatchObject({ status: "running", progress: 50, last_action: "Checking links", stale: false });
			expect(run.stdout).toMatch(/ui-explorer\s+running\s+50%/);
		},
	},
	{
		claim: "a remote group's secret for the CLI: an owner-only folder and file in ~/.config/a2a-relay/secrets, which the CLI reads",
		file: "README.md",
		block: /a2a-relay\/secrets\/partner-token/,
		async before(h) {
			h.env.TOKEN = "readme-token-0123456789";
		},
		async check(h) {
			const folder = path.join(h.home, ".config", "a2a-relay", "secrets");
			expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
			expect((await fs.stat(path.join(folder, "partner-token"))).mode & 0o777).toBe(0o600);
			expect(readSecret("partner-token", { HOME: h.home })).toBe("readme-token-0123456789");
		},
	},
	{
		claim: "before you start: A2A_VAULT is ~/vault, and a2a init makes the registry and every group's folders there",
		file: "docs/agents.md",
		block: /^export A2A_VAULT=~\/vault$/m,
		vault: "none",
		async check(h) {
			const registry = await fs.readFile(path.join(h.vault, "A2A", "registry.yaml"), "utf8");
			for (const group of GROUPS) {
				expect(registry).toContain(`${group}:`);
				for (const folder of ["inbox", "outbox", "archive"] as const) expect((await fs.stat(path.join(h.vault, box(group, folder)))).isDirectory()).toBe(true);
			}
			for (const folder of ["agents", "dead-letter", "log"]) expect((await fs.stat(path.join(h.vault, "A2A", folder))).isDirectory()).toBe(true);
		},
	},
	{
		claim: "mcp_conversation.py: a refused send writes nothing; send, list, read, reply, wait and take over two a2a mcp servers",
		file: "docs/agents.md",
		block: "mcp_conversation.py",
		router: true,
		async check(h, [run]) {
			expect(run.stdout).toMatch(/^refused: send_request: to: group "99-nobody" is not in the registry .*Nothing was written\.$/m);
			expect(run.stdout).toMatch(/^answered: name, email and password are mandatory\.$/m);
			const [request] = await notesIn(h.vault, box("20-frontend-group", "archive"));
			expect(request.fm).toMatchObject({ source_group: "10-backend-group", target_group: "20-frontend-group", state: "answered" });
			const [response] = await notesIn(h.vault, box("10-backend-group", "archive"));
			expect(response.fm).toMatchObject({ in_reply_to: request.fm.message_id, source_group: "20-frontend-group", status: "success", state: "taken" });
			await expectOnlyNotesIn(h.vault, { "20-frontend-group/archive": 1, "10-backend-group/archive": 1 });
		},
	},
	{
		claim: "write_request.py on a fresh vault: the request it writes is routed, and it creates the agent note with a fresh `updated`",
		file: "docs/agents.md",
		block: "write_request.py",
		async check(h, [run]) {
			const id = /^asked (\S+)$/m.exec(run.stdout)?.[1];
			expect(id).toMatch(/^[0-9a-f-]{36}$/);
			const outbox = await notesIn(h.vault, box("10-backend-group", "outbox"));
			expect(outbox.map((n) => n.path)).toEqual([`${box("10-backend-group", "outbox")}/ask-${id}.md`]);
			const routed = await a2a(h.vault, "route", "--json");
			expect(routed.json).toEqual([expect.objectContaining({ outcome: "delivered", message_id: id, path: expect.stringContaining(`${box("20-frontend-group", "inbox")}/`) })]);
			const [delivered] = await notesIn(h.vault, box("20-frontend-group", "inbox"));
			expect(delivered.fm).toMatchObject({ message_id: id, request_type: "query", priority: "high", state: "delivered" });
			expect(delivered.text).toContain("## Question\n\nWhat fields are mandatory?");
			const [agent] = await notesIn(h.vault, "A2A/agents");
			expect(agent.path).toBe("A2A/agents/ui-explorer.md");
			expect(agent.fm).toMatchObject({ agent_id: "ui-explorer", agent_role: "navigation tester", group: "20-frontend-group", status: "running", progress_percent: 50, last_action: "Checking navigation links" });
			expect(parseTime(agent.fm.updated)).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) * 1000);
			expect(await agentStatus(h.vault, "ui-explorer")).toMatchObject({ status: "running", stale: false });
		},
	},
	{
		claim: "write_request.py over an agent note last updated long ago: it refreshes `updated` (no longer stale) and keeps the note's findings",
		file: "docs/agents.md",
		block: "write_request.py",
		async before(h) {
			await fs.writeFile(
				path.join(h.vault, "A2A", "agents", "ui-explorer.md"),
				"---\nagent_id: ui-explorer\nstatus: active\nlast_action: Process started\nupdated: 2020-01-01T00:00:00Z\n---\n\n## [2020-01-01T00:00:00Z] Started\n\n### Data\n- **Pages**: 3\n",
			);
			expect(await agentStatus(h.vault, "ui-explorer")).toMatchObject({ status: "active", stale: true });
		},
		async check(h) {
			const [agent] = await notesIn(h.vault, "A2A/agents");
			expect(parseTime(agent.fm.updated)).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) * 1000);
			expect(agent.text).toContain("## [2020-01-01T00:00:00Z] Started\n\n### Data\n- **Pages**: 3\n");
			expect(await agentStatus(h.vault, "ui-explorer")).toMatchObject({ status: "running", progress: 50, stale: false });
		},
	},
	{
		claim: "write-request.sh, run twice in a row: two notes under two names, each keeping the ids it printed, both routed",
		file: "docs/agents.md",
		block: "write-request.sh",
		times: 2,
		async check(h, runs) {
			const sent = runs.map((run) => {
				const m = /^asked (\S+) on trace (\S+)$/m.exec(run.stdout);
				expect(m, run.stdout).not.toBeNull();
				return { id: m?.[1], trace: m?.[2] };
			});
			expect(new Set(sent.map((s) => s.id)).size).toBe(2);
			const outbox = await fs.readdir(path.join(h.vault, box("30-devops-group", "outbox")));
			expect(outbox.sort()).toEqual(sent.map((s) => `review-${s.id}.md`).sort());
			const routed = await a2a(h.vault, "route", "--json");
			expect(routed.json.map((d) => d.outcome)).toEqual(["delivered", "delivered"]);
			const inbox = await notesIn(h.vault, box("40-security-group", "inbox"));
			expect(inbox.map((n) => ({ id: n.fm.message_id, trace: n.fm.trace_id })).sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(
				[...sent].sort((a, b) => String(a.id).localeCompare(String(b.id))),
			);
			for (const note of inbox) expect(note.fm).toMatchObject({ source_group: "30-devops-group", request_type: "task", state: "delivered" });
			await expectOnlyNotesIn(h.vault, { "40-security-group/inbox": 2 });
		},
	},
];

const BLOCKS = allDocBlocks();
const claimsOf = (block: DocBlock) =>
	CLAIMS.filter((c) => c.file === block.file && (typeof c.block === "string" ? block.name === c.block : isRunnable(block) && c.block.test(block.code)));
const blockOf = (claim: Claim): DocBlock => {
	const found = BLOCKS.filter((b) => claimsOf(b).includes(claim));
	if (found.length !== 1) throw new Error(`the claim "${claim.claim}" matches ${found.length} blocks of ${claim.file}`);
	return found[0];
};
const routerBlock = (): DocBlock => workflowBlocks().router;

const ran = new Set<DocBlock>();
let runs = 0;

afterAll(() => {
	const runnable = BLOCKS.filter(isRunnable);
	const endToEnd = runnable.filter((b) => b.marker?.kind === "end to end").length;
	const notRun = runnable.filter((b) => b.marker?.kind === "not run").length;
	console.log(
		`docs examples (${["README.md", "docs/agents.md"].join(", ")}): ${runnable.length} shell and Python blocks: ${ran.size} run here (${runs} runs), ` +
			`${endToEnd} run end to end by test/cli/docs-workflow.test.ts, ${notRun} not run (marked)`,
	);
});

describe("the shell and Python examples of README.md and docs/agents.md", () => {
	it("each is run by a claim below, or carries a marker saying why not; every fence names its language", () => {
		const problems: string[] = [];
		for (const block of BLOCKS) {
			if (block.lang === "") problems.push(`${blockLabel(block)}: a fence without a language`);
			if (block.badMarker) problems.push(`${blockLabel(block)}: "${block.badMarker}" is not a marker (<!-- not run: why --> or <!-- end to end: why -->)`);
			if (!isRunnable(block)) continue;
			const claims = claimsOf(block);
			if (claims.length === 0 && !block.marker) problems.push(`${blockLabel(block)}: no claim runs it and it has no marker`);
			if (claims.length > 0 && block.marker) problems.push(`${blockLabel(block)}: marked "${block.marker.kind}" but a claim runs it`);
		}
		for (const claim of CLAIMS) {
			const found = BLOCKS.filter((b) => claimsOf(b).includes(claim)).length;
			if (found !== 1) problems.push(`the claim "${claim.claim}" matches ${found} blocks`);
		}
		const endToEnd = BLOCKS.filter((b) => b.marker?.kind === "end to end").map(blockLabel).sort();
		const workflow = workflowBlocks();
		expect(endToEnd).toEqual([workflow.router, ...workflow.agents].map(blockLabel).sort());
		expect(problems).toEqual([]);
		expect(BLOCKS.filter((b) => isRunnable(b) && !b.marker).length).toBeGreaterThanOrEqual(5);
	});

	for (const claim of CLAIMS) {
		it(claim.claim, async () => {
			const block = blockOf(claim);
			const h = await runner.home();
			if (claim.vault !== "none") expect((await a2a(h.vault, "init")).code).toBe(0);
			await claim.before?.(h);
			if (claim.router) runner.start(routerBlock(), h);
			startedAt = Date.now();
			const results: RunResult[] = [];
			for (let i = 0; i < (claim.times ?? 1); i++) {
				const result = await runner.run(block, h);
				runs++;
				expect({ block: blockLabel(block), code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
				results.push(result);
			}
			ran.add(block);
			await claim.check(h, results);
		}, 90_000);
	}
});

/** The `a2a ...` commands of each row of SKILL.md's command-line fallback table, by the row's first cell. */
function skillFallback(): Map<string, string[]> {
	const text = readFileSync(path.join(REPO, "skills", "a2a-communicator", "SKILL.md"), "utf8");
	const section = text.slice(text.indexOf("## Command-line fallback"));
	const rows = new Map<string, string[]>();
	for (const [, step, cell] of section.matchAll(/^\| ([a-z ]+) \| (.+) \|$/gm)) {
		const commands = [...cell.matchAll(/`(a2a [^`]+)`/g)].map((m) => m[1]);
		if (commands.length > 0) rows.set(step, commands);
	}
	return rows;
}

describe("SKILL.md's command-line fallback", () => {
	it("runs as written, from a folder outside the vault with only A2A_VAULT set: status, send, inbox, read, answer, wait, take, trace, agent note", async () => {
		const rows = skillFallback();
		expect([...rows.keys()]).toEqual(["groups and agents", "send", "wait", "read", "take", "what waits for you", "answer", "a conversation", "your agent note"]);
		const h = await runner.home();
		expect((await a2a(h.vault, "init")).code).toBe(0);
		// The table's placeholders, as an agent of 10-backend-group fills them in; 20-frontend-group answers.
		const fill = (command: string, me = "10-backend-group") =>
			command.replaceAll("MYGROUP", me).replaceAll("TARGET", "20-frontend-group").replaceAll('"..."', '"#1 check links"').replaceAll("=...", "=#1 check links").replaceAll("TRACE_ID", '"$trace"').replaceAll(/\bID\b/g, '"$id"').replaceAll("NAME", "ui-explorer");
		const row = (step: string) => rows.get(step) ?? [];
		const script = [
			"set -e",
			fill(row("groups and agents")[0]),
			`sent=$(${fill(row("send")[0])})`,
			`id=$(echo "$sent" | sed -n 's/.*"message_id":"\\([^"]*\\)".*/\\1/p')`,
			`trace=$(echo "$sent" | sed -n 's/.*"trace_id":"\\([^"]*\\)".*/\\1/p')`,
			"a2a route --json >/dev/null # the router (the plugin, or a2a route --watch) delivers it",
			fill(row("what waits for you")[0], "20-frontend-group"),
			fill(row("read")[0]),
			fill(row("answer")[0]),
			"a2a route --json >/dev/null # and delivers the answer",
			fill(row("wait")[0]),
			fill(row("take")[0]),
			fill(row("a conversation")[0]),
			...row("your agent note").map((c) => fill(c)),
		].join("\n");
		const result = await runner.run({ file: "skills/a2a-communicator/SKILL.md", line: 0, lang: "sh", code: `${script}\n` }, h);
		// A new agent note starts as spawned: the table's status=running is written, with the lifecycle's warning.
		const stderr = result.stderr.split("\n").filter((l) => l !== "" && l !== "warning: moved from spawned to running, outside the lifecycle");
		expect({ code: result.code, stderr }).toEqual({ code: 0, stderr: [] });
		const [request] = await notesIn(h.vault, box("20-frontend-group", "archive"));
		expect(request.fm).toMatchObject({ source_group: "10-backend-group", request_type: "query", state: "answered" });
		expect(request.text).toContain("## Question\n\n#1 check links");
		const [response] = await notesIn(h.vault, box("10-backend-group", "archive"));
		expect(response.fm).toMatchObject({ in_reply_to: request.fm.message_id, state: "taken" });
		const agent = await fs.readFile(path.join(h.vault, "A2A", "agents", "ui-explorer.md"), "utf8");
		expect(agent).toContain("last_action: \"#1 check links\"");
		expect(agent).toContain("## [");
	}, 90_000);
});

describe("what the documentation tells a newcomer to run", () => {
	const texts = (): { where: string; text: string }[] => {
		const docs = ["README.md", ...readdirSync(path.join(REPO, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
		const skills = readdirSync(path.join(REPO, "skills")).map((dir) => `skills/${dir}/SKILL.md`);
		return [...docs, ...skills].map((file) => ({ where: file, text: readFileSync(path.join(REPO, file), "utf8") }));
	};
	const helpTexts = async (): Promise<{ where: string; text: string }[]> => {
		const main = await a2a(REPO, "--help");
		const commands = [...main.stdout.join("\n").matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
		expect(commands.length).toBeGreaterThanOrEqual(10);
		const out = [{ where: "a2a --help", text: main.stdout.join("\n") }];
		for (const command of commands) {
			const help = await a2a(REPO, command, "--help");
			expect(help.code, command).toBe(0);
			out.push({ where: `a2a ${command} --help`, text: help.stdout.join("\n") });
		}
		return out;
	};

	it("never `npx a2a` (an unrelated package on the npm registry): the command is `a2a` from the a2a-relay package", async () => {
		const all = [...texts(), ...(await helpTexts())];
		expect(all.length).toBeGreaterThan(14);
		expect(all.filter((t) => /npx(\s+-\S+)*\s+a2a(?![\w-])/.test(t.text)).map((t) => t.where)).toEqual([]);
		const readme = all.find((t) => t.where === "README.md")?.text ?? "";
		expect(readme).toContain("## Install the CLI on an agent's machine");
		expect(readme).toMatch(/npm install -g \.\/a2a-relay-[\d.]+\.tgz/);
	});

	it("names only documentation files that exist", async () => {
		const all = [...texts(), ...(await helpTexts())];
		const named = all.flatMap((t) => [...t.text.matchAll(/\bdocs\/[\w.-]+\.md\b/g)].map((m) => ({ where: t.where, file: m[0] })));
		expect(named.length).toBeGreaterThan(3);
		const missing = [];
		for (const { where, file } of named) if (!(await fs.stat(path.join(REPO, file)).catch(() => null))) missing.push(`${where}: ${file}`);
		expect(missing).toEqual([]);
	});

	it("docs/agents.md says what an agent does about each error code of the protocol, and names no other", () => {
		const agents = readFileSync(path.join(REPO, "docs", "agents.md"), "utf8");
		const rows = [...agents.matchAll(/^\| `([A-Z_]+)` \| (.+?) \| (.+?) \|$/gm)];
		expect(rows.map((r) => r[1]).sort()).toEqual([...ERROR_CODES].sort());
		for (const [, code, what, todo] of rows) expect({ code, what: what.length > 10, todo: todo.length > 10 }).toEqual({ code, what: true, todo: true });
	});
});
