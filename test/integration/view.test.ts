// The agent status view, end to end: the real plugin (main.ts) loaded through the fake Obsidian
// host over a temp vault on disk, the view opened by its command, and every assertion made on the
// DOM it renders.
import { afterEach, describe, expect, test, vi } from "vitest";
import type { WorkspaceLeaf } from "obsidian";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { AGENTS_CHANGED } from "../../src/obsidian/agent-store";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS, openAgentStatus } from "../../src/ui/agent-status-view";
import { AgentList } from "../../src/ui/view/agent-list";
import { createTempHost, type TempHost } from "../../test-support/fake-obsidian/node-host";

const COMMAND = "a2a-relay:open-agent-status";
const DATA_JSON = ".obsidian/plugins/a2a-relay/data.json";
const XSS = "<img src=x onerror=alert(1)>";

const REGISTRY = `communication:
  max_hops: 5
  timeout_seconds: 30
  retry_attempts: 3
groups:
  10-backend-group:
    description: Designs the database and the API
  20-frontend-group:
    description: Builds the user interface
  30-devops-group:
    description: Deploys and runs the services
`;

const iso = (t: number) => new Date(t).toISOString();

function note(fields: Record<string, string | number>, body = ""): string {
	const lines = Object.entries(fields).map(([k, v]) => `${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`);
	return `---\n${lines.join("\n")}\n---\n${body}`;
}

/** Notes of several shapes: seed 000 under Runs, minimal ones in A2A/agents, hostile text, messages. */
function vaultFiles(now: number, options: { registry?: boolean; agents?: boolean } = {}): Record<string, string> {
	const files: Record<string, string> = {
		[DATA_JSON]: JSON.stringify({ extraAgentFolders: ["Runs"], showNotices: false, graceSeconds: 0, viewShown: true }),
		"Notes/Readme.md": "# Not an agent\n",
	};
	if (options.registry !== false) {
		files["A2A/registry.yaml"] = REGISTRY;
		files["A2A/groups/10-backend-group/outbox/ask-frontend.md"] = note(
			{ trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", hop_count: 0, source_group: "10-backend-group", target_group: "20-frontend-group", request_type: "query", priority: "high" },
			"## Question\nWhat fields are mandatory in the registration form?\n",
		);
		files["A2A/groups/10-backend-group/outbox/to-nowhere.md"] = note(
			{ trace_id: "b2c3d4e5-f6a7-8901-bcde-f23456789012", hop_count: 0, source_group: "10-backend-group", target_group: "99-nowhere-group", request_type: "task" },
			"## Task\nThis group does not exist.\n",
		);
	}
	if (options.agents !== false) {
		// Seed 000's memory node, as its QA system writes it.
		files["Runs/Navigation_Test_20260115.md"] = `---
agent_id: ui-explorer-01
agent_role: UI Explorer
group: 50-qa-group
status: running
progress_percent: 50
last_action: Checking navigation links
result: pending
spawned_at: 2026-01-15T10:29:58Z
updated: ${iso(now - 30_000)}
screenshots:
  - "[[Screenshots/homepage_20260115.png]]"
---
# Navigation_Test_20260115

## [10:30:15] Navigation Check Complete

- **Links found**: 15
- **Broken links**: 2
`;
		files["Runs/api-validator.md"] = note({ agent_id: "api-validator", agent_role: "API Validator", group: "50-qa-group", status: "failed", error: "Process exited with code 1" }, "# Agent B's Report\n");
		files["Runs/partial.md"] = note({ agent_id: "form-checker", status: "completed", result: "warning", sections_passed: 5, sections_failed: 2, progress_percent: 100 });
		files["A2A/agents/minimal.md"] = note({ status: "spawned" });
		files["A2A/agents/builder.md"] = note({ agent_id: "builder", agent_role: "Backend engineer", group: "10-backend-group", status: "active", progress_percent: 10, last_action: "Reading the schema", updated: iso(now - 5_000) });
		files["A2A/agents/stalled.md"] = note({ agent_id: "stalled", group: "20-frontend-group", status: "running", progress_percent: 30, last_action: "Waiting for the API", updated: iso(now - 20 * 60_000) });
		files["A2A/agents/hostile.md"] = note({ agent_id: "hostile", group: "20-frontend-group", status: "running", progress_percent: 140, last_action: XSS, result: "<b>bold</b>", updated: iso(now - 1_000) });
		files["A2A/agents/nested/deep.md"] = note({ agent_id: "deep-worker", group: "30-devops-group", status: "running", progress_percent: 80, last_action: "Deploying", updated: iso(now - 2_000) });
	}
	return files;
}

interface Booted {
	host: TempHost;
	plugin: A2ARelayPlugin;
}

let current: Booted | null = null;

afterEach(async () => {
	vi.useRealTimers();
	vi.restoreAllMocks();
	if (current) {
		await current.plugin.parts.relay.whenIdle();
		await current.host.settled();
		await current.host.cleanup();
		current = null;
	}
});

async function boot(files: Record<string, string>): Promise<Booted> {
	const host = await createTempHost({ files, prefix: "a2a-view-" });
	const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	current = { host, plugin };
	await host.loadVault();
	await host.setLayoutReady();
	await idle(current);
	return current;
}

async function idle({ host, plugin }: Booted): Promise<void> {
	await host.settled();
	await plugin.parts.relay.whenIdle();
	await host.settled();
}

function viewLeaves(host: TempHost): WorkspaceLeaf[] {
	return host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS);
}

async function openView(booted: Booted): Promise<{ view: AgentStatusView; leaf: WorkspaceLeaf; el: HTMLElement }> {
	expect(booted.host.executeCommand(COMMAND)).toBe(true);
	await idle(booted);
	const leaf = viewLeaves(booted.host)[0];
	expect(leaf).toBeDefined();
	expect(leaf.view).toBeInstanceOf(AgentStatusView);
	const view = leaf.view as AgentStatusView;
	return { view, leaf, el: view.contentEl };
}

function row(el: HTMLElement, agent: string): HTMLElement {
	const found = el.querySelector<HTMLElement>(`.a2a-agent-row[data-agent="${CSS.escape(agent)}"]`);
	if (!found) throw new Error(`no row for agent ${agent}; rows: ${rowNames(el).join(", ")}`);
	return found;
}

function rowNames(el: HTMLElement): string[] {
	return Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-row")).map((r) => r.dataset.agent ?? "?");
}

function visibleRowNames(el: HTMLElement): string[] {
	return Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-row"))
		.filter((r) => !r.hasClass("a2a-hidden") && !r.closest(".a2a-agent-section")?.hasClass("a2a-hidden"))
		.map((r) => r.dataset.agent ?? "?");
}

function text(el: Element | null | undefined): string {
	return el?.textContent ?? "";
}

function progressOf(rowEl: HTMLElement): string | null {
	return rowEl.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow") ?? null;
}

/** Every node under an element with its text and attributes: equal snapshots mean an untouched subtree. */
function snapshot(el: Element): { nodes: Node[]; signature: string } {
	const nodes: Node[] = [];
	const parts: string[] = [];
	const walk = (node: Node) => {
		nodes.push(node);
		if (node instanceof Element) parts.push(`<${node.tagName}${Array.from(node.attributes).map((a) => ` ${a.name}=${a.value}`).join("")}>`);
		else parts.push(node.textContent ?? "");
		node.childNodes.forEach(walk);
	};
	walk(el);
	return { nodes, signature: parts.join("") };
}

/** Waits until the assertion holds (a wait, not a speed budget: the view's speed is measured by `npm run bench`). */
async function eventually(assertion: () => void): Promise<void> {
	await vi.waitFor(assertion, { timeout: 5000, interval: 5 });
}

async function setFrontmatter(booted: Booted, path: string, change: (fm: Record<string, unknown>) => void): Promise<void> {
	await booted.host.app.fileManager.processFrontMatter(booted.host.file(path), change);
}

describe("agent status view", () => {
	test("opens in the right sidebar by its command, with rows for every agent of every shape", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		expect(booted.host.registeredViews()).toContain(VIEW_TYPE_AGENT_STATUS);
		const { leaf, view, el } = await openView(booted);
		expect(leaf.getRoot()).toBe(booted.host.app.workspace.rightSplit);
		expect(view.getDisplayText()).toBe("Agent status");
		expect(view.getIcon()).toBe("radio-tower");

		expect(rowNames(el).sort()).toEqual(["api-validator", "builder", "deep-worker", "form-checker", "hostile", "minimal", "stalled", "ui-explorer-01"]);
		for (const r of Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-row"))) {
			const bar = r.querySelector('[role="progressbar"]');
			expect(bar, r.dataset.agent).not.toBeNull();
			expect(bar?.getAttribute("aria-valuemin")).toBe("0");
			expect(bar?.getAttribute("aria-valuemax")).toBe("100");
			expect(r.querySelector(".a2a-badge")?.className).toContain(`a2a-status-${r.dataset.status}`);
		}

		// Seed 000's note, read from the extra agent folder Runs.
		const seed = row(el, "ui-explorer-01");
		expect(seed.dataset.status).toBe("running");
		expect(progressOf(seed)).toBe("50");
		expect(text(seed.querySelector(".a2a-agent-name"))).toBe("ui-explorer-01");
		expect(text(seed.querySelector(".a2a-agent-meta"))).toBe("UI Explorer · 50-qa-group");
		expect(text(seed.querySelector(".a2a-agent-action"))).toBe("Checking navigation links");
		expect(text(seed.querySelector(".a2a-agent-result"))).toBe("Result: pending");
		expect(text(seed.querySelector(".a2a-agent-finding"))).toBe("Latest finding: 10:30:15 · Navigation Check Complete");
		// Ages are relative and local (moment), with the absolute time on hover.
		expect(text(seed.querySelector(".a2a-agent-age"))).toBe("a few seconds ago");
		expect(seed.querySelector(".a2a-agent-age")?.getAttribute("title")).toMatch(/\d{4}/);
		// The link's visible text is its accessible name: no aria-label replaces it.
		expect(seed.querySelector(".a2a-agent-name")?.hasAttribute("aria-label")).toBe(false);
		expect(seed.querySelector(".a2a-stale-marker")?.hasClass("a2a-hidden")).toBe(true);
		expect(seed.querySelector(".a2a-agent-error")?.hasClass("a2a-hidden")).toBe(true);

		const crashed = row(el, "api-validator");
		expect(crashed.dataset.status).toBe("failed");
		expect(text(crashed.querySelector(".a2a-agent-error"))).toBe("Error: Process exited with code 1");
		expect(crashed.querySelector(".a2a-agent-error")?.hasClass("a2a-hidden")).toBe(false);
		expect(progressOf(crashed)).toBeNull();

		const partial = row(el, "form-checker");
		expect(text(partial.querySelector(".a2a-agent-result"))).toBe("Result: warning · sections 5 passed, 2 failed");
		expect(progressOf(partial)).toBe("100");

		// The note's name when there is no agent_id; no role or group.
		const minimal = row(el, "minimal");
		expect(minimal.dataset.status).toBe("spawned");
		expect(minimal.querySelector(".a2a-agent-meta")?.hasClass("a2a-hidden")).toBe(true);

		// Stale: running with no update for 20 minutes (limit 5).
		const stalled = row(el, "stalled");
		expect(stalled.querySelector(".a2a-stale-marker")?.hasClass("a2a-hidden")).toBe(false);
		expect(stalled.hasClass("a2a-is-stale")).toBe(true);
		expect(text(stalled.querySelector(".a2a-agent-age"))).toBe("20 minutes ago");

		// Out-of-range progress is clamped and warned about.
		const hostile = row(el, "hostile");
		expect(progressOf(hostile)).toBe("100");
		expect(text(hostile.querySelector(".a2a-agent-warning"))).toContain("progress_percent 140 is outside 0-100");
		expect(text(hostile.querySelector(".a2a-agent-warning"))).toContain('unknown result "<b>bold</b>"');

		// Counts per status.
		const count = (key: string) => el.querySelector(`.a2a-summary [data-count="${key}"]`)?.getAttribute("data-value");
		expect(count("total")).toBe("8");
		expect(count("running")).toBe("4");
		expect(count("active")).toBe("1");
		expect(count("spawned")).toBe("1");
		expect(count("failed")).toBe("1");
		expect(count("completed")).toBe("1");
		expect(count("stale")).toBe("1");
		expect(el.querySelector(".a2a-agents-empty")?.hasClass("a2a-hidden")).toBe(true);
	});

	test("renders agent-provided HTML as text", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		const hostile = row(el, "hostile");
		expect(text(hostile.querySelector(".a2a-agent-action"))).toBe(XSS);
		expect(text(hostile.querySelector(".a2a-agent-result"))).toBe("Result: <b>bold</b>");
		expect(el.querySelector("img")).toBeNull();
		expect(el.querySelector("b")).toBeNull();
		expect(hostile.querySelector(".a2a-agent-action")?.children.length).toBe(0);

		// The same through a live update, with HTML in the name too.
		await setFrontmatter(booted, "A2A/agents/builder.md", (fm) => {
			fm.agent_id = `<script>alert(1)</script>`;
			fm.last_action = `<a href="javascript:alert(1)">click</a>`;
		});
		await eventually(() => expect(rowNames(el)).toContain("<script>alert(1)</script>"));
		const renamed = row(el, "<script>alert(1)</script>");
		expect(text(renamed.querySelector(".a2a-agent-name"))).toBe("<script>alert(1)</script>");
		expect(text(renamed.querySelector(".a2a-agent-action"))).toBe(`<a href="javascript:alert(1)">click</a>`);
		expect(el.querySelector("script")).toBeNull();
		expect(el.querySelector('a[href^="javascript"]')).toBeNull();
	});

	test("shows the message flow: queues per group, dead letters, decisions", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		const flow = el.querySelector<HTMLElement>(".a2a-flow");
		expect(flow).not.toBeNull();
		const cell = (group: string, count: string) => el.querySelector(`.a2a-queue-table tr[data-group="${group}"] [data-count="${count}"]`)?.textContent;
		// ask-frontend was delivered to the frontend's inbox and is in flight for the backend; the
		// request to a group that does not exist went to the dead letters, with an error response
		// in the backend's inbox.
		expect(cell("20-frontend-group", "inbox")).toBe("1");
		expect(cell("10-backend-group", "in-flight")).toBe("1");
		expect(cell("10-backend-group", "overdue")).toBe("0");
		expect(cell("10-backend-group", "inbox")).toBe("1");
		expect(cell("10-backend-group", "outbox")).toBe("0");
		expect(el.querySelectorAll(".a2a-queue-table tbody tr").length).toBe(3);

		const dead = el.querySelector<HTMLElement>(".a2a-dead-letters");
		expect(dead?.getAttribute("data-count")).toBe("1");
		const deadItems = el.querySelectorAll<HTMLElement>(".a2a-dead-item");
		expect(deadItems.length).toBe(1);
		// It leads with its route and type; the error code is on hover (and data), the reason in words.
		expect(deadItems[0].dataset.errorCode).toBe("GROUP_NOT_FOUND");
		expect(text(deadItems[0].querySelector(".a2a-dead-link"))).toBe("10-backend-group → 99-nowhere-group · task");
		expect(deadItems[0].querySelector(".a2a-dead-link")?.getAttribute("title")).toMatch(/\.md \(GROUP_NOT_FOUND\)$/);
		const deadPath = deadItems[0].querySelector("a.a2a-note-link")?.getAttribute("data-path") ?? "";
		expect(deadPath).toMatch(/^A2A\/dead-letter\//);

		const decisions = Array.from(el.querySelectorAll<HTMLElement>(".a2a-decision"));
		expect(decisions.map((d) => d.dataset.outcome).sort()).toEqual(["delivered", "rejected"]);
		const rejected = decisions.find((d) => d.dataset.outcome === "rejected");
		expect(rejected?.dataset.errorCode).toBe("GROUP_NOT_FOUND");
		expect(text(rejected?.querySelector(".a2a-outcome"))).toBe("not delivered");

		// A dead letter opens its note.
		(deadItems[0].querySelector("a.a2a-note-link") as HTMLElement).click();
		await idle(booted);
		expect(booted.host.openedFiles.at(-1)).toMatchObject({ path: deadPath, side: "root" });

		// A decision opens the note where it is now.
		const delivered = decisions.find((d) => d.dataset.outcome === "delivered");
		const deliveredPath = delivered?.querySelector("a.a2a-note-link")?.getAttribute("data-path") ?? "";
		expect(deliveredPath).toMatch(/^A2A\/groups\/20-frontend-group\/inbox\//);
		(delivered?.querySelector("a.a2a-note-link") as HTMLElement).click();
		await idle(booted);
		expect(booted.host.openedFiles.at(-1)).toMatchObject({ path: deliveredPath });
		expect(booted.host.openedLinks).toEqual([]);

		// A new message routed while the view is open shows in the counts.
		await booted.host.externalWrite(
			"A2A/groups/20-frontend-group/outbox/reply-later.md",
			note({ trace_id: "c3d4e5f6-a7b8-9012-cdef-345678901234", hop_count: 0, source_group: "20-frontend-group", target_group: "30-devops-group", request_type: "task" }, "## Task\nDeploy it.\n"),
		);
		await idle(booted);
		await eventually(() => {
			expect(cell("30-devops-group", "inbox")).toBe("1");
			expect(cell("20-frontend-group", "in-flight")).toBe("1");
		});
	});

	test("registry errors are shown plainly, with the file to fix", async () => {
		const files = vaultFiles(Date.now());
		files["A2A/registry.yaml"] = `${REGISTRY}  "bad group!":\n    description: Not a valid id\n`;
		const booted = await boot(files);
		const { el } = await openView(booted);
		const box = el.querySelector<HTMLElement>(".a2a-registry-errors");
		expect(box?.hasClass("a2a-hidden")).toBe(false);
		expect(text(box)).toContain("fix A2A/registry.yaml");
		expect(text(box)).toContain('groups.bad group!: group id "bad group!" is not valid');
		expect(box?.querySelector('a.a2a-note-link[data-path="A2A/registry.yaml"]')).not.toBeNull();
		// The valid groups still work.
		expect(el.querySelectorAll(".a2a-queue-table tbody tr").length).toBe(3);
	});

	test("empty vault: tells a new user what to do", async () => {
		const booted = await boot(vaultFiles(Date.now(), { registry: false, agents: false }));
		const { el } = await openView(booted);
		expect(rowNames(el)).toEqual([]);
		const empty = el.querySelector<HTMLElement>(".a2a-agents-empty");
		expect(empty?.hasClass("a2a-hidden")).toBe(false);
		// Empty states offer the button that fixes them.
		expect(text(empty?.querySelector("div"))).toBe("No agents yet. An agent is a note with a status field in A2A/agents, Runs.");
		expect(text(empty?.querySelector("button[data-a2a-action=new-agent]"))).toBe("Create agent note…");
		const flowEmpty = el.querySelector<HTMLElement>(".a2a-flow-empty");
		expect(flowEmpty?.hasClass("a2a-hidden")).toBe(false);
		expect(text(flowEmpty)).toMatch(/^No registry yet/);
		expect(text(flowEmpty?.querySelector("button[data-a2a-action=init-vault]"))).toBe("Create registry and group folders");
		expect(el.querySelector(".a2a-queue-table")).toBeNull();
		expect(el.querySelector(".a2a-registry-errors")?.hasClass("a2a-hidden")).toBe(true);
		expect(el.querySelector('.a2a-summary[aria-label="Agents per status"]')?.children.length).toBe(0);

		// The first agent and the registry arrive: the empty states go away.
		await booted.host.externalWrite("A2A/agents/first.md", note({ agent_id: "first", status: "spawned" }));
		await booted.host.externalWrite("A2A/registry.yaml", REGISTRY);
		await idle(booted);
		await eventually(() => {
			expect(rowNames(el)).toEqual(["first"]);
			expect(empty?.hasClass("a2a-hidden")).toBe(true);
			expect(flowEmpty?.hasClass("a2a-hidden")).toBe(true);
			expect(el.querySelectorAll(".a2a-queue-table tbody tr").length).toBe(3);
		});
	});

	test("a live change updates that row in place, other rows untouched", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		// The view's age ticker (every few seconds) would legitimately touch other rows' ages: hold it.
		vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
		const { el } = await openView(booted);
		const target = row(el, "builder");
		const others = Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-row")).filter((r) => r !== target);
		const before = others.map((r) => ({ row: r, ...snapshot(r) }));
		const records: MutationRecord[] = [];
		const observer = new MutationObserver((found) => records.push(...found));
		observer.observe(el.querySelector(".a2a-agent-list") as Node, { subtree: true, childList: true, attributes: true, characterData: true });

		await setFrontmatter(booted, "A2A/agents/builder.md", (fm) => {
			fm.status = "running";
			fm.progress_percent = 65;
			fm.last_action = "Writing the migrations";
		});
		await vi.waitFor(() => expect(progressOf(row(el, "builder"))).toBe("65"), { timeout: 5000, interval: 2 });

		// Same row element, updated in place.
		expect(row(el, "builder")).toBe(target);
		expect(target.dataset.status).toBe("running");
		expect(text(target.querySelector(".a2a-agent-action"))).toBe("Writing the migrations");
		expect(target.querySelector(".a2a-badge")?.hasClass("a2a-status-running")).toBe(true);
		expect(target.querySelector(".a2a-badge")?.hasClass("a2a-status-active")).toBe(false);

		// Every other row: the same nodes, unchanged, and no mutation recorded inside them.
		records.push(...observer.takeRecords());
		observer.disconnect();
		for (const { row: other, nodes, signature } of before) {
			const now = snapshot(other);
			expect(now.nodes.length, other.dataset.agent).toBe(nodes.length);
			now.nodes.forEach((n, i) => expect(n).toBe(nodes[i]));
			expect(now.signature, other.dataset.agent).toBe(signature);
			expect(records.filter((r) => other.contains(r.target)), other.dataset.agent).toEqual([]);
		}
		expect(records.length).toBeGreaterThan(0);
		expect(records.every((r) => target.contains(r.target) || !others.some((o) => o.contains(r.target)))).toBe(true);

		// Counts followed.
		expect(el.querySelector('.a2a-summary [data-count="running"]')?.getAttribute("data-value")).toBe("5");
		expect(el.querySelector('.a2a-summary [data-count="active"]')).toBeNull();
	});

	test("an outside write (another process) shows in the row", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		const seed = row(el, "ui-explorer-01");
		await booted.host.externalWrite(
			"Runs/Navigation_Test_20260115.md",
			`---
agent_id: ui-explorer-01
agent_role: UI Explorer
group: 50-qa-group
status: completed
progress_percent: 100
last_action: All tests passed
result: pass
updated: ${iso(Date.now())}
---
# Navigation_Test_20260115

## [10:30:15] Navigation Check Complete

## [2026-01-15T10:35:00Z] Test Complete
`,
		);
		await vi.waitFor(() => expect(row(el, "ui-explorer-01").dataset.status).toBe("completed"), { timeout: 5000, interval: 2 });
		expect(row(el, "ui-explorer-01")).toBe(seed);
		expect(progressOf(seed)).toBe("100");
		expect(text(seed.querySelector(".a2a-agent-result"))).toBe("Result: pass");
		// An ISO time is shown relative, exact on hover: never as raw ISO text.
		expect(text(seed.querySelector(".a2a-agent-finding"))).toMatch(/^Latest finding: .+ ago · Test Complete$/);
		expect(seed.querySelector(".a2a-finding-time")?.getAttribute("title")).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
		expect(text(seed.querySelector(".a2a-agent-action"))).toBe("All tests passed");

		// Deleted outside: the row goes.
		await booted.host.externalDelete("Runs/api-validator.md");
		await idle(booted);
		await eventually(() => expect(rowNames(el)).not.toContain("api-validator"));
		expect(el.querySelector('.a2a-summary [data-count="failed"]')).toBeNull();
	});

	test("a transition outside the lifecycle is shown as a warning", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		await setFrontmatter(booted, "A2A/agents/minimal.md", (fm) => {
			fm.status = "completed";
		});
		await idle(booted);
		await eventually(() => expect(text(row(el, "minimal").querySelector(".a2a-agent-warning"))).toBe("Warning: moved from spawned to completed, outside the lifecycle"));
	});

	test("a burst of hundreds of changes is one render", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		const applied = vi.spyOn(AgentList.prototype, "applyChanges");
		const store = booted.plugin.parts.agents;
		const paths = store.all().map((a) => a.path);
		for (let i = 0; i < 300; i++) store.events.trigger(AGENTS_CHANGED, [paths[i % paths.length]]);
		await eventually(() => expect(applied).toHaveBeenCalledTimes(1));
		await new Promise((r) => setTimeout(r, 150));
		expect(applied).toHaveBeenCalledTimes(1);
		expect([...(applied.mock.calls[0][0] as Set<string>)].sort()).toEqual([...paths].sort());

		// A real burst: 200 agent notes written at once by another process.
		applied.mockRestore();
		const renderTimes: number[] = [];
		const original = AgentList.prototype.applyChanges;
		const timed = vi.spyOn(AgentList.prototype, "applyChanges").mockImplementation(function (this: AgentList, ...args: Parameters<AgentList["applyChanges"]>) {
			renderTimes.push(performance.now());
			return original.apply(this, args);
		});
		const disk = booted.host.disk;
		const created: string[] = [];
		for (let i = 0; i < 200; i++) {
			const path = `A2A/agents/burst/worker-${String(i).padStart(3, "0")}.md`;
			created.push(path);
			await disk.write(path, note({ agent_id: `worker-${String(i).padStart(3, "0")}`, group: "burst", status: "running", progress_percent: i % 101 }));
		}
		booted.host.fakeApp.vault.notifyWatcher(created);
		await idle(booted);
		await eventually(() => expect(el.querySelectorAll('.a2a-agent-row[data-agent^="worker-"]').length).toBe(200));
		// The fake delivers these events over a while: changes that arrive within a frame render
		// together, so renders are at least a frame apart and far fewer than the changes.
		expect(timed.mock.calls.length).toBeLessThan(created.length / 2);
		const gaps = renderTimes.slice(1).map((t, i) => t - renderTimes[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(14);
		expect(progressOf(row(el, "worker-150"))).toBe("49");
	});

	test("nothing renders while the view is hidden; it catches up when shown", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el, leaf } = await openView(booted);
		const applied = vi.spyOn(AgentList.prototype, "applyChanges");
		const renderAll = vi.spyOn(AgentList.prototype, "renderAll");
		booted.host.setLeafVisible(leaf, false);
		await idle(booted);
		expect(leaf.view.containerEl.isShown()).toBe(false);

		await setFrontmatter(booted, "A2A/agents/builder.md", (fm) => {
			fm.progress_percent = 90;
			fm.last_action = "Changed while hidden";
		});
		await booted.host.externalWrite("A2A/agents/newcomer.md", note({ agent_id: "newcomer", status: "spawned" }));
		await idle(booted);
		await new Promise((r) => setTimeout(r, 300));
		expect(applied).not.toHaveBeenCalled();
		expect(renderAll).not.toHaveBeenCalled();
		expect(progressOf(row(el, "builder"))).toBe("10");
		expect(rowNames(el)).not.toContain("newcomer");

		booted.host.setLeafVisible(leaf, true);
		await eventually(() => {
			expect(progressOf(row(el, "builder"))).toBe("90");
			expect(text(row(el, "builder").querySelector(".a2a-agent-action"))).toBe("Changed while hidden");
			expect(rowNames(el)).toContain("newcomer");
		});
		expect(applied).toHaveBeenCalledTimes(1);
		expect(renderAll).not.toHaveBeenCalled();
	});

	test("a collapsed sidebar counts as hidden too", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		const split = booted.host.fakeApp.workspace.rightSplit;
		split.collapse();
		await idle(booted);
		await setFrontmatter(booted, "A2A/agents/builder.md", (fm) => {
			fm.progress_percent = 42;
		});
		await idle(booted);
		await new Promise((r) => setTimeout(r, 200));
		expect(progressOf(row(el, "builder"))).toBe("10");
		split.expand();
		await eventually(() => expect(progressOf(row(el, "builder"))).toBe("42"));
	});

	test("the filter box filters by name, role, group, status and last action; Escape clears it", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el, view } = await openView(booted);
		const input = el.querySelector<HTMLInputElement>("input.a2a-filter");
		expect(input).not.toBeNull();
		expect(input?.getAttribute("aria-label")).toBeTruthy();
		const type = (value: string) => {
			(input as HTMLInputElement).value = value;
			input?.dispatchEvent(new Event("input", { bubbles: true }));
		};
		type("explorer");
		expect(visibleRowNames(el)).toEqual(["ui-explorer-01"]); // by role
		type("QA-GROUP");
		expect(visibleRowNames(el).sort()).toEqual(["api-validator", "ui-explorer-01"]); // by group
		type("migrations");
		expect(visibleRowNames(el)).toEqual([]);
		expect(text(el.querySelector(".a2a-agents-empty"))).toContain('No agent matches "migrations"');
		type("schema");
		expect(visibleRowNames(el)).toEqual(["builder"]); // by last action
		type("status:running");
		expect(visibleRowNames(el).sort()).toEqual(["deep-worker", "hostile", "stalled", "ui-explorer-01"]);
		type("status:running group:20");
		expect(visibleRowNames(el).sort()).toEqual(["hostile", "stalled"]);
		type("deep");
		expect(visibleRowNames(el)).toEqual(["deep-worker"]); // by name
		// Sections with nothing left are hidden, and their counts follow the filter.
		const shownSections = Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-section")).filter((s) => !s.hasClass("a2a-hidden"));
		expect(shownSections.map((s) => s.dataset.section)).toEqual(["30-devops-group"]);

		// A live change respects the filter: an agent that starts matching appears.
		await setFrontmatter(booted, "A2A/agents/builder.md", (fm) => {
			fm.last_action = "Reading deep logs";
		});
		await idle(booted);
		await eventually(() => expect(visibleRowNames(el).sort()).toEqual(["builder", "deep-worker"]));

		input?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
		expect(input?.value).toBe("");
		expect(visibleRowNames(el).length).toBe(8);
		expect(view.getState()).toMatchObject({ filter: "" });

		// A count is a button that filters by its status, and again clears it.
		const failed = el.querySelector<HTMLButtonElement>('.a2a-summary button[data-count="failed"]');
		failed?.click();
		expect(input?.value).toBe("status:failed");
		expect(visibleRowNames(el)).toEqual(["api-validator"]);
		el.querySelector<HTMLButtonElement>('.a2a-summary button[data-count="failed"]')?.click();
		expect(visibleRowNames(el).length).toBe(8);
	});

	test("grouping by group or by status, with rows moving between sections as they change", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el, view } = await openView(booted);
		const sections = () =>
			Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-section")).map((s) => [s.dataset.section, Array.from(s.querySelectorAll<HTMLElement>(".a2a-agent-row")).map((r) => r.dataset.agent)]);
		expect(sections()).toEqual([
			["10-backend-group", ["builder"]],
			["20-frontend-group", ["hostile", "stalled"]],
			["30-devops-group", ["deep-worker"]],
			["50-qa-group", ["api-validator", "ui-explorer-01"]],
			["", ["form-checker", "minimal"]],
		]);
		expect(text(el.querySelector('.a2a-agent-section[data-section=""] .a2a-section-title'))).toBe("No group");
		expect(text(el.querySelector('.a2a-agent-section[data-section="20-frontend-group"] .a2a-section-count'))).toBe("2");

		const builder = row(el, "builder");
		const select = el.querySelector<HTMLSelectElement>("select.a2a-grouping");
		expect(select?.value).toBe("group");
		(select as HTMLSelectElement).value = "status";
		select?.dispatchEvent(new Event("change", { bubbles: true }));
		expect(sections()).toEqual([
			["running", ["deep-worker", "hostile", "stalled", "ui-explorer-01"]],
			["active", ["builder"]],
			["spawned", ["minimal"]],
			["failed", ["api-validator"]],
			["completed", ["form-checker"]],
		]);
		// Rows are moved, not rebuilt.
		expect(row(el, "builder")).toBe(builder);
		expect(view.getState()).toMatchObject({ grouping: "status" });

		// A status change moves the row to its new section, in name order.
		await setFrontmatter(booted, "A2A/agents/builder.md", (fm) => {
			fm.status = "running";
		});
		await idle(booted);
		await eventually(() => expect(sections()[0]).toEqual(["running", ["builder", "deep-worker", "hostile", "stalled", "ui-explorer-01"]]));
		expect(sections().map((s) => s[0])).toEqual(["running", "spawned", "failed", "completed"]);
		expect(row(el, "builder")).toBe(builder);

		// The grouping is part of the view's saved state.
		await view.setState({ grouping: "group", filter: "" }, { history: false });
		expect(select?.value).toBe("group");
		expect(sections()[0]).toEqual(["10-backend-group", ["builder"]]);
	});

	test("staleness and ages follow the clock", async () => {
		const now = Date.parse("2026-03-01T12:00:00Z");
		const files = vaultFiles(now);
		files["A2A/agents/ticking.md"] = note({ agent_id: "ticking", status: "running", progress_percent: 20, updated: iso(now - 4 * 60_000) });
		const booted = await boot(files);
		vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"], now });
		const { el } = await openView(booted);
		const ticking = row(el, "ticking");
		expect(text(ticking.querySelector(".a2a-agent-age"))).toBe("4 minutes ago");
		expect(ticking.querySelector(".a2a-stale-marker")?.hasClass("a2a-hidden")).toBe(true);
		const staleBefore = el.querySelector('.a2a-summary [data-count="stale"]')?.getAttribute("data-value");

		vi.advanceTimersByTime(2 * 60_000);
		expect(text(ticking.querySelector(".a2a-agent-age"))).toBe("6 minutes ago");
		expect(ticking.querySelector(".a2a-stale-marker")?.hasClass("a2a-hidden")).toBe(false);
		expect(ticking.hasClass("a2a-is-stale")).toBe(true);
		expect(Number(el.querySelector('.a2a-summary [data-count="stale"]')?.getAttribute("data-value"))).toBe(Number(staleBefore ?? 0) + 1);

		// A finished agent is never stale.
		expect(row(el, "form-checker").querySelector(".a2a-stale-marker")?.hasClass("a2a-hidden")).toBe(true);
		vi.useRealTimers();
	});

	test("a modifier-click opens the agent's note in a new tab, a plain click in place", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { el } = await openView(booted);
		const link = row(el, "ui-explorer-01").querySelector<HTMLElement>(".a2a-agent-name");
		link?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true }));
		await idle(booted);
		const opened = booted.host.openedFiles;
		expect(opened.at(-1)).toMatchObject({ path: "Runs/Navigation_Test_20260115.md", side: "root" });
		const firstLeaf = opened.at(-1)?.leaf;

		const plain = new MouseEvent("click", { bubbles: true, cancelable: true });
		link?.dispatchEvent(plain);
		expect(plain.defaultPrevented).toBe(true);
		await idle(booted);
		// A plain click reuses the active leaf (the tab the modifier-click opened).
		expect(opened.at(-1)).toMatchObject({ path: "Runs/Navigation_Test_20260115.md", leaf: firstLeaf });

		// Middle click: a new tab.
		row(el, "builder").querySelector<HTMLElement>(".a2a-agent-name")?.dispatchEvent(new MouseEvent("auxclick", { bubbles: true, cancelable: true, button: 1 }));
		await idle(booted);
		expect(opened.at(-1)?.path).toBe("A2A/agents/builder.md");
		expect(opened.at(-1)?.leaf).not.toBe(firstLeaf);
		expect(opened.length).toBe(3);
		expect(booted.host.openedLinks).toEqual([]);
	});

	test("opening again reveals the existing leaf; no right leaf is handled; a deferred leaf loads", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { host } = booted;
		await openView(booted);
		host.executeCommand(COMMAND);
		await idle(booted);
		expect(viewLeaves(host).length).toBe(1);
		// Collapsed sidebar: opening reveals it.
		host.fakeApp.workspace.rightSplit.collapse();
		await openAgentStatus(host.app);
		await idle(booted);
		expect(host.fakeApp.workspace.rightSplit.collapsed).toBe(false);

		// Closed, and no right leaf available: nothing happens, nothing throws.
		viewLeaves(host)[0].detach();
		await idle(booted);
		host.setRightLeafAvailable(false);
		await expect(openAgentStatus(host.app)).resolves.toBeUndefined();
		expect(host.executeCommand(COMMAND)).toBe(true);
		await idle(booted);
		expect(viewLeaves(host)).toEqual([]);
		expect(host.errors).toEqual([]);

		// A leaf restored from the layout holds a deferred view until it is revealed.
		host.setRightLeafAvailable(true);
		const restored = await host.restoreLeaf({ type: VIEW_TYPE_AGENT_STATUS, side: "right", state: { grouping: "status" } });
		expect(restored.view).not.toBeInstanceOf(AgentStatusView);
		host.executeCommand(COMMAND);
		await idle(booted);
		expect(viewLeaves(host).length).toBe(1);
		expect(restored.view).toBeInstanceOf(AgentStatusView);
		const el = (restored.view as AgentStatusView).contentEl;
		expect(el.querySelector<HTMLSelectElement>("select.a2a-grouping")?.value).toBe("status");
		expect(el.querySelectorAll(".a2a-agent-row").length).toBe(8);
	});

	test("closing the view and unloading the plugin leave nothing behind", async () => {
		const booted = await boot(vaultFiles(Date.now()));
		const { host } = booted;
		const listenersBefore = host.listenerCount();
		const intervalsBefore = host.activeIntervals();
		const domBefore = host.domListenerCount();
		await openView(booted);
		expect(host.activeIntervals()).toBe(intervalsBefore + 1);
		viewLeaves(host)[0].detach();
		await idle(booted);
		expect(host.listenerCount()).toBe(listenersBefore);
		expect(host.activeIntervals()).toBe(intervalsBefore);
		expect(host.domListenerCount()).toBe(domBefore);
		// The plugin keeps no reference to a view.
		const plugin = booted.plugin as unknown as Record<string, unknown>;
		for (const value of Object.values(plugin)) expect(value).not.toBeInstanceOf(AgentStatusView);
		expect(host.errors).toEqual([]);
	});
});
