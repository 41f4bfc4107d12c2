import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";

// `npm run demo` ends by bringing the shipped agents' times up to now (scripts/demo-times.mjs), so
// the demo vault looks alive; one agent stays stale on purpose and the README names it.

const repo = path.resolve(__dirname, "..", "..");
const NOW = Date.parse("2030-06-01T12:00:00Z");
let dir = "";
beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-demo-times-"));
	await fs.cp(path.join(repo, "demo", "vault"), dir, { recursive: true });
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

interface Refreshed {
	lines: string[];
	ages: Record<string, number>;
	stale: { id: string; path: string };
}

function refresh(): Refreshed {
	const code = `import { refreshShippedAgentTimes, SHIPPED_AGENT_AGES, STALE_AGENT } from ${JSON.stringify(path.join(repo, "scripts", "demo-times.mjs"))};
const lines = refreshShippedAgentTimes(process.argv[1], Number(process.argv[2]));
console.log(JSON.stringify({ lines, ages: SHIPPED_AGENT_AGES, stale: STALE_AGENT }));`;
	const result = spawnSync(process.execPath, ["--input-type=module", "-e", code, dir, String(NOW)], { encoding: "utf8" });
	expect(result.stderr).toBe("");
	return JSON.parse(result.stdout) as Refreshed;
}

/** The agent notes the vault ships with: all of them but those a previous `npm run demo` created (its .a2a-demo.json). */
async function agentNotes(): Promise<string[]> {
	const manifest = await fs.readFile(path.join(dir, ".a2a-demo.json"), "utf8").catch(() => "{}");
	const created = new Set((JSON.parse(manifest) as { agents?: string[] }).agents ?? []);
	const found: string[] = [];
	for (const folder of ["A2A/agents", "Runs"]) {
		for (const name of await fs.readdir(path.join(dir, folder)).catch(() => [] as string[])) {
			if (name.endsWith(".md") && !created.has(`${folder}/${name}`)) found.push(`${folder}/${name}`);
		}
	}
	return found.sort();
}

describe("the demo vault's agent times", () => {
	it("every shipped agent shows as just updated, but the one stale on purpose, which the README names", async () => {
		const before = await agentNotes();
		const { lines, ages, stale } = refresh();
		expect(Object.keys(ages).sort()).toEqual(before);
		expect(lines).toHaveLength(before.length);
		const settings = JSON.parse(await fs.readFile(path.join(dir, ".obsidian/plugins/a2a-relay/data.json"), "utf8")) as { staleMinutes: number };
		const limit = settings.staleMinutes * 60_000;
		for (const rel of before) {
			const fm = readFrontmatter(await fs.readFile(path.join(dir, rel), "utf8")) ?? {};
			const age = NOW - Date.parse(String(fm.updated));
			if (rel === stale.path) {
				expect(fm.agent_id).toBe(stale.id);
				expect(age).toBeGreaterThan(limit);
				expect(age).toBeLessThan(2 * 3600_000);
			} else {
				expect({ rel, fresh: age >= 0 && age <= 10 * 60_000 }).toEqual({ rel, fresh: true });
			}
			if (fm.spawned_at !== undefined) expect(Date.parse(String(fm.spawned_at))).toBeLessThanOrEqual(Date.parse(String(fm.updated)));
		}
		expect(await fs.readFile(path.join(repo, "README.md"), "utf8")).toContain(`\`${stale.id}\``);
	});

	it("changes only the updated and spawned_at lines, and keeps how long each agent has been alive", async () => {
		const notes = await agentNotes();
		const original = new Map<string, string>();
		for (const rel of notes) original.set(rel, await fs.readFile(path.join(dir, rel), "utf8"));
		refresh();
		for (const rel of notes) {
			const was = original.get(rel) ?? "";
			const now = await fs.readFile(path.join(dir, rel), "utf8");
			const other = (text: string) => text.split("\n").filter((l) => !/^(updated|spawned_at):/.test(l));
			expect(other(now)).toEqual(other(was));
			const a = readFrontmatter(was) ?? {};
			const b = readFrontmatter(now) ?? {};
			if (a.spawned_at !== undefined) {
				const alive = (fm: Record<string, unknown>) => Date.parse(String(fm.updated)) - Date.parse(String(fm.spawned_at));
				expect(alive(b)).toBe(alive(a));
			}
		}
	});
});
