import { describe, expect, it } from "vitest";
import { useMcpHarness } from "../helpers/mcp-harness";
import { listFiles } from "../../test-support/mcp-agents";
import { runLoad } from "../../test-support/mcp-load";

// Four agent processes exchange request/response pairs through MCP with one router process: none
// is lost, none is answered or taken twice, and the vault ends with every request archived by its
// answerer and every response archived (taken) by its requester. The full-size run, with the wait
// latency figures, is `npm run bench`.

const GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"];
const PAIRS_PER_AGENT = 25;

const h = useMcpHarness();

describe("a2a mcp under load", () => {
	it(`4 agents x ${PAIRS_PER_AGENT} pairs: none lost, none twice, the vault and the log hold every one`, async () => {
		const vault = await h.vault();
		const router = h.router(vault);
		const agents = await Promise.all(GROUPS.map((g) => h.agent(vault, g)));
		const result = await runLoad({ agents, pairsPerAgent: PAIRS_PER_AGENT });
		const total = GROUPS.length * PAIRS_PER_AGENT;

		expect(result.failures).toEqual([]);
		expect(result.answers.size).toBe(total);
		expect([...result.replyCounts.keys()].sort()).toEqual([...result.answers.keys()].sort());
		expect([...result.replyCounts.values()].every((n) => n === 1)).toBe(true);
		expect([...result.takenCounts.keys()].sort()).toEqual([...result.answers.values()].sort());
		expect([...result.takenCounts.values()].every((n) => n === 1)).toBe(true);

		await router.stop();
		const files = await listFiles(vault.dir);
		const messages = files.filter((f) => f.startsWith("A2A/groups/") || f.startsWith("A2A/dead-letter/"));
		expect(messages.filter((f) => !/\/archive\/\d{4}-\d{2}\/[^/]+\.md$/.test(f))).toEqual([]);
		expect(messages).toHaveLength(2 * total);
		for (const group of GROUPS) {
			const archived = messages.filter((f) => f.startsWith(`A2A/groups/${group}/archive/`));
			// Each group archived the requests sent to it (it answered them) and the answers to its own (it took them).
			expect(archived.filter((f) => f.includes("-query-to-") && !f.includes(`-query-to-${group}-`))).toEqual([]);
			expect(archived.filter((f) => f.includes("-success-to-"))).toHaveLength(PAIRS_PER_AGENT);
		}
		expect(messages.filter((f) => f.includes("-query-to-"))).toHaveLength(total);
		const rows = (await Promise.all(files.filter((f) => f.startsWith("A2A/log/")).map((f) => vault.read(f))))
			.join("\n")
			.split("\n")
			.filter((l) => /^\| \d\d:\d\d:\d\d \|/.test(l))
			.map((l) => l.split("|")[2].trim());
		expect(rows.filter((o) => o === "delivered")).toHaveLength(total);
		expect(rows.filter((o) => o === "answered")).toHaveLength(total);
		expect(rows).toHaveLength(2 * total);
	}, 180_000);
});
