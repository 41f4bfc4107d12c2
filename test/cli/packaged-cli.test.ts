import { execFileSync, spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";

// The CLI without this repository: `npm pack` (its prepack builds dist/cli.cjs), then a global
// install of the packed file into a temporary prefix, offline, as on an agent's machine that has
// only Node. The installed `a2a` is run from that prefix against a temporary vault.

const repo = path.resolve(__dirname, "..", "..");
let work = "";
let prefix = "";
let a2aBin = "";
let packedFiles: string[] = [];

/** The environment of a user's shell: none of the npm_* variables of an `npm test` around us. */
function userEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
	return env;
}

function a2a(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
	const result = spawnSync(a2aBin, args, { cwd, env: userEnv(), encoding: "utf8", timeout: 20_000 });
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
	work = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-packed-"));
	const packJson = execFileSync("npm", ["pack", "--pack-destination", work, "--json", "--silent"], { cwd: repo, env: userEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
	const [packed] = JSON.parse(packJson.slice(packJson.indexOf("["))) as { filename: string; files: { path: string }[] }[];
	packedFiles = packed.files.map((f) => f.path).sort();
	prefix = path.join(work, "prefix");
	execFileSync("npm", ["install", "--global", path.join(work, packed.filename), "--prefix", prefix, "--offline", "--no-audit", "--no-fund", "--silent"], {
		cwd: work,
		env: userEnv(),
		stdio: ["ignore", "pipe", "pipe"],
	});
	a2aBin = path.join(prefix, "bin", "a2a");
}, 60_000);

afterAll(async () => {
	if (work) await fs.rm(work, { recursive: true, force: true });
});

describe("the packed a2a-relay package", () => {
	it("holds the command, its bundle and the docs an agent reads, and declares no runtime dependency", async () => {
		expect(packedFiles).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "bin/a2a.cjs", "dist/cli.cjs", "docs/agents.md", "docs/protocol.md", "docs/scale.md", "package.json", "skills/a2a-communicator/SKILL.md"]);
		const installed = path.join(prefix, "lib", "node_modules", "a2a-relay");
		const pkg = JSON.parse(await fs.readFile(path.join(installed, "package.json"), "utf8")) as Record<string, unknown>;
		expect(pkg.name).toBe("a2a-relay");
		expect(pkg.bin).toEqual({ a2a: "bin/a2a.cjs" });
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(await fs.stat(path.join(installed, "node_modules")).catch(() => null)).toBeNull();
	});

	it("every docs/*.md the packed README, docs, skill and the registry a2a init writes name is in the package", async () => {
		const installed = path.join(prefix, "lib", "node_modules", "a2a-relay");
		const vault = path.join(work, "docs-vault");
		expect(a2a(["init", "--vault", vault], work).status).toBe(0);
		const texts = [
			...(await Promise.all(packedFiles.filter((f) => f.endsWith(".md")).map((f) => fs.readFile(path.join(installed, f), "utf8")))),
			await fs.readFile(path.join(vault, "A2A", "registry.yaml"), "utf8"),
		];
		const named = new Set(texts.flatMap((t) => [...t.matchAll(/\bdocs\/[\w.-]+\.md\b/g)].map((m) => m[0])));
		expect(named.size).toBeGreaterThanOrEqual(2);
		expect([...named].filter((f) => !packedFiles.includes(f))).toEqual([]);
	});

	it("a2a --help, init, send and route work from the install prefix, against a fresh vault", async () => {
		const help = a2a(["--help"], work);
		expect(help.status).toBe(0);
		expect(help.stdout).toContain("Usage: a2a <command> [options]");

		const vault = path.join(work, "agent-home", "vault");
		const init = a2a(["init", "--vault", vault], work);
		expect(init.stderr).toBe("");
		expect(init.status).toBe(0);
		expect(await fs.readFile(path.join(vault, "A2A", "registry.yaml"), "utf8")).toContain("10-backend-group");

		const send = a2a(["send", "--vault", vault, "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "Which fields are mandatory?", "--json"], vault);
		expect(send.stderr).toBe("");
		expect(send.status).toBe(0);
		const sent = JSON.parse(send.stdout.trim().split("\n")[0]) as { path: string; message_id: string };
		expect(sent.path).toMatch(/^A2A\/groups\/10-backend-group\/outbox\/.+\.md$/);
		expect(await fs.stat(path.join(vault, sent.path)).then((s) => s.isFile())).toBe(true);

		const route = a2a(["route", "--vault", vault, "--json"], vault);
		expect(route.stderr).toBe("");
		expect(route.status).toBe(0);
		const [decision] = route.stdout.trim().split("\n").map((l) => JSON.parse(l) as { outcome: string; path: string; message_id: string });
		expect(decision).toMatchObject({ outcome: "delivered", message_id: sent.message_id });
		expect(decision.path).toMatch(/^A2A\/groups\/20-frontend-group\/inbox\//);
		await expect(fs.stat(path.join(vault, sent.path))).rejects.toThrow();
		const delivered = readFrontmatter(await fs.readFile(path.join(vault, decision.path), "utf8"));
		expect(delivered).toMatchObject({ state: "delivered", message_id: sent.message_id, source_group: "10-backend-group", target_group: "20-frontend-group" });
	});
});
