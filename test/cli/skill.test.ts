import { promises as fs } from "node:fs";
import * as path from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serialQueue } from "../../servers/mcp/context";
import { buildMcpServer } from "../../servers/mcp/server";
import { MCP_TOOL_NAMES } from "../../servers/mcp/tool-names";
import { NodeVault } from "../../node/node-vault";
import { ENVELOPE_FIELD_ORDER } from "../../src/core/message";
import { ERROR_CODES, MESSAGE_STATES } from "../../src/core/protocol";
import { REQUEST_OUTCOMES } from "../../src/core/request-outcome";
import { Router } from "../../src/router/router";
import { REGISTRY, a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The A2A Communicator skill names only what exists: every MCP tool and every field it mentions is
// one the server has, every `a2a` command and flag is one the CLI accepts, every error code is the
// protocol's (and each of them is explained). `a2a skill install` puts the very file in place.

const SKILL_FILE = path.join(process.cwd(), "skills", "a2a-communicator", "SKILL.md");

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
});
afterEach(() => v.cleanup());

/** Every property name in a JSON schema, at any depth. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
	if (Array.isArray(schema)) for (const item of schema) propertyNames(item, into);
	else if (schema && typeof schema === "object") {
		for (const [key, value] of Object.entries(schema)) {
			if (key === "properties" && value && typeof value === "object") for (const name of Object.keys(value)) into.add(name);
			propertyNames(value, into);
		}
	}
	return into;
}

async function listedTools(): Promise<{ name: string; inputSchema: unknown; outputSchema?: unknown }[]> {
	const vault = new NodeVault(v.dir);
	const router = new Router(vault);
	await router.loadRegistry();
	const server = buildMcpServer({ vault, router, group: "10-backend-group", serial: serialQueue(), log: () => undefined }, "test");
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	await server.connect(serverSide);
	const client = new Client({ name: "skill-test", version: "0" });
	await client.connect(clientSide);
	try {
		return (await client.listTools()).tools;
	} finally {
		await client.close();
		await server.close();
	}
}

describe("the A2A Communicator skill", () => {
	it("names every MCP tool, and only tools and fields the server has", async () => {
		const skill = await fs.readFile(SKILL_FILE, "utf8");
		const tools = await listedTools();
		expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
		const known = new Set<string>([...MCP_TOOL_NAMES, ...ENVELOPE_FIELD_ORDER, ...MESSAGE_STATES, ...REQUEST_OUTCOMES, "generated_by"]);
		for (const tool of tools) {
			propertyNames(tool.inputSchema, known);
			propertyNames(tool.outputSchema, known);
		}
		const named = [...skill.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]);
		expect(named.length).toBeGreaterThan(20);
		expect(named.filter((n) => !known.has(n))).toEqual([]);
		for (const tool of MCP_TOOL_NAMES) expect(skill, tool).toContain(`\`${tool}\``);
		expect(skill).toMatch(/^---\nname: a2a-communicator\ndescription: \S.*\n---\n/);
	});

	it("names only a2a commands and flags the CLI accepts", async () => {
		const skill = await fs.readFile(SKILL_FILE, "utf8");
		const snippets = [...skill.matchAll(/`(a2a [^`]+)`/g)].map((m) => m[1]);
		expect(snippets.length).toBeGreaterThan(8);
		for (const snippet of snippets) {
			const [, command, ...rest] = snippet.split(/\s+/);
			const help = await a2a(v.dir, command, "--help");
			expect(help.code, snippet).toBe(0);
			for (const flag of rest.filter((w) => /^--[a-z-]+$/.test(w))) {
				const accepted = await a2a(v.dir, command, flag, "x", "--help");
				expect(accepted.code, `${snippet}: ${flag}`).toBe(0);
			}
		}
	});

	it("explains every error code of the protocol and names no other", async () => {
		const skill = await fs.readFile(SKILL_FILE, "utf8");
		const codes = new Set([...skill.matchAll(/`([A-Z]+(?:_[A-Z]+)+|[A-Z]{4,})`/g)].map((m) => m[1]));
		expect([...codes].sort()).toEqual([...ERROR_CODES].sort());
		for (const code of ERROR_CODES) expect(skill, code).toMatch(new RegExp(`^\\| \`${code}\` \\| .+ \\| .+ \\|$`, "m"));
	});

	it("a2a skill install copies it into DIR/a2a-communicator, and keeps a changed copy unless --force", async () => {
		const skill = await fs.readFile(SKILL_FILE, "utf8");
		const dir = path.join(v.dir, "skills-home");
		const installed = await a2a(v.dir, "skill", "install", dir, "--json");
		expect(installed.code).toBe(0);
		const target = path.join(dir, "a2a-communicator", "SKILL.md");
		expect(installed.json[0]).toEqual({ path: target, outcome: "installed" });
		expect(await fs.readFile(target, "utf8")).toBe(skill);
		expect((await a2a(v.dir, "skill", "install", dir, "--json")).json[0].outcome).toBe("unchanged");
		await fs.writeFile(target, "my own edits\n");
		const refused = await a2a(v.dir, "skill", "install", dir);
		expect(refused.code).toBe(1);
		expect(refused.stderr[0]).toMatch(/exists and differs .* give --force/);
		expect(await fs.readFile(target, "utf8")).toBe("my own edits\n");
		expect((await a2a(v.dir, "skill", "install", dir, "--force", "--json")).json[0].outcome).toBe("replaced");
		expect(await fs.readFile(target, "utf8")).toBe(skill);
		const shown = await a2a(v.dir, "skill", "show");
		expect(shown.stdout.join("\n")).toBe(skill.replace(/\n$/, ""));
	});
});
