// The page script of the browser test (bundled by esbuild for Chromium): the fake Obsidian over an
// in-memory disk, and the PRODUCTION main.js evaluated as the CommonJS module Obsidian loads, with
// a `require` that hands it the fake for "obsidian". It seeds a vault, loads the plugin, declares
// the layout ready and opens the agent status view by its command. Playwright then inspects the
// page and drives it through `window.a2a`.
//
// The vault: by default the test fixture (fixture-vault.ts, hostile strings included); with
// `?vault=demo` the demo vault after `npm run demo` (served by the runner as /demo-vault.json), for
// the README's screenshots; with `?bench=N` N similar agents.
import * as obsidian from "../../test-support/fake-obsidian/index";
import { installDomHelpers } from "../../test-support/fake-obsidian/dom-helpers";
import { FakeHost } from "../../test-support/fake-obsidian/host";
import { MemoryDisk } from "../../test-support/fake-obsidian/memory-disk";
import { historyFiles, registryText } from "../../test-support/bench-notes";
import type { ViewCostFigures } from "../../test-support/view-cost";
import { EXPECTED_AGENTS, XSS, benchVault, realisticVault } from "../../test-support/fixture-vault";
import type { ExpectedAgent } from "../../test-support/fixture-vault";
import "./page-ui";

interface RelayLike {
	parts: { relay: { whenIdle(): Promise<void>; router: { index: { size: number } } } };
}



type Batch = { all: boolean; paths: Set<string>; relay: boolean };

type PluginClass = new (app: never, manifest: never) => { load(): void; unload(): void };

export interface PageApi {
	host: FakeHost;
	/** Waits until the vault, the cache, the relay and the view's pending render are done. */
	settle(): Promise<void>;
	/** processFrontMatter on a note; resolves when written (the view follows on its own). */
	setFrontmatter(path: string, fields: Record<string, unknown>): Promise<void>;
	/** A write by another process (the watcher notices it). */
	externalWrite(path: string, text: string): Promise<void>;
	openView(): Promise<void>;
	errors(): string[];
}

declare global {
	interface Window {
		a2a: PageApi;
		a2aReady: Promise<string>;
		a2aExpected: { agents: ExpectedAgent[]; xss: string };
		/** With `?bench=N`: times the view's full render of N agents and single-agent updates. */
		a2aBench(updates: number): Promise<ViewCostFigures>;
	}
}

installDomHelpers(window);
window.a2aExpected = { agents: EXPECTED_AGENTS, xss: XSS };

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function loadCommonJs(source: string): PluginClass {
	const module: { exports: Record<string, unknown> } = { exports: {} };
	const requireShim = (name: string): unknown => {
		if (name === "obsidian") return obsidian;
		throw new Error(`main.js asked for "${name}": only "obsidian" exists in Obsidian's plugin sandbox`);
	};
	// The way Obsidian runs a plugin: the bundle's text as a function of module, exports and require.
	const run = new Function("module", "exports", "require", source) as (m: unknown, e: unknown, r: unknown) => void;
	run(module, module.exports, requireShim);
	const exported = (module.exports.default ?? module.exports) as unknown;
	if (typeof exported !== "function") throw new Error("main.js does not export a plugin class");
	return exported as PluginClass;
}

async function start(): Promise<string> {
	const [source, manifest] = await Promise.all([fetch("/main.js").then((r) => r.text()), fetch("/manifest.json").then((r) => r.json())]);
	const PluginCtor = loadCommonJs(source);
	const params = new URLSearchParams(location.search);
	const benchSize = Number(params.get("bench") ?? 0);
	const history = Number(params.get("history") ?? 0);
	// `?vault=empty`: a vault with one note and no A2A folder, as a newcomer has it.
	const files =
		params.get("vault") === "empty"
			? { "Welcome.md": "# Welcome\n" }
			: params.get("vault") === "demo"
			? ((await fetch("/demo-vault.json").then((r) => r.json())) as Record<string, string>)
			: benchSize > 0
				? { ...benchVault(benchSize, Date.now()), ...(history > 0 ? { "A2A/registry.yaml": registryText(), ...historyFiles(history, 0) } : {}) }
				: realisticVault(Date.now());
	const disk = new MemoryDisk(params.get("vault") === "demo" ? "demo" : "Browser test vault", files);
	const host = new FakeHost({ disk, logErrors: true });
	const plugin = (await host.loadPlugin(PluginCtor, manifest)) as unknown as RelayLike;
	await host.loadVault();
	await host.setLayoutReady();

	const settle = async (): Promise<void> => {
		await host.settled();
		await plugin.parts.relay.whenIdle();
		await host.settled();
		// The view coalesces changes for about a frame before it renders.
		await new Promise((resolve) => window.setTimeout(resolve, 40));
	};
	await settle();

	window.a2a = {
		host,
		settle,
		async setFrontmatter(path, fields) {
			const file = host.file(path) as unknown as obsidian.TFile;
			await host.fakeApp.fileManager.processFrontMatter(file, (fm) => Object.assign(fm, fields));
		},
		async externalWrite(path, text) {
			await host.externalWrite(path, text);
		},
		async openView() {
			if (!host.executeCommand("a2a-relay:open-agent-status")) throw new Error("the open-agent-status command is not available");
			await settle();
		},
		errors() {
			return host.errors.map((e) => `${e.source}: ${String((e.error as Error)?.stack ?? e.error)}`);
		},
	};
	await window.a2a.openView();
	window.a2aBench = async (updates) => {
		const leaf = host.app.workspace.getLeavesOfType("a2a-agent-status")[0];
		// The view's render step, what its batcher runs once per frame (a private method of main.js).
		const view = leaf.view as unknown as { contentEl: HTMLElement; render(batch: Batch): void };
		const rows = () => Array.from(view.contentEl.querySelectorAll(".a2a-agent-row"));
		const full: number[] = [];
		for (let run = 0; run < 5; run++) {
			const t0 = performance.now();
			view.render({ all: true, paths: new Set(), relay: false });
			full.push(performance.now() - t0);
		}
		// The filter box, as a person types into it: each query applied at once, then cleared.
		const box = view.contentEl.querySelector<HTMLInputElement>("input.a2a-filter");
		if (!box) throw new Error("the view has no filter box");
		const filters: number[] = [];
		for (const query of ["agent-01", "status:running", "Worker 7", "agent-0999", ""]) {
			const t0 = performance.now();
			box.value = query;
			box.dispatchEvent(new Event("input"));
			filters.push(performance.now() - t0);
		}
		// Hidden while the notes change, so only the timed render below renders them.
		host.setLeafVisible(leaf, false);
		await settle();
		const before = rows();
		const paths = before.map((r) => r.getAttribute("data-path") ?? "");
		// Every note changes first; then each change is rendered on its own, back to back, and the
		// total is divided (the browser's clock is too coarse to time one sub-millisecond render).
		const changed: string[] = [];
		for (let u = 0; u < updates; u++) {
			const path = paths[(u * 37) % paths.length];
			if (changed.includes(path)) continue;
			await window.a2a.setFrontmatter(path, { progress_percent: (u * 7) % 101, last_action: `Update ${u}` });
			changed.push(path);
		}
		await host.settled();
		const t0 = performance.now();
		for (const path of changed) view.render({ all: false, paths: new Set([path]), relay: false });
		const updateMs = (performance.now() - t0) / changed.length;
		host.setLeafVisible(leaf, true);
		const after = new Set(rows());
		return {
			rows: before.length,
			indexed: plugin.parts.relay.router.index.size,
			fullMs: Math.min(...full),
			filterMs: median(filters.slice(0, -1)),
			updateMs,
			otherRowsReplaced: before.filter((r) => !after.has(r)).length,
		};
	};
	return "ok";
}

window.a2aReady = start().catch((error: unknown) => `failed: ${(error as Error)?.stack ?? String(error)}`);
