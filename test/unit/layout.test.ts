import { describe, expect, it } from "vitest";
import { VaultLayout } from "../../src/core/layout";
import { parseRegistry } from "../../src/core/registry";
import { seedRegistry } from "./helpers";

// Where everything lives (protocol section 1), and that no path the router builds leaves the root and
// the registry's group folders.

const layout = new VaultLayout("A2A", seedRegistry());

describe("paths", () => {
	it("puts a default group's boxes under <root>/groups/<id>/", () => {
		expect(layout.groupFolder("10-backend-group")).toBe("A2A/groups/10-backend-group");
		expect(layout.box("10-backend-group", "inbox")).toBe("A2A/groups/10-backend-group/inbox");
		expect(layout.box("10-backend-group", "outbox")).toBe("A2A/groups/10-backend-group/outbox");
		expect(layout.box("10-backend-group", "archive")).toBe("A2A/groups/10-backend-group/archive");
	});

	it("puts a custom-folder group's boxes inside its own folder", () => {
		expect(layout.groupFolder("20-frontend-group")).toBe("skills/20-frontend-group");
		expect(layout.box("20-frontend-group", "inbox")).toBe("skills/20-frontend-group/inbox");
		expect(layout.box("20-frontend-group", "outbox")).toBe("skills/20-frontend-group/outbox");
		expect(layout.box("20-frontend-group", "archive")).toBe("skills/20-frontend-group/archive");
	});

	it("has no boxes for a group that is not in the registry", () => {
		expect(layout.box("99-unknown", "inbox")).toBeNull();
		expect(layout.groupFolder("99-unknown")).toBeNull();
		expect(layout.hasGroup("99-unknown")).toBe(false);
		expect(layout.hasGroup("10-backend-group")).toBe(true);
		expect(layout.groupIds()).toEqual(["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"]);
	});

	it("names the shared folders and files", () => {
		expect(layout.registryPath).toBe("A2A/registry.yaml");
		expect(layout.deadLetterFolder).toBe("A2A/dead-letter");
		expect(layout.logFolder).toBe("A2A/log");
		expect(layout.agentsFolder).toBe("A2A/agents");
		expect(layout.groupsFolder).toBe("A2A/groups");
	});

	it("names the log note after the UTC day of the decision", () => {
		expect(layout.logPath(new Date("2026-01-15T10:30:00Z"))).toBe("A2A/log/2026-01-15.md");
		expect(layout.logPath(new Date("2026-01-15T23:30:00-05:00"))).toBe("A2A/log/2026-01-16.md");
		expect(layout.logPath(new Date("2026-12-31T23:59:59.999Z"))).toBe("A2A/log/2026-12-31.md");
	});

	it("uses a custom root", () => {
		const custom = new VaultLayout("Agents/Relay/", seedRegistry());
		expect(custom.root).toBe("Agents/Relay");
		expect(custom.box("10-backend-group", "inbox")).toBe("Agents/Relay/groups/10-backend-group/inbox");
		expect(custom.box("20-frontend-group", "inbox")).toBe("skills/20-frontend-group/inbox");
		expect(custom.deadLetterFolder).toBe("Agents/Relay/dead-letter");
		expect(custom.registryPath).toBe("Agents/Relay/registry.yaml");
	});

	it.each([["../x"], ["/abs"], [".hidden"], ["a/../b"], [""], ["   "], ["C:\\Vault"], ["a/.git"]])("falls back to A2A for the root name %j", (root) => {
		const fallback = new VaultLayout(root);
		expect(fallback.root).toBe("A2A");
		expect(fallback.registryPath).toBe("A2A/registry.yaml");
	});

	it("works without a registry (no groups yet)", () => {
		const bare = new VaultLayout("A2A");
		expect(bare.groupIds()).toEqual([]);
		expect(bare.watchedFolders()).toEqual(["A2A"]);
	});
});

describe("locate", () => {
	it.each([
		["A2A/groups/10-backend-group/inbox/m.md", { area: "box", box: "inbox", group: "10-backend-group" }],
		["A2A/groups/10-backend-group/outbox/m.md", { area: "box", box: "outbox", group: "10-backend-group" }],
		["A2A/groups/10-backend-group/archive/m.md", { area: "box", box: "archive", group: "10-backend-group" }],
		["skills/20-frontend-group/inbox/m.md", { area: "box", box: "inbox", group: "20-frontend-group" }],
		["skills/20-frontend-group/outbox/m.yaml", { area: "box", box: "outbox", group: "20-frontend-group" }],
		["skills/20-frontend-group/archive/m.md", { area: "box", box: "archive", group: "20-frontend-group" }],
		["A2A/dead-letter/m.md", { area: "dead-letter" }],
		["A2A/dead-letter/2026/m.md", { area: "dead-letter" }],
		["A2A/log/2026-01-15.md", { area: "log" }],
		["A2A/agents/ui-explorer.md", { area: "agents" }],
		["A2A/agents/run-1/deep/ui-explorer.md", { area: "agents" }],
		["A2A/registry.yaml", { area: "registry" }],
	])("locates %s", (path, location) => {
		expect(layout.locate(path)).toEqual(location);
	});

	it.each([
		["A2A/groups/10-backend-group/outbox/drafts/m.md", "a file below a box is not in the box"],
		["A2A/groups/10-backend-group/outbox", "the box folder itself"],
		["A2A/dead-letter", "the dead-letter folder itself"],
		["A2A/agents", "the agents folder itself"],
		["A2A/groups/99-unknown/outbox/m.md", "the box of a group not in the registry"],
		["A2A/groups/20-frontend-group/outbox/m.md", "the default place of a custom-folder group"],
		["skills/20-frontend-group/notes.md", "a note in a group folder outside its boxes"],
		["A2A/registry.yaml.bak", "a file named like the registry"],
		["A2A2/dead-letter/m.md", "a folder whose name starts like the root"],
		["Notes/m.md", "any other note"],
	])("does not locate %s (%s)", (path) => {
		expect(layout.locate(path)).toEqual({ area: "other" });
	});

	it("item 1: takes a backslash as part of a name, never as a folder", () => {
		expect(layout.locate("A2A/groups/10-backend-group/outbox/x\\..\\..\\Escaped\\planted.md")).toEqual({ area: "box", box: "outbox", group: "10-backend-group" });
		expect(layout.locate("A2A\\groups\\10-backend-group\\outbox\\m.md")).toEqual({ area: "other" });
	});
});

describe("mayWrite", () => {
	it("allows paths inside the root and the registry's group folders", () => {
		expect(layout.mayWrite("A2A/groups/10-backend-group/inbox/m.md")).toBe(true);
		expect(layout.mayWrite("A2A/dead-letter/m.md")).toBe(true);
		expect(layout.mayWrite("A2A/log/2026-01-15.md")).toBe(true);
		expect(layout.mayWrite("skills/20-frontend-group/inbox/m.md")).toBe(true);
	});

	it.each([
		"Notes/m.md",
		"skills/other/m.md",
		"skills/20-frontend-group-evil/m.md",
		"A2A2/m.md",
		"A2A/../Notes/m.md",
		"A2A/groups/../../Notes/m.md",
		"skills/20-frontend-group/../../Notes/m.md",
		"..",
		"",
	])("refuses %j", (path) => {
		expect(layout.mayWrite(path)).toBe(false);
	});

	it("watches the root and only the group folders outside it", () => {
		const registry = parseRegistry("groups:\n  a:\n    folder: A2A/teams/a\n  b:\n    folder: skills/b\n  c: {}\n");
		const l = new VaultLayout("A2A", registry);
		expect(l.watchedFolders()).toEqual(["A2A", "skills/b"]);
		expect(l.isRelevant("skills/b/outbox/m.md")).toBe(true);
		expect(l.isRelevant("skills/c/outbox/m.md")).toBe(false);
		expect(l.box("a", "outbox")).toBe("A2A/teams/a/outbox");
	});
});
