import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useCliBundle, watching } from "../helpers/cli-process";
import { REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Small edges of the command line that a newcomer or a script meets first.

const cli = useCliBundle();
const vaults: TempVault[] = [];
async function tempVault(): Promise<TempVault> {
	const v = await makeTempVault("a2a-edges-");
	vaults.push(v);
	return v;
}
/** A temporary vault set up by `a2a init`. */
async function initialisedVault(): Promise<TempVault> {
	const v = await tempVault();
	expect((await a2a(v.dir, "init")).code).toBe(0);
	return v;
}
afterEach(async () => {
	await Promise.all(vaults.splice(0).map((v) => v.cleanup()));
});

describe("a2a init --vault DIR", () => {
	it("creates DIR (and its parents) when it does not exist, then sets it up", async () => {
		const v = await tempVault();
		const dir = path.join(v.dir, "new", "vault");
		const result = await a2a(dir, "init");
		expect(result.stderr).toEqual([]);
		expect(result.code).toBe(0);
		expect(result.stdout[0]).toBe(`created folder ${dir}`);
		expect(await v.exists("new/vault/A2A/registry.yaml")).toBe(true);
		expect(await v.exists("new/vault/A2A/groups/10-backend-group/outbox")).toBe(true);
	});

	it("still refuses a vault path that is a file", async () => {
		const v = await tempVault();
		await v.write("not-a-folder", "x");
		const result = await a2a(path.join(v.dir, "not-a-folder"), "init");
		expect(result.code).toBe(2);
		expect(result.stderr.join("\n")).toContain("is not a folder");
	});

	it("other commands do not create a missing vault: they say it does not exist", async () => {
		const v = await tempVault();
		const result = await a2a(path.join(v.dir, "typo"), "status");
		expect(result.code).toBe(2);
		expect(result.stderr.join("\n")).toContain("does not exist");
		expect(await v.exists("typo")).toBe(false);
	});
});

describe("a group added to the registry while a2a route --watch runs", () => {
	it("gets its inbox, outbox and archive folders, as a2a init gives them, before any message names it", async () => {
		const v = await initialisedVault();
		const w = watching(cli.spawn(["route", "--watch", "--grace", "0", "--interval", "100", "--vault", v.dir]));
		try {
			const started = Date.now() + 20_000;
			while (![...w.lines, ...w.errors].some((l) => l.startsWith("Watching "))) {
				if (Date.now() > started) throw new Error(`a2a route --watch did not start:\n${w.errors.join("\n")}`);
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			await v.write("A2A/registry.yaml", `${REGISTRY}  50-qa-group:\n    description: Tests\n`);
			const boxes = ["inbox", "outbox", "archive"].map((box) => `A2A/groups/50-qa-group/${box}`);
			const deadline = Date.now() + 20_000;
			while (!(await Promise.all(boxes.map((b) => v.exists(b)))).every(Boolean)) {
				if (Date.now() > deadline) throw new Error(`gave up waiting for ${boxes.join(", ")}\nstderr:\n${w.errors.join("\n")}`);
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			expect(await v.files("A2A/groups/50-qa-group")).toEqual([]);
		} finally {
			w.child.kill("SIGTERM");
			expect(await w.closed).toBe(0);
		}
	});
});

describe("a2a send --trace, --hop and --parent refuse what the router would reject (issue 19, point 7)", () => {
	const outbox = (group: string) => `A2A/groups/${group}/outbox`;

	it("over the hop limit: MAX_HOPS_EXCEEDED in the router's words, exit 1, nothing written", async () => {
		const v = await initialisedVault();
		const run = await a2a(v.dir, "send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "x", "--trace", "11111111-1111-4111-8111-111111111111", "--hop", "9");
		expect(run.code).toBe(1);
		expect(run.stderr.join("\n")).toContain("the router would reject it (MAX_HOPS_EXCEEDED): hop_count is 9");
		expect(await v.files(outbox("10-backend-group"))).toEqual([]);
	});

	it("back to a group still waiting on the chain: CYCLE_DETECTED, exit 1, nothing written", async () => {
		const v = await initialisedVault();
		const first = await a2a(v.dir, "send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "x", "--json");
		const id = String(first.json[0].message_id);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const run = await a2a(v.dir, "send", "--from", "20-frontend-group", "--to", "10-backend-group", "--type", "query", "--question", "y", "--parent", id);
		expect(run.code).toBe(1);
		expect(run.stderr.join("\n")).toContain("the router would reject it (CYCLE_DETECTED): 10-backend-group is already on this request's chain");
		expect(await v.files(outbox("20-frontend-group"))).toEqual([]);
	});
});

describe("an answer matched strictly (issue 19, point 5)", () => {
	it("an in_reply_to that names no request is INVALID_MESSAGE, even while a request of the same trace waits for the sender's answer", async () => {
		const v = await initialisedVault();
		const first = await a2a(v.dir, "send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "x", "--json");
		const trace = String(first.json[0].trace_id);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const answer = requestNote({ message_id: "answer-to-nothing", trace_id: trace, source_group: "20-frontend-group", target_group: "10-backend-group", request_type: undefined, hop_count: undefined, in_reply_to: "no-such-request", status: "success" }, "## Answer\n\nHere.\n");
		await v.write("A2A/groups/20-frontend-group/outbox/answer.md", answer);
		const run = await a2a(v.dir, "route", "--json");
		expect(run.json).toMatchObject([{ outcome: "rejected", message_id: "answer-to-nothing", error_code: "INVALID_MESSAGE" }]);
		expect(await v.files("A2A/groups/10-backend-group/inbox")).toEqual([]);
		const [error] = (await v.files("A2A/groups/20-frontend-group/inbox")).filter((f) => f.includes("/error-"));
		expect((await v.frontmatter(error)).error_message).toContain(`in_reply_to "no-such-request" names no request that was delivered`);
	});
});

describe("a2a status --json | head -1", () => {
	it("ends quietly with exit status 0 when the reader closes the pipe early", async () => {
		const v = await tempVault();
		await v.write("A2A/registry.yaml", REGISTRY);
		// Far more output than a pipe holds, so the CLI is still writing when head has gone.
		const agents = path.join(v.dir, "A2A", "agents");
		await fs.mkdir(agents, { recursive: true });
		await Promise.all(
			Array.from({ length: 1500 }, (_, i) =>
				fs.writeFile(path.join(agents, `agent-${i}.md`), `---\nagent_id: agent-${i}\nstatus: running\nprogress_percent: 10\nlast_action: ${"x".repeat(100)}\n---\n`),
			),
		);
		const script = `"${process.execPath}" "${cli.path()}" status --json --vault "${v.dir}" | head -1; exit "\${PIPESTATUS[0]}"`;
		const result = spawnSync("bash", ["-c", script], { encoding: "utf8", timeout: 30_000 });
		expect(result.stderr).toBe("");
		expect(result.status).toBe(0);
		const lines = result.stdout.split("\n").filter(Boolean);
		expect(lines).toHaveLength(1);
		expect(JSON.parse(lines[0])).toMatchObject({ type: "agent" });
	});
});

/** Splits one shell command line into words (double and single quotes, no expansions). */
function shellWords(line: string): string[] {
	const words: string[] = [];
	const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
	for (const m of line.matchAll(pattern)) words.push(m[1] ?? m[2] ?? m[3]);
	return words;
}

describe("the README's command-line examples", () => {
	it("its `a2a agent set` lines follow the agent lifecycle: run in order on a fresh vault, no warning", async () => {
		const readme = await fs.readFile(path.join(__dirname, "..", "..", "README.md"), "utf8");
		const lines = readme
			.split("\n")
			.map((l) => l.trim().replace(/^npx (-p a2a-relay )?/, ""))
			.filter((l) => /^a2a agent set /.test(l));
		expect(lines.length).toBeGreaterThan(0);
		const v = await initialisedVault();
		const home = os.homedir();
		for (const line of lines) {
			const words = shellWords(line.replace(/\s+#.*$/, "")).slice(1).map((w) => w.replace(/^~\/vault$/, v.dir).replace(/^~/, home));
			const result = await a2a(v.dir, ...words);
			expect({ line, code: result.code, stderr: result.stderr }).toEqual({ line, code: 0, stderr: [] });
		}
		const note = await v.frontmatter("A2A/agents/ui-explorer.md");
		expect(note.status).toBe("running");
	});
});
