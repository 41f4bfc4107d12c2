import { EXAMPLE_REGISTRY } from "../src/core/example-registry";

// The browser test's fixture: the seed-001 registry groups, agents in every lifecycle state (seed-000
// memory nodes under Runs, notes written by `a2a agent` in A2A/agents), hostile text and odd values,
// and messages that routing turns into deliveries, rejections and dead letters. It is for checks
// only: the README's pictures come from the demo vault, never from this.

export const PLUGIN_DATA_PATH = ".obsidian/plugins/a2a-relay/data.json";
export const XSS = "<img src=x onerror=alert(1)>";

const iso = (t: number): string => new Date(t).toISOString();

function note(fields: Record<string, string | number>, body = ""): string {
	const lines = Object.entries(fields).map(([k, v]) => `${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`);
	return `---\n${lines.join("\n")}\n---\n${body}`;
}

export interface ExpectedAgent {
	name: string;
	status: string;
	progress: string | null;
}

/** What the view must show for the vault below (before any change). */
export const EXPECTED_AGENTS: ExpectedAgent[] = [
	{ name: "ui-explorer-01", status: "running", progress: "50" },
	{ name: "api-validator", status: "failed", progress: null },
	{ name: "form-checker", status: "completed", progress: "100" },
	{ name: "schema-designer", status: "active", progress: "15" },
	{ name: "migration-runner", status: "running", progress: "72" },
	{ name: "deploy-bot", status: "running", progress: "40" },
	{ name: "compliance-reviewer", status: "spawned", progress: "0" },
	{ name: "release-notes", status: "completed", progress: "100" },
	{ name: "ux-auditor", status: "running", progress: "100" },
];

export function realisticVault(now: number): Record<string, string> {
	return {
		[PLUGIN_DATA_PATH]: JSON.stringify({ extraAgentFolders: ["Runs"], staleMinutes: 5, graceSeconds: 0, showNotices: false }),
		"Welcome.md": "# Welcome\n\nThe agents of this vault report in the Agent status sidebar.\n",
		"A2A/registry.yaml": EXAMPLE_REGISTRY,

		// Seed 000's memory nodes, written by its QA system under Runs.
		"Runs/Navigation_Test_20260115.md": `---
agent_id: ui-explorer-01
agent_role: UI Explorer
group: 50-qa-group
status: running
progress_percent: 50
last_action: Checking navigation links
result: pending
spawned_at: ${iso(now - 6 * 60_000)}
updated: ${iso(now - 40_000)}
screenshots:
  - "[[Screenshots/homepage_20260115.png]]"
---
# Navigation_Test_20260115

## [10:30:15] Navigation Check Complete

- **Links found**: 15
- **Broken links**: 2
- **Details**:
  - /about — 404 Not Found
  - /contact — 500 Server Error
`,
		"Runs/API_Validation_20260115.md": note(
			{ agent_id: "api-validator", agent_role: "API Validator", group: "50-qa-group", status: "failed", error: "Page load timeout after 30s", last_action: "Submitting the contact form", updated: iso(now - 3 * 60_000) },
			"# Agent B's Report\n\n## [10:31:02] API Validation\n\nReturns 500 when the form is submitted.\n",
		),
		"Runs/Form_Check_20260115.md": note(
			{ agent_id: "form-checker", agent_role: "Form Checker", group: "50-qa-group", status: "completed", result: "warning", sections_passed: 5, sections_failed: 2, progress_percent: 100, last_action: "Report written", updated: iso(now - 9 * 60_000) },
			"## [2026-01-15T10:35:00Z] Test Complete\n\n### Summary\nFive of seven sections passed.\n",
		),

		// Agents written by `a2a agent set` in A2A/agents (any depth).
		"A2A/agents/schema-designer.md": note({ agent_id: "schema-designer", agent_role: "Database designer", group: "10-backend-group", status: "active", progress_percent: 15, last_action: "Reading the registration form fields", objective: "Design the user table", updated: iso(now - 12_000) }),
		"A2A/agents/migration-runner.md": note(
			{ agent_id: "migration-runner", agent_role: "Migrations", group: "10-backend-group", status: "running", progress_percent: 72, last_action: "Applying migration 0007_add_phone", result: "pending", updated: iso(now - 4_000) },
			"## [2026-01-15T10:40:12Z] Migration 0006 applied\n\n### Context\nUsers table.\n",
		),
		"A2A/agents/devops/deploy-bot.md": note({ agent_id: "deploy-bot", agent_role: "Deployer", group: "30-devops-group", status: "running", progress_percent: 40, last_action: "Waiting for the cluster to answer", updated: iso(now - 17 * 60_000) }),
		"A2A/agents/compliance-reviewer.md": note({ agent_id: "compliance-reviewer", agent_role: "Compliance reviewer", group: "40-security-group", status: "spawned", progress_percent: 0, updated: iso(now - 2_000) }),
		"A2A/agents/release-notes.md": note({ agent_id: "release-notes", agent_role: "Writer", group: "20-frontend-group", status: "completed", result: "pass", progress_percent: 100, last_action: "Published the release notes", updated: iso(now - 60 * 60_000) }),
		// Hostile text in its fields must show as text; progress out of range is clamped and warned about.
		"A2A/agents/ux-auditor.md": note({ agent_id: "ux-auditor", agent_role: "UX auditor", group: "20-frontend-group", status: "running", progress_percent: 130, last_action: XSS, updated: iso(now - 25_000) }),

		// Messages: two good requests, one to a group that does not exist, one without a trace_id.
		"A2A/groups/10-backend-group/outbox/ask-frontend-fields.md": note(
			{ trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", hop_count: 0, source_group: "10-backend-group", target_group: "20-frontend-group", request_type: "query", priority: "high" },
			"## Question\nWhat fields are mandatory in the registration form?\n\n## Context\nDesigning user table in PostgreSQL\n",
		),
		"A2A/groups/30-devops-group/outbox/review-k8s.md": note(
			{ trace_id: "c3d4e5f6-a7b8-9012-cdef-345678901234", hop_count: 0, source_group: "30-devops-group", target_group: "40-security-group", request_type: "task", priority: "high" },
			"## Task\nReview Kubernetes configuration for compliance\n\n## Artifacts\n- skills/30-devops-group/manifests/deployment.yaml\n",
		),
		"A2A/groups/20-frontend-group/outbox/ask-mobile.md": note(
			{ trace_id: "d4e5f6a7-b8c9-0123-def0-456789012345", hop_count: 0, source_group: "20-frontend-group", target_group: "60-mobile-group", request_type: "query" },
			"## Question\nDo you need the same fields?\n",
		),
		"A2A/groups/40-security-group/outbox/no-trace.md": note({ hop_count: 0, source_group: "40-security-group", target_group: "30-devops-group", request_type: "query" }, "## Question\nWhich cluster?\n"),
		// A dead letter from an earlier session.
		"A2A/dead-letter/loop-2026-01-14.md": note(
			{
				message_id: "0f0e0d0c-0b0a-4908-8706-050403020100",
				trace_id: "b2c3d4e5-f6a7-8901-bcde-f23456789012",
				hop_count: 5,
				source_group: "20-frontend-group",
				target_group: "10-backend-group",
				request_type: "query",
				state: "dead",
				dead_at: iso(now - 26 * 3600_000),
				error_code: "MAX_HOPS_EXCEEDED",
				error_message: "hop_count 5 reached max_hops 5",
			},
			"## Question\nWhat is the endpoint to create a user?\n",
		),
	};
}

/** One of many similar agents, for the benchmarks (`i` spreads them over statuses and groups). */
export function benchAgentNote(i: number, progress: number, now: number): string {
	const group = `${String(10 * (1 + (i % 8)))}-group`;
	const status = ["spawned", "active", "running", "running", "completed", "failed"][i % 6];
	return `---
agent_id: agent-${String(i).padStart(4, "0")}
agent_role: Worker ${i % 13}
group: ${group}
status: ${status}
progress_percent: ${progress}
last_action: Step ${progress} of the job
result: ${status === "completed" ? "pass" : "pending"}
updated: ${iso(now - (i % 600) * 1000)}
---
# agent ${i}

## [10:30:15] Started
`;
}

/** A vault of `count` agents in A2A/agents and a small registry. */
export function benchVault(count: number, now: number): Record<string, string> {
	const files: Record<string, string> = {
		[PLUGIN_DATA_PATH]: JSON.stringify({ showNotices: false }),
		"A2A/registry.yaml": "groups:\n  10-group: {}\n  20-group: {}\n",
	};
	for (let i = 0; i < count; i++) files[`A2A/agents/agent-${String(i).padStart(4, "0")}.md`] = benchAgentNote(i, i % 101, now);
	return files;
}
