// The import graph of the plugin and the CLI (main.ts, src/, node/, servers/, cli/), checked two ways:
//
// 1. No cycle: a module never imports, directly or through others, a module that imports it.
// 2. Imports point down the layers, never up:
//
//      main.ts
//      src/plugin/        the composition root: builds each part once, hands each what it needs
//      src/commands/      command palette entries: find the target, open a modal
//      src/ui/            views, modals, the settings tab (DOM)
//      src/obsidian/      adapters over Obsidian's API (the vault port, the relay, the agent store)
//      src/actions/       plan and write one user action; no UI, no `obsidian`
//      src/settings.ts    the settings and their cleaning
//      src/router/        the post office, over the vault port
//      src/core/          the protocol: pure functions and types
//
//    The headless side sits beside the plugin, in three layers of its own:
//      cli/           the `a2a` command line: arguments, commands, the watch loop
//      servers/       the network servers it starts: servers/a2a (A2A gateway), servers/mcp (MCP)
//      node/          the Node adapters: NodeVault (the vault port over fs), device state, reports
//    each of which may use actions, settings, router and core.
//
// Imports are read with a regular expression (static `import`/`export ... from`, side-effect
// imports, `import("...")`); type-only imports count too, since a cycle of types is still a cycle
// a reader must untangle. Exits 1 and lists every problem when there is one.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** What each layer may import (besides itself). */
export const ALLOWED = {
	core: [],
	router: ["core"],
	settings: ["core"],
	actions: ["core", "router", "settings"],
	obsidian: ["core", "router", "settings", "actions", "obsidian-api"],
	ui: ["core", "router", "settings", "actions", "obsidian", "obsidian-api"],
	commands: ["core", "router", "settings", "actions", "obsidian", "ui", "obsidian-api"],
	plugin: ["core", "router", "settings", "actions", "obsidian", "ui", "commands", "obsidian-api"],
	main: ["plugin", "obsidian-api"],
	"node-adapter": ["core", "router", "settings", "actions", "node"],
	servers: ["core", "router", "settings", "actions", "node", "node-adapter"],
	cli: ["core", "router", "settings", "actions", "node", "node-adapter", "servers"],
};

/** The layer of a repository-relative path (with `/`), or of an external module specifier. */
export function layerOf(file) {
	if (file === "main.ts") return "main";
	if (file === "src/settings.ts") return "settings";
	const match = /^src\/(core|router|actions|obsidian|ui|commands|plugin)\//.exec(file);
	if (match) return match[1];
	if (file.startsWith("cli/")) return "cli";
	if (file.startsWith("node/")) return "node-adapter";
	if (file.startsWith("servers/")) return "servers";
	return null;
}

function externalLayer(specifier) {
	if (specifier === "obsidian") return "obsidian-api";
	const bare = specifier.replace(/^node:/, "").split("/")[0];
	if (specifier.startsWith("node:") || builtinModules.includes(bare)) return "node";
	return "package";
}

/** The module specifiers a source text imports (comments removed first). */
export function importsOf(text) {
	const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
	const found = [];
	const patterns = [
		/\b(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\bfrom\s*["']([^"']+)["']/g,
		/\bimport\s*["']([^"']+)["']/g,
		/\bimport\(\s*["']([^"']+)["']\s*\)/g,
	];
	for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]);
	return found;
}

/**
 * Every cycle of a graph given as Map<node, Iterable<node>>, one per strongly connected component
 * of more than one node (or a node importing itself), each as a path that starts and ends with the
 * same node.
 */
export function findCycles(graph) {
	let counter = 0;
	const index = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const components = [];
	const edges = (node) => [...(graph.get(node) ?? [])];
	// Iterative Tarjan: the graph may be deep enough to overflow a recursive one.
	for (const start of graph.keys()) {
		if (index.has(start)) continue;
		const work = [{ node: start, next: 0 }];
		index.set(start, counter);
		low.set(start, counter++);
		stack.push(start);
		onStack.add(start);
		while (work.length > 0) {
			const frame = work[work.length - 1];
			const targets = edges(frame.node);
			if (frame.next < targets.length) {
				const target = targets[frame.next++];
				if (!index.has(target)) {
					index.set(target, counter);
					low.set(target, counter++);
					stack.push(target);
					onStack.add(target);
					work.push({ node: target, next: 0 });
				} else if (onStack.has(target)) {
					low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
				}
				continue;
			}
			work.pop();
			if (work.length > 0) {
				const parent = work[work.length - 1].node;
				low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
			}
			if (low.get(frame.node) === index.get(frame.node)) {
				const component = [];
				let member;
				do {
					member = stack.pop();
					onStack.delete(member);
					component.push(member);
				} while (member !== frame.node);
				const selfLoop = component.length === 1 && edges(frame.node).includes(frame.node);
				if (component.length > 1 || selfLoop) components.push(component);
			}
		}
	}
	return components.map((component) => cyclePath(graph, new Set(component)));
}

/** One cycle through a strongly connected component (breadth-first back to its first node). */
function cyclePath(graph, members) {
	const start = [...members].sort()[0];
	const previous = new Map();
	const queue = [start];
	while (queue.length > 0) {
		const node = queue.shift();
		for (const next of graph.get(node) ?? []) {
			if (!members.has(next)) continue;
			if (next === start) {
				const path = [start];
				for (let at = node; at !== start; at = previous.get(at)) path.unshift(at);
				path.unshift(start);
				return path;
			}
			if (!previous.has(next)) {
				previous.set(next, node);
				queue.push(next);
			}
		}
	}
	return [start, start];
}

/** Imports that go against ALLOWED: [{ from, to, fromLayer, toLayer }]. */
export function layerViolations(edges) {
	const problems = [];
	const seen = new Set();
	for (const { from, to, external } of edges) {
		if (seen.has(`${from}\n${to}`)) continue;
		seen.add(`${from}\n${to}`);
		const fromLayer = layerOf(from);
		if (fromLayer === null) continue;
		const toLayer = external ? externalLayer(to) : layerOf(to);
		// npm packages (yaml, uuid) are below every layer.
		if (toLayer === null || toLayer === fromLayer || toLayer === "package") continue;
		if (!ALLOWED[fromLayer].includes(toLayer)) problems.push({ from, to, fromLayer, toLayer });
	}
	return problems;
}

function sourceFiles(root) {
	const files = ["main.ts"];
	const walk = (dir) => {
		for (const name of readdirSync(join(root, dir))) {
			const rel = `${dir}/${name}`;
			if (statSync(join(root, rel)).isDirectory()) walk(rel);
			else if (/\.ts$/.test(name) && !name.endsWith(".d.ts")) files.push(rel);
		}
	};
	for (const dir of ["src", "node", "servers", "cli"]) if (existsSync(join(root, dir))) walk(dir);
	return files;
}

function resolveImport(root, from, specifier) {
	const base = resolve(root, dirname(from), specifier);
	for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate).split(sep).join("/");
	}
	return null;
}

/** The graph of the repository at `root`: { graph: Map<file, Set<file>>, edges, unresolved }. */
export function readGraph(root) {
	const graph = new Map();
	const edges = [];
	const unresolved = [];
	for (const file of sourceFiles(root)) {
		const targets = new Set();
		graph.set(file, targets);
		for (const specifier of importsOf(readFileSync(join(root, file), "utf8"))) {
			if (!specifier.startsWith(".")) {
				edges.push({ from: file, to: specifier, external: true });
				continue;
			}
			const target = resolveImport(root, file, specifier);
			if (target === null) unresolved.push(`${file}: ${specifier}`);
			else if (target.endsWith(".ts")) {
				targets.add(target);
				edges.push({ from: file, to: target, external: false });
			}
		}
	}
	return { graph, edges, unresolved };
}

function main() {
	const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
	const { graph, edges, unresolved } = readGraph(root);
	const cycles = findCycles(graph);
	const violations = layerViolations(edges);
	for (const cycle of cycles) console.log(`cycle: ${cycle.join(" -> ")}`);
	for (const v of violations) console.log(`upward import: ${v.from} (${v.fromLayer}) imports ${v.to} (${v.toLayer})`);
	for (const u of unresolved) console.log(`unresolved import: ${u}`);
	const problems = cycles.length + violations.length + unresolved.length;
	console.log(`${graph.size} modules, ${edges.length} imports: ${problems === 0 ? "no cycle, every import points down" : `${problems} problem(s)`}`);
	process.exitCode = problems === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
