import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { BOX, REGISTRY, a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Notes written by agents without the CLI, exactly as PyYAML's safe_dump emits them (docs/agents.md).

const FIXTURES = path.join(__dirname, "..", "fixtures", "pyyaml");
let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
});
afterEach(() => v.cleanup());

const fixture = (name: string) => fs.readFile(path.join(FIXTURES, name), "utf8");

it("routes a request and its response written by PyYAML (quoted strings, null, dates, block lists)", async () => {
	await v.write(`${BOX("10-backend-group", "outbox")}/ask.md`, await fixture("request.md"));
	const first = await a2a(v.dir, "route", "--json");
	expect(first.json).toMatchObject([{ outcome: "delivered", message_id: "py-req-1" }]);
	const delivered = await v.frontmatter(`${BOX("20-frontend-group", "inbox")}/ask.md`);
	expect(delivered).toMatchObject({ owner: "yes", tags: ["a2a", "from-python"], timeout_seconds: 60, route: ["10-backend-group", "20-frontend-group"] });
	expect(Date.parse(delivered.expires_at as string) - Date.parse(delivered.delivered_at as string)).toBe(60000);
	expect(await v.body(`${BOX("20-frontend-group", "inbox")}/ask.md`)).toBe((await fixture("request.md")).split("---\n").slice(2).join("---\n"));

	await v.write(`${BOX("20-frontend-group", "outbox")}/answer.md`, await fixture("response.md"));
	const second = await a2a(v.dir, "route", "--json");
	expect(second.json).toMatchObject([{ outcome: "answered", target_group: "10-backend-group" }]);
	const response = await v.frontmatter(`${BOX("10-backend-group", "inbox")}/answer.md`);
	expect(response.target_group).toBe("10-backend-group");
	expect(typeof response.processing_time_ms).toBe("number");
});

it("shows a PyYAML agent note in a2a status", async () => {
	await v.write("A2A/agents/py-explorer.md", await fixture("agent.md"));
	const status = await a2a(v.dir, "status", "--json");
	expect(status.code).toBe(0);
	expect(status.json.find((l) => l.type === "agent")).toMatchObject({ name: "py-explorer", status: "running", progress: 40, last_action: "Checking 'quoted' links: /about", error: null, result: "pending" });
});

it("refuses, as PyYAML does, a note whose list mixes items at column 0 and indented ones (tags:\\n  - a\\n- b)", async () => {
	const request = await fixture("request.md");
	const mixed = request.replace("tags:\n- a2a\n- from-python\n", "tags:\n  - a2a\n- from-python\n");
	expect(mixed).not.toBe(request);
	// PyYAML, where this machine has it, is the witness: it refuses the block too.
	const python = spawnSync("python3", ["-c", "import sys, yaml; yaml.safe_load(sys.stdin.read().split('---\\n')[1])"], { input: mixed, encoding: "utf8" });
	if (python.status !== null && !/No module named/.test(python.stderr)) expect(python.stderr).toMatch(/ScannerError|ParserError/);
	await v.write(`${BOX("10-backend-group", "outbox")}/mixed.md`, mixed);
	const routed = await a2a(v.dir, "route", "--json");
	expect(routed.json).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE" }]);
	expect(await v.files(BOX("20-frontend-group", "inbox"))).toEqual([]);
	expect(await v.files("A2A/dead-letter")).toEqual(["A2A/dead-letter/mixed.md"]);
});

it("quarantines, as PyYAML refuses, a note whose anchor name holds a no-break space (it was read, then every stamp threw)", async () => {
	const request = await fixture("request.md");
	const anchored = request.replace("owner: 'yes'\n", "owner: 'yes'\nnote: &x\u00a0\n");
	expect(anchored).not.toBe(request);
	const python = spawnSync("python3", ["-c", "import sys, yaml; yaml.safe_load(sys.stdin.read().split('---\\n')[1])"], { input: anchored, encoding: "utf8" });
	if (python.status !== null && !/No module named/.test(python.stderr)) expect(python.stderr).toMatch(/ScannerError|ParserError/);
	await v.write(`${BOX("10-backend-group", "outbox")}/anchored.md`, anchored);
	const routed = await a2a(v.dir, "route", "--json");
	expect(routed.stderr.filter((l) => l.startsWith("could not route"))).toEqual([]);
	expect(routed.json).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE" }]);
	expect(await v.files(BOX("10-backend-group", "outbox"))).toEqual([]);
	expect(await v.files("A2A/dead-letter")).toEqual(["A2A/dead-letter/anchored.md"]);
});
