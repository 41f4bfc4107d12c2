import { describe, expect, it } from "vitest";
import { readAgent } from "../../src/core/agent";
import { findingHeadings, latestFinding } from "../../src/core/findings";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { readRawMessage } from "../../src/core/message-parse";
import { validateRaw } from "../../src/core/validate";
import { messageOf, problemFields, problemsOf, rawOf, seedFixture } from "./helpers";

// The examples of the two seed documents, kept verbatim in test/fixtures/seed, must read as the
// seeds mean them: the three requests and the response of seed 001 as .yaml files and as notes, and
// a seed-000 memory node with its findings.

const ANSWER = `Mandatory fields:
- name (string, max 100 chars)
- email (string, valid)
- password (string, min 8 chars)

Optional fields:
- phone (string, optional)
- avatar_url (string, optional)
`;

const EXAMPLES = [
	{
		name: "request-1-backend-asks-frontend",
		envelope: {
			kind: "request",
			trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
			hop_count: 0,
			source_group: "10-backend-group",
			target_group: "20-frontend-group",
			request_type: "query",
			priority: "high",
		},
		payload: { question: "What fields are mandatory in the registration form?", context: "Designing user table in PostgreSQL" },
		wrapper: "request",
	},
	{
		name: "request-2-frontend-asks-backend",
		envelope: {
			kind: "request",
			trace_id: "b2c3d4e5-f6a7-8901-bcde-f23456789012",
			hop_count: 1,
			source_group: "20-frontend-group",
			target_group: "10-backend-group",
			request_type: "query",
			priority: "medium",
		},
		payload: { question: "What is the endpoint to create a user?", context: "Implementing registration form" },
		wrapper: "request",
	},
	{
		name: "request-3-devops-asks-security",
		envelope: {
			kind: "request",
			trace_id: "c3d4e5f6-a7b8-9012-cdef-345678901234",
			hop_count: 0,
			source_group: "30-devops-group",
			target_group: "40-security-group",
			request_type: "task",
			priority: "high",
		},
		payload: {
			task: "Review Kubernetes configuration for compliance",
			artifacts: ["skills/30-devops-group/manifests/deployment.yaml"],
		},
		wrapper: "request",
	},
	{
		name: "response-1-frontend-answers",
		envelope: { kind: "response", trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", status: "success", source_group: "20-frontend-group" },
		payload: { answer: ANSWER },
		wrapper: "response",
	},
] as const;

describe("seed 001 examples", () => {
	it("keeps the fixtures verbatim: the .md note is the .yaml file between --- fences", () => {
		for (const example of EXAMPLES) {
			const yaml = seedFixture(`${example.name}.yaml`);
			const wrapperLine = example.wrapper === "request" ? "message:" : "response:";
			expect(yaml.split("\n").filter((line) => !line.startsWith("#"))[0]).toBe(wrapperLine);
			expect(seedFixture(`${example.name}.md`)).toBe(`---\n${yaml}---\n`);
		}
	});

	for (const example of EXAMPLES) {
		for (const ext of ["yaml", "md"] as const) {
			it(`${example.name}.${ext} parses and validates to the seed's values`, () => {
				const path = `A2A/groups/${example.envelope.source_group}/outbox/${example.name}.${ext}`;
				const raw = rawOf(seedFixture(`${example.name}.${ext}`), path);
				expect(raw.format).toBe(ext === "yaml" ? "yaml" : "wrapped");
				expect(raw.wrapperKind).toBe(example.wrapper);
				const validation = validateRaw(raw, { outboxGroup: example.envelope.source_group });
				expect(validation.ok).toBe(true);
				if (!validation.ok) return;
				expect(validation.message.envelope).toEqual(example.envelope);
				expect(validation.message.payload).toEqual(example.payload);
				expect(validation.message.extra).toEqual({});
			});
		}
	}

	it("reads the response's literal block answer with its blank line and final newline", () => {
		const message = messageOf(seedFixture("response-1-frontend-answers.yaml"), "r.yaml");
		expect(message.payload.answer).toBe(ANSWER);
		expect((message.payload.answer as string).split("\n")).toContain("");
	});

	it("reads a .md file holding the bare seed YAML (no --- fences) as the same message", () => {
		for (const example of EXAMPLES) {
			const bare = seedFixture(`${example.name}.yaml`);
			const read = readRawMessage(bare, `${example.name}.md`);
			expect(read.ok).toBe(true);
			if (!read.ok) return;
			expect(read.raw.format).toBe("yaml");
			const validation = validateRaw(read.raw);
			expect(validation.ok && validation.message.envelope).toEqual(example.envelope);
			expect(validation.ok && validation.message.payload).toEqual(example.payload);
		}
	});

	it("rejects the seed's message structure template, naming each placeholder field", () => {
		const problems = problemsOf(seedFixture("template-message-structure.yaml"), "t.yaml");
		expect(problemFields(problems)).toEqual(["priority", "request_type", "trace_id"]);
		expect(problems.find((p) => p.field === "trace_id")?.message).toContain('"uuid-v4"');
		expect(problems.find((p) => p.field === "request_type")?.message).toContain("query, task, artifact");
	});

	it("rejects the seed's response structure template on trace_id and status, keeping its payload shape", () => {
		const raw = rawOf(seedFixture("template-response-structure.yaml"), "t.yaml");
		expect(raw.payload).toEqual({ answer: "Mandatory fields are: name, email, password", artifacts: [] });
		expect(raw.fields.processing_time_ms).toBe(150);
		const problems = problemsOf(seedFixture("template-response-structure.yaml"), "t.yaml");
		expect(problemFields(problems)).toEqual(["status", "trace_id"]);
	});
});

describe("seed 000 memory node", () => {
	const text = seedFixture("agent-navigation-test.md");
	const path = "Runs/Navigation_Test_20260115.md";

	it("reads the agent's status fields", () => {
		const split = splitNote(text);
		const agent = readAgent(path, readFrontmatter(text), split.body, 0);
		expect(agent).not.toBeNull();
		expect(agent).toMatchObject({
			name: "ui-explorer-01",
			agentId: "ui-explorer-01",
			role: "UI Explorer",
			group: "50-qa-group",
			status: "running",
			progress: 50,
			lastAction: "Checking navigation links",
			result: "pending",
			objective: "Check every link of the homepage",
			spawnedAt: "2026-01-15T10:29:58Z",
			updatedAt: Date.parse("2026-01-15T10:35:00Z"),
			notes: [],
		});
	});

	it("keeps the screenshots list as a plain frontmatter list of wikilinks", () => {
		expect(readFrontmatter(text)?.screenshots).toEqual(["[[Screenshots/homepage_20260115.png]]"]);
	});

	it("finds both findings, in both timestamp styles, and the latest is the last heading", () => {
		const body = splitNote(text).body;
		expect(findingHeadings(body)).toEqual([
			{ timestamp: "10:30:15", action: "Navigation Check Complete", timeOnly: true },
			{ timestamp: "2026-01-15T10:35:00Z", action: "Test Complete", timeOnly: false },
		]);
		expect(latestFinding(body)).toEqual({ timestamp: "2026-01-15T10:35:00Z", action: "Test Complete", timeOnly: false });
		expect(readAgent(path, readFrontmatter(text), body)?.latestFinding?.action).toBe("Test Complete");
	});

	it("does not take the findings' ### subsections or the title for findings", () => {
		const body = splitNote(text).body;
		for (const sub of ["### Summary", "### Metrics", "### Screenshots", "### Recommendations"]) expect(body).toContain(sub);
		expect(findingHeadings(body).map((f) => f.action)).not.toContain("Summary");
	});

	it("reads the partial-failure node of seed 000 (completed with warning, sections counted), named after its file", () => {
		const partial = seedFixture("agent-partial-failure.md");
		const agent = readAgent("Runs/Test_20260115.md", readFrontmatter(partial), splitNote(partial).body, 1234);
		expect(agent).toMatchObject({ name: "Test_20260115", status: "completed", result: "warning", sectionsPassed: 5, sectionsFailed: 2, updatedAt: 1234 });
		expect(agent?.agentId).toBeUndefined();
		expect(agent?.latestFinding).toBeUndefined();
	});

	it("reads the crashed agent of seed 000 with its error, and its ## sections are not findings", () => {
		const crashed = seedFixture("agent-crashed.md");
		const agent = readAgent("agents/b.md", readFrontmatter(crashed), splitNote(crashed).body);
		expect(agent).toMatchObject({ name: "api-validator", status: "failed", error: "Process exited with code 1", notes: [] });
		expect(agent?.latestFinding).toBeUndefined();
	});
});
