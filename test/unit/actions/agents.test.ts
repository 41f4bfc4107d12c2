import { describe, expect, it } from "vitest";
import { planFinding, writeFinding } from "../../../src/actions/append-finding";
import { parseInteger, parseNumber } from "../../../src/actions/input";
import { planAgent } from "../../../src/actions/new-agent";
import { noNextStatus, planAgentStatus, writeAgentStatus } from "../../../src/actions/set-status";
import { readFrontmatter } from "../../../src/core/frontmatter";
import { NOW } from "./context";
import { MemoryActionVault } from "./memory-action-vault";

// The agent actions planned and written on plain inputs: a status move, a finding, a new agent note.

const status = (s: string, progress = "", lastAction = "") => ({ status: s, progress, lastAction });

describe("planAgentStatus", () => {
	it("plans a legal move with progress and the last action", () => {
		expect(planAgentStatus({ status: "active" }, { status: "active" }, status("running", "40", "  migrating  "), NOW)).toEqual({
			ok: true,
			updates: [
				["status", "running"],
				["progress_percent", 40],
				["last_action", "migrating"],
			],
		});
	});

	it("refuses a move outside the lifecycle and a progress that is no percentage", () => {
		expect(planAgentStatus({ status: "active" }, { status: "active" }, status("completed"), NOW)).toEqual({ ok: false, errors: { status: "Choose one of running, failed." } });
		expect(planAgentStatus({ status: "running" }, { status: "running" }, status("running", "forty"), NOW)).toEqual({ ok: false, errors: { progress: "Enter a number from 0 to 100." } });
		expect(planAgentStatus({ status: "running" }, { status: "running" }, status("running", "150"), NOW)).toEqual({ ok: false, errors: { progress: "Enter a number from 0 to 100." } });
	});

	it("says when an agent has no next status", () => {
		expect(noNextStatus({ name: "a", status: "running" })).toBeNull();
		expect(noNextStatus({ name: "a", status: "terminated" })).toBe("a is terminated, a final status: there is no next status to move to.");
		expect(noNextStatus({ name: "a", status: "paused" })).toBe('a has the status "paused", which is not in the lifecycle: there is no legal next status.');
	});

	it("writes the move and the time of the update, and fails on a note that is gone", async () => {
		const vault = new MemoryActionVault();
		vault.writeRaw("A2A/agents/a.md", "---\nstatus: active\n---\nNotes.\n");
		await writeAgentStatus(vault, "A2A/agents/a.md", [["status", "running"]], NOW);
		expect(readFrontmatter(vault.readRaw("A2A/agents/a.md") ?? "")).toEqual({ status: "running", updated: "2026-12-01T10:00:00.000Z" });
		await expect(writeAgentStatus(vault, "A2A/agents/gone.md", [["status", "running"]], NOW)).rejects.toThrow("A2A/agents/gone.md was moved or deleted meanwhile");
	});
});

describe("planFinding and writeFinding", () => {
	it("needs an action, on one line", () => {
		expect(planFinding({ action: " \n " })).toEqual({ ok: false, errors: { action: "Name the action (it becomes the heading)." } });
		expect(planFinding({ action: " Schema\n designed ", data: "3 tables" })).toEqual({ ok: true, finding: { action: "Schema designed", data: "3 tables" } });
	});

	it("appends the finding under a timestamped heading", async () => {
		const vault = new MemoryActionVault();
		vault.writeRaw("A2A/agents/a.md", "---\nstatus: running\n---\nNotes.\n");
		await writeFinding(vault, "A2A/agents/a.md", { action: "Schema designed", data: "3 tables" }, NOW);
		expect(vault.readRaw("A2A/agents/a.md")).toBe("---\nstatus: running\n---\nNotes.\n\n## [2026-12-01T10:00:00.000Z] Schema designed\n\n### Data\n3 tables\n");
	});
});

describe("planAgent", () => {
	const values = (name: string, group = "") => ({ name, role: " Builder ", group, objective: "" });

	it("plans a spawned agent note in the root's agents folder", async () => {
		const planned = await planAgent(new MemoryActionVault(), "Team", values(" builder-1 ", "10-backend-group"), NOW);
		if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
		expect(planned.path).toBe("Team/agents/builder-1.md");
		expect(readFrontmatter(planned.text)).toMatchObject({ agent_id: "builder-1", agent_role: "Builder", group: "10-backend-group", status: "spawned" });
	});

	it("refuses a name that is no file name, a bad group id and a name that is taken", async () => {
		const vault = new MemoryActionVault();
		expect(await planAgent(vault, "A2A", values("a/b", "bad id"), NOW)).toEqual({
			ok: false,
			errors: { name: 'Agent name "a/b" cannot be a file name: leave out / \\ : * ? " < > | # ^ [ ], control and invisible format characters, a leading dot and spaces at either end.', group: '"bad id" is not a group id: use letters, digits, ".", "_" or "-".' },
		});
		vault.writeRaw("A2A/agents/taken.md", "---\nstatus: running\n---\n");
		expect(await planAgent(vault, "A2A", values("taken"), NOW)).toEqual({ ok: false, errors: { name: "An agent named taken exists already (A2A/agents/taken.md)." } });
	});
});

describe("parseInteger and parseNumber", () => {
	it("read a whole typed value or nothing", () => {
		expect([" 42 ", "-3", "+7", "4.0", "12abc", "", "9007199254740993"].map(parseInteger)).toEqual([42, -3, 7, null, null, null, null]);
		expect(["12.5", ".5", "5.", "-1", "1e3", "abc", ""].map(parseNumber)).toEqual([12.5, 0.5, 5, -1, null, null, null]);
	});
});
