import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { VaultLayout } from "../../src/core/layout";
import { parseRegistry } from "../../src/core/registry";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { setupBases } from "../../src/core/vault-setup";

// The bases init writes for Obsidian's Bases plugin: YAML that parses, with the views the README
// names, and "In flight" holding every request still waiting for its answer.

interface Base {
	filters: unknown;
	formulas?: Record<string, string>;
	views: { type: string; name: string; filters?: { or?: string[]; and?: string[] } }[];
}

describe("the bases a2a init and Create registry and group folders write", () => {
	const layout = new VaultLayout("A2A", parseRegistry(EXAMPLE_REGISTRY, "A2A"));
	const bases = new Map(setupBases(layout).map((b) => [b.path, parse(b.text) as Base]));

	it("are YAML with a filter and named table views", () => {
		expect([...bases.keys()].sort()).toEqual(["A2A/Agents.base", "A2A/Messages.base"]);
		for (const [path, base] of bases) {
			expect(base.filters, path).toBeDefined();
			expect(base.views.length, path).toBeGreaterThan(0);
			for (const view of base.views) expect(view.name, path).toMatch(/^[A-Z][a-z ]+$/);
		}
		expect(bases.get("A2A/Messages.base")?.views.map((v) => v.name)).toEqual(["In flight", "Dead letters", "By trace", "All messages"]);
	});

	it("In flight lists delivered, retrying and forwarded requests (a request a remote agent holds is in flight too)", () => {
		const inFlight = bases.get("A2A/Messages.base")?.views.find((v) => v.name === "In flight");
		expect(inFlight?.filters?.or).toEqual(['state == "delivered"', 'state == "retrying"', 'state == "forwarded"']);
	});

	it("the Box column names an archive's month folder archive, and the Archived in column its month (contract v3 section 1)", () => {
		const formulas = bases.get("A2A/Messages.base")?.formulas ?? {};
		// The formulas use the part of Bases' language that reads as JavaScript once if() is a function.
		const evaluate = (formula: string, folder: string): unknown =>
			new Function("file", "iff", `return ${formula.replace(/\bif\(/g, "iff(")};`)({ folder }, (c: boolean, a: unknown, b: unknown) => (c ? a : b));
		const cases: [string, string, string][] = [
			["A2A/groups/20-frontend-group/archive/2026-12", "archive", "2026-12"],
			["A2A/groups/20-frontend-group/archive", "archive", ""],
			["A2A/groups/20-frontend-group/inbox", "inbox", ""],
			["A2A/groups/archive/inbox", "inbox", ""],
			["A2A/dead-letter", "dead-letter", ""],
		];
		for (const [folder, box, month] of cases) {
			expect(evaluate(formulas.box, folder), folder).toBe(box);
			expect(evaluate(formulas.month, folder), folder).toBe(month);
		}
	});

	it("Agents.base lists the agents folder and the extra agent folders, each name kept whole", () => {
		const [, agents] = setupBases(layout, ["Runs", "Old: #1 'runs'", "A2A/agents"]);
		expect((parse(agents.text) as Base).filters).toEqual({
			and: [{ or: ['file.inFolder("A2A/agents")', 'file.inFolder("Runs")', `file.inFolder("Old: #1 'runs'")`] }, 'file.hasProperty("status")'],
		});
		expect((parse(setupBases(layout)[1].text) as Base).filters).toEqual({ and: ['file.inFolder("A2A/agents")', 'file.hasProperty("status")'] });
	});
});
