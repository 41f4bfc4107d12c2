import { spawn } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planRequest } from "../../src/actions/compose";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { agentStatusArgs } from "../../servers/mcp/schemas";
import { useCliBundle } from "../helpers/cli-process";
import { BOX, a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Issue 28, the agent's second day: the CLI finds its vault from any folder (--vault, else
// A2A_VAULT, else the nearest folder upward holding the registry), keeps agent values as written,
// prints its version, upgrades an older vault's registry with the gateway group, refuses requests
// to the gateway and requests that carry the wrong text for their type, and names what it refuses.

const cli = useCliBundle();
const pkg = JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the real bundle from `cwd` with only PATH, HOME and the test run's cache and state folders of the environment, plus `env`. */
async function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
	const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", A2A_CACHE_DIR: process.env.A2A_CACHE_DIR ?? "", XDG_STATE_HOME: process.env.XDG_STATE_HOME ?? "" };
	const child = spawn(process.execPath, [cli.path(), ...args], { cwd, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
	child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
	const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
	const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
	clearTimeout(timer);
	return { code, stdout, stderr };
}

let sandbox = "";
let v: TempVault;
beforeEach(async () => {
	sandbox = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-second-day-"));
	v = await makeTempVault("a2a-second-day-vault-");
});
afterEach(async () => {
	await fs.rm(sandbox, { recursive: true, force: true });
	await v.cleanup();
});

const A = "10-backend-group";
const B = "20-frontend-group";
const SEND = ["send", "--from", A, "--to", B, "--type", "query", "--question", "Which fields?", "--json"];

describe("1. the vault is found as git finds its repository", () => {
	it("from a folder inside the vault, with neither --vault nor A2A_VAULT, the vault is the nearest folder upward holding A2A/registry.yaml", async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const deep = path.join(v.dir, "projects", "agent-x");
		await fs.mkdir(deep, { recursive: true });
		const sent = await run(SEND, deep);
		expect(sent.stderr).toBe("");
		expect(sent.code).toBe(0);
		const { path: written } = JSON.parse(sent.stdout) as { path: string };
		expect(await v.exists(written)).toBe(true);
		expect(await fs.readdir(deep)).toEqual([]);
	});

	it("the same from a vault whose registry is the note registry.md", async () => {
		expect((await a2a(v.dir, "init", "--registry-note")).code).toBe(0);
		const status = await run(["status", "--json"], path.join(v.dir, "A2A", "groups"));
		expect(status.code).toBe(0);
		expect(status.stdout).toContain('"type":"summary"');
	});

	it("from a folder outside the vault, A2A_VAULT names it; --vault wins over A2A_VAULT", async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const sent = await run(SEND, sandbox, { A2A_VAULT: v.dir });
		expect(sent.stderr).toBe("");
		expect(sent.code).toBe(0);
		expect(await v.files(BOX(A, "outbox"))).toHaveLength(1);
		const other = path.join(sandbox, "other");
		const wrong = await run(["status", "--vault", other], sandbox, { A2A_VAULT: v.dir });
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toContain(`the vault folder ${other} does not exist`);
	});

	it("with no vault to be found, the error names all three ways and never suggests creating one where the user stands", async () => {
		const lost = await run(SEND, sandbox);
		expect(lost.code).toBe(2);
		expect(lost.stderr).toContain("--vault DIR");
		expect(lost.stderr).toContain("A2A_VAULT");
		expect(lost.stderr).toContain(`no folder from ${sandbox} upward holds A2A/registry.yaml or A2A/registry.md`);
		expect(lost.stderr).not.toMatch(/run `?a2a init`?(?! --vault)/);
		expect(await fs.readdir(sandbox)).toEqual([]);
		// A2A_VAULT naming a vault without a registry: init is suggested for that vault, once.
		const empty = path.join(sandbox, "empty-vault");
		await fs.mkdir(empty);
		const noRegistry = await run(["status"], sandbox, { A2A_VAULT: empty });
		expect(noRegistry.code).toBe(2);
		expect(noRegistry.stderr.match(/a2a init/g)).toHaveLength(1);
		expect(noRegistry.stderr).toContain(`a2a init --vault ${empty}`);
	});

	it("A2A_VAULT=~/... names a folder of the home, also when a shell or a client's config left the ~ as it is", async () => {
		const home = path.join(sandbox, "home");
		await fs.mkdir(path.join(home, "vault"), { recursive: true });
		expect((await a2a(path.join(home, "vault"), "init")).code).toBe(0);
		const status = await run(["status", "--json"], sandbox, { HOME: home, A2A_VAULT: "~/vault" });
		expect(status.code).toBe(0);
		expect(status.stdout).toContain('"type":"summary"');
	});

	it("a2a init creates the vault A2A_VAULT names, not the current folder", async () => {
		const target = path.join(sandbox, "new-vault");
		const work = path.join(sandbox, "work");
		await fs.mkdir(work);
		const init = await run(["init"], work, { A2A_VAULT: target });
		expect(init.code).toBe(0);
		expect(await fs.readFile(path.join(target, "A2A", "registry.yaml"), "utf8")).toContain("10-backend-group");
		expect(await fs.readdir(work)).toEqual([]);
	});

	it("a vault found upward in a folder another user owns is refused (a usage error that says how to use it), nothing is written; naming it works", async () => {
		if (process.getuid?.() !== 0) return; // chown to another user needs root
		const planted = path.join(sandbox, "shared");
		expect((await a2a(planted, "init")).code).toBe(0);
		const work = path.join(planted, "project", "sub");
		await fs.mkdir(work, { recursive: true });
		for (const p of [planted, path.join(planted, "A2A"), path.join(planted, "A2A", "registry.yaml")]) await fs.chown(p, 65534, 65534);
		const sent = await run(SEND, work);
		expect(sent.code).toBe(1);
		expect(sent.stderr).toContain(`the vault found upward at ${planted} is not yours`);
		expect(sent.stderr).toContain(`pass --vault ${planted} or set A2A_VAULT=${planted}`);
		expect(await fs.readdir(path.join(planted, "A2A", "groups", A, "outbox"))).toEqual([]);
		// a2a init does not take it for the current folder's vault either.
		const init = await run(["init"], work);
		expect(init.code).toBe(1);
		expect(await fs.readdir(work)).toEqual([]);
		// Named, it is used.
		expect((await run(SEND, work, { A2A_VAULT: planted })).code).toBe(0);
	});

	it("an empty --vault is a usage error, not the current folder", async () => {
		for (const args of [["status", "--vault="], ["status", "--vault", " "]]) {
			const out = await run(args, sandbox);
			expect(out.code, out.stderr).toBe(1);
			expect(out.stderr).toContain("--vault needs a folder");
		}
	});

	it("a2a mcp and a2a serve find the vault the same way", async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const mcp = await run(["mcp", "--group", "99-nobody"], sandbox, { A2A_VAULT: v.dir });
		expect(mcp.code).toBe(1);
		expect(mcp.stderr).toContain('group "99-nobody" is not in the registry (known groups: 10-backend-group');
		await v.write("A2A/registry.yaml", "groups:\n  10-backend-group: {}\n");
		const serve = await run(["serve", "--port", "0"], path.join(v.dir, "A2A"));
		expect(serve.code).toBe(2);
		expect(serve.stderr).toContain(`run a2a init --vault ${v.dir}`);
	});
});

describe("2. agent values are kept as written", () => {
	beforeEach(async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
	});

	it("a value is text as written: #, null, true and leading zeros stay; progress_percent is a number", async () => {
		const set = await a2a(v.dir, "agent", "set", "ui-explorer", "last_action=#1 check links", "note=null", "flag=true", "build=007", "empty=", "progress_percent=50", "status=running");
		expect(set.stderr.filter((l) => !l.startsWith("warning: "))).toEqual([]);
		expect(set.code).toBe(0);
		expect(await v.frontmatter("A2A/agents/ui-explorer.md")).toMatchObject({ last_action: "#1 check links", note: "null", flag: "true", build: "007", empty: "", progress_percent: 50, status: "running" });
	});

	it("a wrong progress_percent or status is a usage error that writes nothing", async () => {
		for (const [field, words] of [
			["progress_percent=150", "progress_percent must be a number from 0 to 100, got 150"],
			["progress_percent=half", 'progress_percent must be a number from 0 to 100, got "half"'],
			["status=runing", 'status must be one of spawned, active, running, completed, failed, terminated, error, got "runing"'],
		] as const) {
			const set = await a2a(v.dir, "agent", "set", "ui-explorer", "last_action=x", field);
			expect(set.code, field).toBe(1);
			expect(set.stderr.join("\n")).toContain(words);
		}
		expect(await v.exists("A2A/agents/ui-explorer.md")).toBe(false);
	});

	it("the MCP tool set_agent_status refuses the same values with the same words", () => {
		const progress = agentStatusArgs.safeParse({ progress_percent: 150 });
		expect(progress.success).toBe(false);
		expect(progress.error?.issues[0].message).toBe("progress_percent must be a number from 0 to 100, got 150");
		const status = agentStatusArgs.safeParse({ status: "runing" });
		expect(status.error?.issues[0].message).toBe('status must be one of spawned, active, running, completed, failed, terminated, error, got "runing"');
	});

	it("a2a agent frob names frob", async () => {
		const frob = await a2a(v.dir, "agent", "frob", "x");
		expect(frob.code).toBe(1);
		expect(frob.stderr.join("\n")).toContain('unknown action "frob"');
	});
});

describe("3. a2a --version", () => {
	it("prints the package's version, with -v too", async () => {
		for (const flag of ["--version", "-v"]) {
			const version = await run([flag], sandbox);
			expect(version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
		}
	});
});

describe("4. a2a init on a vault an older version made", () => {
	const OLD = "# my comment stays\ncommunication:\n  max_hops: 4\ngroups:\n  10-backend-group:\n    description: Mine\n  20-frontend-group: {}\n";

	it("adds the gateway group, changes nothing else in the registry, says what it added; then a2a serve has its gateway", async () => {
		await v.write("A2A/registry.yaml", OLD);
		const init = await a2a(v.dir, "init");
		expect(init.code).toBe(0);
		expect(init.stdout.join("\n")).toContain("added the gateway group a2a-gateway to A2A/registry.yaml");
		const text = await v.read("A2A/registry.yaml");
		expect(text.startsWith(OLD)).toBe(true);
		expect(text.slice(OLD.length)).toBe("  a2a-gateway:\n    description: Sends the requests of outside A2A clients (a2a serve)\n    gateway: true\n");
		expect(await v.exists(`${BOX("a2a-gateway", "outbox")}`)).toBe(true);
		const again = await a2a(v.dir, "init");
		expect(again.stdout).toContain(`Nothing to do: the vault ${v.dir} is already set up.`);
		expect(await v.read("A2A/registry.yaml")).toBe(text);
	});

	it("leaves a registry that has a gateway group of its own as it is", async () => {
		const own = "groups:\n  10-backend-group: {}\n  front-door:\n    gateway: true\n";
		await v.write("A2A/registry.yaml", own);
		const init = await a2a(v.dir, "init");
		expect(init.stdout.join("\n")).not.toContain("added the gateway group");
		expect(await v.read("A2A/registry.yaml")).toBe(own);
	});
});

describe("5. the gateway group is the gateway, not an example group", () => {
	beforeEach(async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
	});

	it("init and status name it as the gateway", async () => {
		const again = await a2a(v.dir, "init", "--vault", v.dir);
		expect(again.code).toBe(0);
		const fresh = await makeTempVault("a2a-second-day-fresh-");
		try {
			const init = await a2a(fresh.dir, "init");
			expect(init.stdout).toContain("Ready: 4 groups and the gateway group a2a-gateway in A2A/registry.yaml.");
		} finally {
			await fresh.cleanup();
		}
		const status = await a2a(v.dir, "status");
		expect(status.stdout).toContain("Groups (4)");
		expect(status.stdout.some((l) => l.startsWith("Gateway: a2a-gateway (a2a serve writes outside A2A clients' requests from it; it answers none)"))).toBe(true);
		const json = await a2a(v.dir, "status", "--json");
		expect(json.json.filter((r) => r.type === "group" && r.gateway === true).map((r) => r.group)).toEqual(["a2a-gateway"]);
	});

	it("a request to it is refused with the reason, in the CLI and the palette alike, and nothing is written", async () => {
		const reason = "a2a-gateway is the gateway group: it carries the requests of outside A2A clients (a2a serve) and answers none; send the request to the group that does the work";
		const send = await a2a(v.dir, "send", "--from", A, "--to", "a2a-gateway", "--type", "query", "--question", "Anyone?");
		expect(send.code).toBe(1);
		expect(send.stderr.join("\n")).toContain(reason);
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const planned = planRequest(router.context(), { from: A, to: "a2a-gateway", type: "query", priority: "medium", timeout: "", text: "Anyone?", context: "", artifacts: [] });
		expect(planned.ok ? "" : planned.errors.to).toBe(`${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`);
	});
});

describe("6. one rule per request type for what it carries", () => {
	beforeEach(async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
	});

	it("a query with a task, or a task with a question, is refused and nothing is written; an artifact request may be phrased either way", async () => {
		const query = await a2a(v.dir, "send", "--from", A, "--to", B, "--type", "query", "--task", "Do it");
		expect(query.code).toBe(1);
		expect(query.stderr.join("\n")).toContain("--task: a query asks a question and carries no task: put the text in the question, or send it as type task");
		const task = await a2a(v.dir, "send", "--from", A, "--to", B, "--type", "task", "--question", "Why?");
		expect(task.code).toBe(1);
		expect(task.stderr.join("\n")).toContain("--question: a task says what to do and carries no question: put the text in the task, or send it as type query");
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		for (const flag of ["--question", "--task"]) {
			expect((await a2a(v.dir, "send", "--from", A, "--to", B, "--type", "artifact", flag, "The build, please")).code).toBe(0);
		}
	});
});

describe("7. help texts", () => {
	it("every usage line lists every flag its help text describes", async () => {
		const main = await a2a(v.dir, "--help");
		const commands = [...main.stdout.join("\n").matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
		expect(commands.length).toBeGreaterThanOrEqual(14);
		const missing: string[] = [];
		for (const command of commands) {
			const help = (await a2a(v.dir, command, "--help")).stdout.join("\n");
			const blank = help.indexOf("\n\n");
			const usage = help.slice(0, blank);
			expect(usage.startsWith(`Usage: a2a ${command}`), command).toBe(true);
			// Flags of other commands the text mentions (a2a reply --message ID) are theirs.
			const body = help.slice(blank).replace(new RegExp(`a2a (?!${command}\\b)[a-z]+[^.;,\\n)]*`, "g"), "");
			const described = new Set([...body.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
			for (const flag of described) if (!new RegExp(`${flag}(?![a-z-])`).test(usage)) missing.push(`a2a ${command}: ${flag}`);
		}
		expect(missing).toEqual([]);
	});
});

describe("10. arguments through Node's parser, with suggestions", () => {
	it("a misspelled command or option is refused (exit 1) with the one meant", async () => {
		const command = await a2a(v.dir, "sned");
		expect(command.code).toBe(1);
		expect(command.stderr.join("\n")).toContain('unknown command "sned" (did you mean a2a send?)');
		const option = await a2a(v.dir, "send", "--form", A, "--to", B, "--type", "query", "--question", "Q?");
		expect(option.code).toBe(1);
		expect(option.stderr.join("\n")).toContain("unknown option --form (did you mean --from?)");
	});

	it("keeps the words the tests pin: a value flag followed by a flag, a boolean with a value, a repeated flag; after -- an argument is positional", async () => {
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const cases: [string[], string][] = [
			[["send", "--from", A, "--to", B, "--type", "query", "--question", "--context", "x"], "--question needs a value"],
			[["status", "--json=yes"], "--json takes no value"],
			[["send", "--from", A, "--from", A], "--from was given more than once"],
		];
		for (const [argv, words] of cases) {
			const run = await a2a(v.dir, ...argv);
			expect(run.code, argv.join(" ")).toBe(1);
			expect(run.stderr.join("\n")).toContain(words);
		}
		const dashed = await a2a(v.dir, "read", "--vault", v.dir, "--", "-not-an-option");
		expect(dashed.stderr.join("\n")).toContain('no message with message_id "-not-an-option"');
	});
});
