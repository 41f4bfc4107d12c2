import { describe, expect, it } from "vitest";
import { a2a } from "../helpers/temp-vault";
import { useMcpHarness } from "../helpers/mcp-harness";

// The three tools about agents, as an LLM agent uses them over MCP (the official client, `a2a mcp`
// as a child process): its status and findings land in its agent note, the one the sidebar and
// `a2a status` read, and relay_status reports what `a2a status --json` reports.

const FRONTEND = "20-frontend-group";
const AGENT = "frontend-agent";

const h = useMcpHarness();

describe("a2a mcp: the agent's own note and the relay's status", () => {
	it("set_agent_status and append_finding write the agent note; relay_status and a2a status --json report it alike", async () => {
		const vault = await h.vault();
		const agent = await h.agent(vault, FRONTEND, AGENT);
		const note = `A2A/agents/${AGENT}.md`;

		const started = await agent.call("set_agent_status", { status: "active", last_action: "Process started" });
		expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
		const running = await agent.call("set_agent_status", { status: "running", progress_percent: 40, last_action: "Checking the form", ticket: "UI-7" });
		expect(running.isError, JSON.stringify(running.content)).toBeFalsy();
		expect(await vault.frontmatter(note)).toMatchObject({ agent_id: AGENT, group: FRONTEND, status: "running", progress_percent: 40, last_action: "Checking the form", ticket: "UI-7" });

		const finding = await agent.call("append_finding", { action: "Email field missing", data: "register.tsx has no email input", next_steps: "Ask the backend group" });
		expect(finding.isError, JSON.stringify(finding.content)).toBeFalsy();
		const text = await vault.read(note);
		expect(text).toMatch(/^## \[[^\]]+\] Email field missing$/m);
		expect(text).toContain("register.tsx has no email input");
		expect(text).toContain("Ask the backend group");

		const status = await agent.call("relay_status", {});
		expect(status.isError, JSON.stringify(status.content)).toBeFalsy();
		type Row = { type: string; name?: string; group?: string; status?: string; progress?: number };
		const reported = status.structuredContent as { agents: Row[]; groups: Row[] };
		const cli = await a2a(vault.dir, "status", "--json");
		expect(cli.code).toBe(0);
		const rows = cli.json as unknown as Row[];
		const mine = reported.agents.find((a) => a.name === AGENT);
		expect(mine).toMatchObject({ status: "running", progress: 40 });
		expect(mine).toEqual(rows.find((r) => r.type === "agent" && r.name === AGENT));
		expect(reported.groups.map((g) => g.group)).toEqual(rows.filter((r) => r.type === "group").map((r) => r.group));
	});
});
