import { afterEach, describe, expect, it, vi } from "vitest";
import { splitNote } from "../../src/core/frontmatter";
import { DEVOPS, activate, boot, control, enter, fieldError, fill, fillAll, frontmatter, isOpen, lastNotice, modal, run, settle } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	vi.restoreAllMocks();
	await h?.host.cleanup();
	h = undefined;
});

const AGENT = "A2A/agents/alpha.md";
const agentNote = (status: string, extra = "") => `---\nagent_id: alpha\nagent_role: Schema designer\nstatus: ${status}\nprogress_percent: 10\n${extra}---\n# alpha\n\nNotes kept by hand.\n`;

function options(select: HTMLSelectElement): string[] {
	return Array.from(select.options).map((o) => o.value);
}

describe("new-agent", () => {
	it("creates <root>/agents/<name>.md with status spawned, opens it, and the agent store knows it", async () => {
		h = await boot();
		expect(run(h, "new-agent")).toBe(true);
		const m = await modal(h, "Create agent note");
		expect(document.activeElement).toBe(control(m, "name"));
		fillAll(m, { name: "builder-1", role: "Builds the API", group: DEVOPS, objective: "Ship the users endpoint" });
		control(m, "group").dispatchEvent(new Event("blur"));
		await enter(h, m, "name");
		expect(isOpen(m)).toBe(false);
		const path = "A2A/agents/builder-1.md";
		const fm = await frontmatter(h, path);
		expect(fm).toMatchObject({ agent_id: "builder-1", agent_role: "Builds the API", group: DEVOPS, objective: "Ship the users endpoint", status: "spawned", progress_percent: 0 });
		expect(Number.isNaN(Date.parse(String(fm.spawned_at)))).toBe(false);
		expect(h.host.openedFiles.map((l) => l.path)).toContain(path);
		await settle(h);
		expect(h.parts.agents.get(path)?.status).toBe("spawned");
	});

	it("refuses an existing name or a name that cannot be a file, inline, without touching anything", async () => {
		h = await boot({ files: { [AGENT]: agentNote("active") } });
		run(h, "new-agent");
		const m = await modal(h, "Create agent note");
		fill(control(m, "name"), "alpha");
		await enter(h, m, "name");
		expect(isOpen(m)).toBe(true);
		expect(fieldError(m, "name")).toContain("exists already");
		expect(control(m, "name").getAttribute("aria-invalid")).toBe("true");
		expect(await h.host.read(AGENT)).toBe(agentNote("active"));
		fill(control(m, "name"), "../escape");
		await enter(h, m, "name");
		expect(fieldError(m, "name")).toContain("file name");
		fill(control(m, "name"), "");
		await enter(h, m, "name");
		expect(fieldError(m, "name")).toBe("Give the agent a name.");
		expect(await h.host.exists("A2A/agents/escape.md")).toBe(false);
	});
});

describe("set-agent-status", () => {
	it("offers only the legal moves and writes status, progress, last action and updated in one write (the frontmatter edited as text, as the CLI does)", async () => {
		h = await boot({ files: { [AGENT]: agentNote("active") } });
		await activate(h, AGENT);
		const spy = vi.spyOn(h.host.fakeApp.vault, "process");
		expect(run(h, "set-agent-status")).toBe(true);
		const m = await modal(h, "Set agent status");
		const status = control<HTMLSelectElement>(m, "status");
		expect(document.activeElement).toBe(status);
		expect(options(status)).toEqual(["running", "failed"]);
		expect(control(m, "progress").value).toBe("10");

		// a progress outside 0-100 is an inline error, and nothing is written
		fillAll(m, { status: "running", progress: "150", last_action: "Parsing the spec" });
		await enter(h, m, "progress");
		expect(fieldError(m, "progress")).toBe("Enter a number from 0 to 100.");
		fill(control(m, "progress"), "lots");
		await enter(h, m, "progress");
		expect(fieldError(m, "progress")).toBe("Enter a number from 0 to 100.");
		expect(spy).not.toHaveBeenCalled();

		fill(control(m, "progress"), "40");
		const before = Date.now();
		await enter(h, m, "last_action");
		expect(isOpen(m)).toBe(false);
		expect(spy).toHaveBeenCalledTimes(1);
		const text = await h.host.read(AGENT);
		const fm = await frontmatter(h, AGENT);
		expect(fm).toMatchObject({ status: "running", progress_percent: 40, last_action: "Parsing the spec", agent_role: "Schema designer" });
		expect(Date.parse(String(fm.updated))).toBeGreaterThanOrEqual(before - 1000);
		expect(splitNote(text).body).toBe("# alpha\n\nNotes kept by hand.\n");

		// running: a progress update, completed or failed
		await settle(h);
		run(h, "set-agent-status");
		const next = await modal(h, "Set agent status");
		expect(options(control<HTMLSelectElement>(next, "status"))).toEqual(["running", "completed", "failed"]);
		// The current values are the fields' values: the status it has, its last action to edit.
		expect(control<HTMLSelectElement>(next, "status").value).toBe("running");
		expect(control(next, "last_action").value).toBe("Parsing the spec");
		expect(control(next, "progress").value).toBe("40");
		next.close();
	});

	it("says there is no next status for a finished agent", async () => {
		h = await boot({ files: { [AGENT]: agentNote("completed") } });
		await activate(h, AGENT);
		expect(run(h, "set-agent-status")).toBe(true);
		await settle(h);
		expect(h.host.openModals()).toHaveLength(0);
		expect(lastNotice(h)).toContain("alpha is completed, a final status: there is no next status");
	});
});

describe("append-finding", () => {
	it("appends ## [ISO timestamp] ACTION with its sections through vault.process", async () => {
		h = await boot({ files: { [AGENT]: agentNote("running") } });
		await activate(h, AGENT);
		const process = vi.spyOn(h.host.fakeApp.vault, "process");
		expect(run(h, "append-finding")).toBe(true);
		const m = await modal(h, "Append finding");
		expect(document.activeElement).toBe(control(m, "action"));
		await enter(h, m, "action");
		expect(fieldError(m, "action")).toContain("Name the action");
		expect(process).not.toHaveBeenCalled();

		fillAll(m, { action: "Schema designed", context: "Users and sessions", data: "3 tables", next_steps: "Review with security" });
		await enter(h, m, "next_steps", { ctrlKey: true });
		expect(isOpen(m)).toBe(false);
		expect(process).toHaveBeenCalledTimes(1);
		const text = await h.host.read(AGENT);
		const match = /\n## \[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\] Schema designed\n\n### Context\nUsers and sessions\n\n### Data\n3 tables\n\n### Next steps\nReview with security\n$/.exec(text);
		expect(match).not.toBeNull();
		expect(text.startsWith(agentNote("running"))).toBe(true);
		expect(text).not.toContain("### Decisions");
		await settle(h);
		expect(h.parts.agents.get(AGENT)?.latestFinding?.action).toBe("Schema designed");
		expect(lastNotice(h)).toBe("Finding added to alpha.");
	});
});
