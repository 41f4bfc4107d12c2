import { describe, expect, it } from "vitest";
import { formatAge, isStale, readAgent } from "../../src/core/agent";
import type { AgentRecord } from "../../src/core/agent";
import { appendFinding, findingHeadings, formatFinding, latestFinding, parseFindingHeading } from "../../src/core/findings";
import { canonicalStatus, isKnownStatus, legalNextStates, transitionWarning } from "../../src/core/lifecycle";

// Agent status notes, the lifecycle of seed 000 and findings (protocol section 5).

describe("readAgent", () => {
	it("is null for a note without status (not an agent note)", () => {
		expect(readAgent("agents/a.md", { agent_id: "a" }, "")).toBeNull();
		expect(readAgent("agents/a.md", { status: "" }, "")).toBeNull();
		expect(readAgent("agents/a.md", { status: ["running"] }, "")).toBeNull();
		expect(readAgent("agents/a.md", null, "")).toBeNull();
		expect(readAgent("agents/a.md", ["status"], "")).toBeNull();
	});

	it("names the agent by agent_id, else by the note's name", () => {
		expect(readAgent("agents/run/ui-explorer.md", { status: "active", agent_id: "explorer-7" }, "")?.name).toBe("explorer-7");
		expect(readAgent("agents/run/ui-explorer.md", { status: "active" }, "")?.name).toBe("ui-explorer");
		expect(readAgent("agents/run/ui-explorer.md", { status: "active", agent_id: "  " }, "")?.name).toBe("ui-explorer");
		expect(readAgent("agents/42.md", { status: "active", agent_id: 42 }, "")?.name).toBe("42");
	});

	it("reads the status case-insensitively and notes an unknown one", () => {
		expect(readAgent("a.md", { status: "Running" }, "")).toMatchObject({ status: "running", notes: [] });
		expect(readAgent("a.md", { status: "terminated" }, "")).toMatchObject({ status: "terminated", notes: [] });
		expect(readAgent("a.md", { status: "paused" }, "")).toMatchObject({ status: "paused", notes: ['unknown status "paused"'] });
	});

	it.each([
		[50, 50, []],
		[0, 0, []],
		[100, 100, []],
		[33.5, 33.5, []],
		["75", 75, []],
		[150, 100, ["progress_percent 150 is outside 0-100"]],
		[-5, 0, ["progress_percent -5 is outside 0-100"]],
	])("reads progress_percent %j as %j (clamped to 0-100)", (value, progress, notes) => {
		expect(readAgent("a.md", { status: "running", progress_percent: value }, "")).toMatchObject({ progress, notes });
	});

	it("leaves progress out when it is not a number", () => {
		for (const value of ["half", "", null, [50], true]) {
			expect(readAgent("a.md", { status: "running", progress_percent: value }, "")?.progress).toBeUndefined();
		}
	});

	it("reads result in lower case and notes an unknown one", () => {
		expect(readAgent("a.md", { status: "completed", result: "PASS" }, "")).toMatchObject({ result: "pass", notes: [] });
		expect(readAgent("a.md", { status: "completed", result: "meh" }, "")).toMatchObject({ result: "meh", notes: ['unknown result "meh"'] });
	});

	it("takes the update time from updated, else modified, else the file's mtime", () => {
		const mtime = Date.parse("2026-01-15T09:00:00Z");
		expect(readAgent("a.md", { status: "active", updated: "2026-01-15T10:35:00Z", modified: "2026-01-15T10:00:00Z" }, "", mtime)?.updatedAt).toBe(Date.parse("2026-01-15T10:35:00Z"));
		expect(readAgent("a.md", { status: "active", modified: "2026-01-15T10:00:00Z" }, "", mtime)?.updatedAt).toBe(Date.parse("2026-01-15T10:00:00Z"));
		expect(readAgent("a.md", { status: "active", updated: "not a time", modified: "2026-01-15T10:00:00Z" }, "", mtime)?.updatedAt).toBe(Date.parse("2026-01-15T10:00:00Z"));
		expect(readAgent("a.md", { status: "active" }, "", mtime)?.updatedAt).toBe(mtime);
		expect(readAgent("a.md", { status: "active" }, "")?.updatedAt).toBeUndefined();
	});

	it("reads numeric update times as epoch seconds or milliseconds, and Dates", () => {
		expect(readAgent("a.md", { status: "active", updated: 1768473300 }, "")?.updatedAt).toBe(1768473300000);
		expect(readAgent("a.md", { status: "active", updated: 1768473300000 }, "")?.updatedAt).toBe(1768473300000);
		expect(readAgent("a.md", { status: "active", updated: new Date(5000) }, "")?.updatedAt).toBe(5000);
	});

	it("reads the other fields as text", () => {
		const agent = readAgent(
			"a.md",
			{ status: "failed", error: "Page load timeout after 30s", objective: "Check links", spawned_at: new Date("2026-01-15T10:29:58Z"), group: "50-qa", sections_passed: "5", sections_failed: 2 },
			"",
		);
		expect(agent).toMatchObject({ error: "Page load timeout after 30s", objective: "Check links", spawnedAt: "2026-01-15T10:29:58.000Z", group: "50-qa", sectionsPassed: 5, sectionsFailed: 2 });
	});

	it("reads the latest finding of the body", () => {
		const body = "## [10:30:15] First\n\ntext\n\n## [2026-01-15T10:35:00Z] Second\n\n## Not a finding\n";
		expect(readAgent("a.md", { status: "running" }, body)?.latestFinding).toEqual({ timestamp: "2026-01-15T10:35:00Z", action: "Second", timeOnly: false });
	});
});

describe("isStale", () => {
	const agent = (status: string, updatedAt?: number): AgentRecord => ({ name: "a", path: "a.md", status, updatedAt, notes: [] });
	const LIMIT = 10 * 60 * 1000;
	const now = Date.parse("2026-01-15T11:00:00Z");

	it("is stale only past the limit, not at it", () => {
		expect(isStale(agent("running", now - LIMIT), now, LIMIT)).toBe(false);
		expect(isStale(agent("running", now - LIMIT - 1), now, LIMIT)).toBe(true);
		expect(isStale(agent("active", now - LIMIT - 1), now, LIMIT)).toBe(true);
		expect(isStale(agent("active", now - 1000), now, LIMIT)).toBe(false);
	});

	it("never calls a spawned, finished or undated agent stale", () => {
		for (const status of ["spawned", "completed", "failed", "terminated", "error"]) expect(isStale(agent(status, 0), now, LIMIT)).toBe(false);
		expect(isStale(agent("running"), now, LIMIT)).toBe(false);
	});

	it("formats ages", () => {
		expect(formatAge(-5)).toBe("0 s ago");
		expect(formatAge(12_000)).toBe("12 s ago");
		expect(formatAge(5 * 60_000)).toBe("5 min ago");
		expect(formatAge(3 * 3_600_000)).toBe("3 h ago");
		expect(formatAge(47 * 3_600_000)).toBe("47 h ago");
		expect(formatAge(3 * 86_400_000)).toBe("3 d ago");
	});
});

describe("lifecycle", () => {
	it.each([
		[undefined, "spawned"],
		["spawned", "active"],
		["spawned", "failed"],
		["active", "running"],
		["active", "failed"],
		["running", "running"],
		["running", "completed"],
		["running", "failed"],
		["running", "terminated"],
		["running", "error"],
		["active", "error"],
		["spawned", "error"],
		["completed", "completed"],
		["completed", "terminated"],
		["failed", "error"],
	])("has no warning for %s -> %s", (from, to) => {
		expect(transitionWarning(from, to)).toBeNull();
	});

	it.each([
		["completed", "running"],
		["spawned", "running"],
		["spawned", "completed"],
		["active", "completed"],
		["active", "spawned"],
		["failed", "active"],
		["failed", "completed"],
		["terminated", "running"],
		["error", "active"],
		["completed", "failed"],
	])("warns on %s -> %s, naming both states", (from, to) => {
		expect(transitionWarning(from, to)).toBe(`moved from ${from} to ${to}, outside the lifecycle`);
	});

	it("warns on an unknown target status, and says nothing about leaving an unknown one", () => {
		expect(transitionWarning("running", "paused")).toBe('unknown status "paused"');
		expect(transitionWarning(undefined, "paused")).toBe('unknown status "paused"');
		expect(transitionWarning("paused", "paused")).toBe('unknown status "paused"');
		expect(transitionWarning("paused", "running")).toBeNull();
	});

	it("offers the legal next states", () => {
		expect(legalNextStates("spawned")).toEqual(["active", "failed"]);
		expect(legalNextStates("active")).toEqual(["running", "failed"]);
		expect(legalNextStates("running")).toEqual(["running", "completed", "failed"]);
		for (const terminal of ["completed", "failed", "terminated", "error"]) expect(legalNextStates(terminal)).toEqual([]);
		expect(legalNextStates("paused")).toEqual([]);
	});

	it("maps the aliases and knows the terminal statuses", () => {
		expect(canonicalStatus("terminated")).toBe("completed");
		expect(canonicalStatus("error")).toBe("failed");
		expect(isKnownStatus("error")).toBe(true);
		expect(isKnownStatus("paused")).toBe(false);
		for (const status of ["completed", "failed", "terminated", "error"]) expect(legalNextStates(status)).toEqual([]);
		for (const status of ["spawned", "active", "running"]) expect(legalNextStates(status).length).toBeGreaterThan(0);
	});
});

describe("findings", () => {
	it.each([
		["## [10:30:15] Navigation Check Complete", { timestamp: "10:30:15", action: "Navigation Check Complete", timeOnly: true }],
		["## [2026-01-15T10:35:00Z] Test Complete", { timestamp: "2026-01-15T10:35:00Z", action: "Test Complete", timeOnly: false }],
		["## [2026-01-15T10:35:00.123+01:00] Done  ", { timestamp: "2026-01-15T10:35:00.123+01:00", action: "Done", timeOnly: false }],
		["## [2026-01-15 10:35:00] Spaced", { timestamp: "2026-01-15 10:35:00", action: "Spaced", timeOnly: false }],
		["## [10:30:15] With CR\r", { timestamp: "10:30:15", action: "With CR", timeOnly: true }],
	])("reads the heading %j", (line, heading) => {
		expect(parseFindingHeading(line)).toEqual(heading);
	});

	it.each(["## Cross-Reference", "### [10:30:15] Sub", "## [10:30] Short time", "## [yesterday] Vague", "## [10:30:15]", "## [10:30:15]NoSpace", " ## [10:30:15] Indented", "# [10:30:15] Title"])(
		"does not take %j for a finding",
		(line) => {
			expect(parseFindingHeading(line)).toBeNull();
		},
	);

	it("lists findings in order; the latest is the last one, whatever the timestamps say", () => {
		const body = "## [2026-01-15T11:00:00Z] Later\n\n## [09:00:00] Earlier but last\n";
		expect(findingHeadings(body).map((f) => f.action)).toEqual(["Later", "Earlier but last"]);
		expect(latestFinding(body)?.action).toBe("Earlier but last");
		expect(latestFinding("no findings")).toBeNull();
	});

	it("formats a finding in the seed's standard structure, skipping empty subsections", () => {
		const text = formatFinding({ action: "  Navigation\ncheck  ", context: "Homepage", data: "- **Links found**: 15\n", decisions: "  ", nextSteps: "Fix /about" }, "2026-01-15T10:30:15Z");
		expect(text).toBe("## [2026-01-15T10:30:15Z] Navigation check\n\n### Context\nHomepage\n\n### Data\n- **Links found**: 15\n\n### Next steps\nFix /about\n");
		expect(formatFinding({ action: " " }, "2026-01-15T10:30:15Z")).toBe("## [2026-01-15T10:30:15Z] Update\n");
	});

	it("appends a finding after one blank line, whatever the note ends with", () => {
		const finding = { action: "Check", decisions: "Retry" };
		const expected = "## [2026-01-15T10:30:15Z] Check\n\n### Decisions\nRetry\n";
		expect(appendFinding("", finding, "2026-01-15T10:30:15Z")).toBe(expected);
		expect(appendFinding("---\nstatus: running\n---\n# Log", finding, "2026-01-15T10:30:15Z")).toBe(`---\nstatus: running\n---\n# Log\n\n${expected}`);
		expect(appendFinding("# Log\n", finding, "2026-01-15T10:30:15Z")).toBe(`# Log\n\n${expected}`);
		expect(appendFinding("# Log\n\n", finding, "2026-01-15T10:30:15Z")).toBe(`# Log\n\n${expected}`);
	});

	it("makes the appended finding the latest one", () => {
		const once = appendFinding("## [10:30:15] Navigation Check Complete\n", { action: "Test Complete" }, "2026-01-15T10:35:00Z");
		const twice = appendFinding(once, { action: "Report Sent", nextSteps: "none" }, "2026-01-15T10:36:00Z");
		expect(findingHeadings(twice).map((f) => f.action)).toEqual(["Navigation Check Complete", "Test Complete", "Report Sent"]);
		expect(latestFinding(twice)).toEqual({ timestamp: "2026-01-15T10:36:00Z", action: "Report Sent", timeOnly: false });
	});
});
