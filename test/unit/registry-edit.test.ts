import { describe, expect, it } from "vitest";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { parseRegistry, parseRegistryNote } from "../../src/core/registry";
import { editRegistryText } from "../../src/core/registry-edit";

// The settings' Groups section edits the registry's text: the edit lands, the rest of the file
// (comments, order, other keys) stays as written, and an edit that would break it is refused.

function ok(result: ReturnType<typeof editRegistryText>): string {
	if (!result.ok) throw new Error(result.error);
	return result.text;
}

describe("editRegistryText", () => {
	it("adds, describes, points to a remote agent, renames and removes groups, keeping the comments", () => {
		let text = ok(editRegistryText(EXAMPLE_REGISTRY, { op: "add-group", id: "50-qa-group", description: "Tests the app" }, "A2A"));
		text = ok(editRegistryText(text, { op: "set-group", id: "50-qa-group", field: "url", value: "https://qa.example/a2a/" }, "A2A"));
		text = ok(editRegistryText(text, { op: "set-group", id: "10-backend-group", field: "description", value: "Owns the API" }, "A2A"));
		text = ok(editRegistryText(text, { op: "rename-group", id: "30-devops-group", to: "35-ops-group" }, "A2A"));
		text = ok(editRegistryText(text, { op: "remove-group", id: "40-security-group" }, "A2A"));
		expect(text.startsWith("# A2A Relay registry:")).toBe(true);
		const registry = parseRegistry(text, "A2A");
		expect(registry.errors).toEqual([]);
		expect([...registry.groups.keys()]).toEqual(["10-backend-group", "20-frontend-group", "35-ops-group", "a2a-gateway", "50-qa-group"]);
		expect(registry.groups.get("10-backend-group")?.description).toBe("Owns the API");
		expect(registry.groups.get("35-ops-group")?.description).toBe("Deploys and runs the services");
		expect(registry.groups.get("50-qa-group")?.url).toBe("https://qa.example/a2a/");
		text = ok(editRegistryText(text, { op: "set-group", id: "50-qa-group", field: "url", value: "" }, "A2A"));
		expect(parseRegistry(text, "A2A").groups.get("50-qa-group")?.url).toBeUndefined();
	});

	it("sets the communication settings, refusing values below their minimum", () => {
		const text = ok(editRegistryText(EXAMPLE_REGISTRY, { op: "set-communication", key: "max_hops", value: 8 }, "A2A"));
		expect(parseRegistry(text, "A2A").communication.max_hops).toBe(8);
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "set-communication", key: "timeout_seconds", value: 0 }, "A2A")).toEqual({ ok: false, error: "Enter a whole number of at least 1." });
	});

	it("refuses bad or clashing ids and unknown groups, and a registry that does not parse", () => {
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "add-group", id: "../x" }, "A2A").ok).toBe(false);
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "add-group", id: "10-BACKEND-group" }, "A2A")).toEqual({ ok: false, error: 'A group "10-backend-group" exists already.' });
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "rename-group", id: "10-backend-group", to: "20-frontend-group" }, "A2A").ok).toBe(false);
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "add-group", id: "A2A-Relay" }, "A2A")).toEqual({
			ok: false,
			error: 'Group id "A2A-Relay" is reserved for the router (its own error and timeout responses come from a2a-relay): choose another id.',
		});
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "remove-group", id: "nope" }, "A2A")).toEqual({ ok: false, error: 'The registry has no group "nope".' });
		expect(editRegistryText("groups: [unclosed", { op: "add-group", id: "a" }, "A2A").ok).toBe(false);
		expect(editRegistryText(EXAMPLE_REGISTRY, { op: "set-group", id: "10-backend-group", field: "url", value: "ftp://x" }, "A2A").ok).toBe(false);
	});

	it("edits a list of groups and the frontmatter of registry.md, keeping the note's body", () => {
		const list = "groups:\n  - id: red\n  - id: blue\n";
		const renamed = ok(editRegistryText(list, { op: "rename-group", id: "blue", to: "green" }, "A2A"));
		expect([...parseRegistry(renamed, "A2A").groups.keys()]).toEqual(["red", "green"]);
		const note = "---\ngroups:\n  red: {}\n---\n# Registry\n\nOur teams.\n";
		const added = ok(editRegistryText(note, { op: "add-group", id: "blue", description: "Blue team" }, "A2A", true));
		expect(added.endsWith("---\n# Registry\n\nOur teams.\n")).toBe(true);
		expect([...parseRegistryNote(added, "A2A").groups.keys()]).toEqual(["red", "blue"]);
		expect(editRegistryText("# no frontmatter\n", { op: "add-group", id: "x" }, "A2A", true).ok).toBe(false);
	});
});
