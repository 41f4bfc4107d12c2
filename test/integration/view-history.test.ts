// The agent status view on a vault with an archive (issue 29): it lists the agents and the latest
// decisions, never the archive. What a user sees is asserted on the DOM; beside it, a guard counts
// the work: the archived index entries the view is handed while it opens and filters, and the walks
// over every file of the vault. Its speed at 100,000 archived is measured by `npm run bench --
// --only=year-view`, never here.
import { afterEach, describe, expect, test, vi } from "vitest";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import type { IndexEntry, MessageIndex } from "../../src/core/message-index";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS } from "../../src/ui/agent-status-view";
import { historyFiles, registryText } from "../../test-support/bench-notes";
import { PLUGIN_DATA_PATH, benchVault } from "../../test-support/fixture-vault";
import { createTempHost, type TempHost } from "../../test-support/fake-obsidian/node-host";

const ARCHIVED = 600;
const AGENTS = 12;
const LOGGED = 30;

let host: TempHost | null = null;

afterEach(async () => {
	vi.restoreAllMocks();
	await host?.settled();
	await host?.cleanup();
	host = null;
});

/** The archived notes spread over three month folders of each archive, as the router files them. */
function archive(): Record<string, string> {
	const files: Record<string, string> = {};
	let i = 0;
	for (const [path, text] of Object.entries(historyFiles(ARCHIVED, 0))) {
		const slash = path.lastIndexOf("/");
		files[`${path.slice(0, slash)}/2026-${String(10 + (i++ % 3))}${path.slice(slash)}`] = text;
	}
	return files;
}

/** Today's routing log: the deliveries of the first archived requests, the latest last. */
function log(day: string): string {
	const rows = Array.from({ length: LOGGED }, (_, n) => `| 10:${String(n).padStart(2, "0")}:00 | delivered | old-${n} |  | g00-group -&gt; g01-group |  | [[old-${n}]] |`);
	return `# Routing log ${day}\n\n| Time | Outcome | Message | Trace | Route | Error | Note |\n| --- | --- | --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`;
}

/** Counts the archived entries each read of the index hands out (iterators as they are walked). */
function countArchivedReads(index: MessageIndex): { archived: number } {
	const seen = { archived: 0 };
	const note = (entry: IndexEntry | undefined) => {
		if (entry?.location.area === "box" && entry.location.box === "archive") seen.archived++;
	};
	const target = index as unknown as Record<string, (...args: unknown[]) => unknown>;
	for (const name of ["get", "withId", "inTrace", "repliesTo", "traceTimeline"]) {
		const original = target[name].bind(index);
		target[name] = (...args) => {
			const result = original(...args);
			for (const entry of Array.isArray(result) ? result : [result]) note(entry as IndexEntry | undefined);
			return result;
		};
	}
	for (const name of ["all", "inboxes", "deadLetters"]) {
		const original = target[name].bind(index);
		target[name] = (...args) =>
			(function* () {
				for (const entry of original(...args) as Iterable<IndexEntry>) {
					note(entry);
					yield entry;
				}
			})();
	}
	return seen;
}

describe("agent status view with an archive", () => {
	test("opening and filtering show the agents and the latest decisions, reading none of the archive beyond them", async () => {
		const day = new Date().toISOString().slice(0, 10);
		const files: Record<string, string> = { ...benchVault(AGENTS, Date.now()), "A2A/registry.yaml": registryText(), ...archive(), [`A2A/log/${day}.md`]: log(day) };
		// Shown before: the view opens by the command below, not by itself at the first start.
		files[PLUGIN_DATA_PATH] = JSON.stringify({ showNotices: false, viewShown: true });
		host = await createTempHost({ files, prefix: "a2a-view-history-" });
		const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
		await host.loadVault();
		await host.setLayoutReady();
		await plugin.parts.relay.whenIdle();
		await host.settled();
		expect(plugin.parts.relay.router.index.size).toBeGreaterThanOrEqual(ARCHIVED);

		const reads = countArchivedReads(plugin.parts.relay.router.index);
		const vault = host.app.vault;
		const walks = [vi.spyOn(vault, "getFiles"), vi.spyOn(vault, "getMarkdownFiles"), vi.spyOn(vault, "getAllLoadedFiles")];

		expect(host.executeCommand("a2a-relay:open-agent-status")).toBe(true);
		await host.settled();
		await plugin.parts.relay.whenIdle();
		await host.settled();
		const view = host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0]?.view;
		expect(view).toBeInstanceOf(AgentStatusView);
		const el = (view as AgentStatusView).contentEl;

		// Every agent has its row; the latest ten decisions are listed (five, then "Show 5 more"),
		// newest first, each with the message's state now: the archive says it was answered.
		// (The log is read after the view opens: its rows come with the next render.)
		expect(el.querySelectorAll(".a2a-agent-row")).toHaveLength(AGENTS);
		const decisions = () => Array.from(el.querySelectorAll<HTMLElement>(".a2a-recent-list .a2a-decision"));
		await vi.waitFor(() => expect(decisions()).toHaveLength(10), { timeout: 5000, interval: 5 });
		expect(decisions()[0].querySelector("a.a2a-note-link")?.getAttribute("data-message-id")).toBe(`old-${LOGGED - 1}`);
		expect(decisions().map((d) => d.querySelector(".a2a-outcome")?.textContent)).toEqual(Array(10).fill("answered"));
		expect(el.querySelector(".a2a-recent-list .a2a-show-more")?.textContent).toBe("Show 5 more");

		// A filter typed into the box shows only the matching agents.
		const box = el.querySelector<HTMLInputElement>("input.a2a-filter");
		if (!box) throw new Error("no filter box");
		box.value = "agent-0003";
		box.dispatchEvent(new Event("input"));
		await host.settled();
		const shown = Array.from(el.querySelectorAll<HTMLElement>(".a2a-agent-row")).filter((r) => !r.hasClass("a2a-hidden") && !r.closest(".a2a-agent-section")?.hasClass("a2a-hidden"));
		expect(shown.map((r) => r.dataset.agent)).toEqual(["agent-0003"]);

		// The work: of the 600 archived entries, the view was handed only those of the decisions it
		// lists (ten a render, and a slow machine may see its clock tick render once more), and no
		// list of every file in the vault was made. A walk over the archive hands out 600.
		expect(reads.archived).toBeLessThanOrEqual(30);
		expect(reads.archived).toBeGreaterThan(0);
		for (const walk of walks) expect(walk).not.toHaveBeenCalled();
	});
});
