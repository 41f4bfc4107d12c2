import { describe, expect, it } from "vitest";
import { findCycles, importsOf, layerViolations } from "../../scripts/check-imports.mjs";

// The import-graph check of `npm test` (scripts/check-imports.mjs) on tiny made-up graphs: it must
// find every cycle and every import up the layers, and nothing else.

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe("findCycles", () => {
	it("finds none in a graph without a cycle", () => {
		expect(findCycles(graph({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
	});

	it("finds a two-module cycle, as a path back to its start", () => {
		expect(findCycles(graph({ "commands/x.ts": ["modals/x.ts"], "modals/x.ts": ["commands/x.ts", "core/y.ts"], "core/y.ts": [] }))).toEqual([
			["commands/x.ts", "modals/x.ts", "commands/x.ts"],
		]);
	});

	it("finds each cycle of a graph once, a long one and a module that imports itself included", () => {
		const cycles = findCycles(graph({ a: ["b"], b: ["c"], c: ["a", "d"], d: ["e"], e: ["d"], f: ["f"], g: ["a"] }));
		expect(cycles.map((c) => c.join(" -> ")).sort()).toEqual(["a -> b -> c -> a", "d -> e -> d", "f -> f"]);
	});

	it("copes with an import of a module that has no entry of its own", () => {
		expect(findCycles(graph({ a: ["missing"] }))).toEqual([]);
	});
});

describe("layerViolations", () => {
	const edge = (from: string, to: string, external = false) => ({ from, to, external });

	it("lets imports point down and flags every one that points up", () => {
		const problems = layerViolations([
			edge("src/ui/modals/m.ts", "src/actions/a.ts"),
			edge("src/actions/a.ts", "src/core/c.ts"),
			edge("src/commands/c.ts", "src/ui/modals/m.ts"),
			edge("src/core/c.ts", "src/ui/view/v.ts"),
			edge("src/router/r.ts", "src/obsidian/relay.ts"),
			edge("src/ui/modals/m.ts", "src/commands/c.ts"),
			edge("src/actions/a.ts", "obsidian", true),
			edge("cli/main.ts", "src/ui/settings-tab.ts"),
			edge("src/core/c.ts", "yaml", true),
		]);
		expect(problems.map((p) => `${p.fromLayer} -> ${p.toLayer}`)).toEqual(["core -> ui", "router -> obsidian", "ui -> commands", "actions -> obsidian-api", "cli -> ui"]);
	});

	it("keeps Node out of the plugin and lets the CLI use it", () => {
		expect(layerViolations([edge("src/ui/x.ts", "node:fs", true), edge("cli/x.ts", "node:fs", true), edge("src/core/x.ts", "path", true)]).map((p) => p.from)).toEqual([
			"src/ui/x.ts",
			"src/core/x.ts",
		]);
	});
});

describe("importsOf", () => {
	it("reads static, type-only, multi-line, re-export, side-effect and dynamic imports, not commented ones", () => {
		const text = [
			'import { a } from "./a";',
			'import type { B } from "../b";',
			"import {",
			"\tc,",
			"\td as e,",
			'} from "./c";',
			'export { f } from "./f";',
			'import "./side-effect";',
			'const g = await import("./g");',
			'// import { h } from "./h";',
			'/* import { i } from "./i"; */',
			'const text = "not an import";',
		].join("\n");
		expect(importsOf(text)).toEqual(["./a", "../b", "./c", "./f", "./side-effect", "./g"]);
	});
});
