import { afterEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";

// The review "Trust the post office" (issue 10), the items the plugin broke: drafts taken away
// (item 11), values rewritten on delivery (item 12), phantom agents (item 16).

const A = "10-backend-group";
const B = "20-frontend-group";
const OUT = BOX(A, "outbox");
const IN = BOX(B, "inbox");

let b: Booted | undefined;
afterEach(async () => {
	await b?.host.cleanup();
	b = undefined;
});

describe("item 11: drafts are not taken away", () => {
	it("Obsidian's New note in an outbox (empty) is never routed, however long it stays", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.plugin.parts.settings.update({ graceSeconds: 1 });
		await b.host.app.vault.create(`${OUT}/Untitled.md`, "");
		await b.quiet();
		await new Promise((r) => setTimeout(r, 1600));
		await b.plugin.parts.relay.routeNow();
		await b.quiet();
		expect(await b.host.read(`${OUT}/Untitled.md`)).toBe("");
		expect(b.files("A2A/dead-letter")).toEqual([]);
	});

	it("a half-typed note open in an editor waits while it changes; once complete and quiet it is delivered", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.plugin.parts.settings.update({ graceSeconds: 1 });
		const file = await b.host.app.vault.create(`${OUT}/draft.md`, "---\nsource_group: 10-backend-group\ntarget_group: 20-frontend-group\n---\n");
		await b.host.app.workspace.getLeaf(true).openFile(file);
		await b.quiet();
		expect(b.files("A2A/dead-letter")).toEqual([]);
		expect(await b.host.exists(`${OUT}/draft.md`)).toBe(true);
		// The person finishes typing: a complete request, still open in the editor.
		await b.host.app.vault.modify(file, requestNote({ message_id: "draft-1" }));
		await b.quiet();
		expect(await b.host.exists(`${OUT}/draft.md`), "left alone while it was just edited").toBe(true);
		await new Promise((r) => setTimeout(r, 1800));
		await b.quiet();
		expect(b.files(IN)).toEqual([`${IN}/draft.md`]);
		expect(await b.frontmatter(`${IN}/draft.md`)).toMatchObject({ message_id: "draft-1", state: "delivered" });
		expect(b.files("A2A/dead-letter")).toEqual([]);
	});
});

describe("item 12: values survive delivery inside Obsidian", () => {
	it("the plugin and the CLI deliver byte-identical notes from the same input, big integers, 1.10 and 0o755 included", async () => {
		const note = `---\nmessage_id: values-1\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nhop_count: 0\nsource_group: ${A}\ntarget_group: ${B}\nrequest_type: query\nbig: 12345678901234567890\nversion: 1.10\nmode: 0o755\nratio: 1e3\ntags: [a, b] # kept as written\n---\n\n## Question\n\nWhich values survive?\n`;
		// The same clock for both routers: then even the router's times are the same.
		const now = Date.parse("2026-06-01T12:00:00.000Z");
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, [`${OUT}/values.md`]: note });
		await b.quiet();
		const inPlugin = await b.host.read(`${IN}/values.md`);
		const v = await makeTempVault("a2a-values-");
		try {
			await v.write("A2A/registry.yaml", REGISTRY);
			await v.write(`${OUT}/values.md`, note);
			const router = new Router(new NodeVault(v.dir), { clock: () => now });
			await router.loadRegistry();
			await router.pass();
			const inCli = await v.read(`${IN}/values.md`);
			const times = /^(delivered_at|expires_at|created): .*$/gm;
			expect(inPlugin.replace(times, "$1: T")).toBe(inCli.replace(times, "$1: T"));
			for (const line of ["big: 12345678901234567890", "version: 1.10", "mode: 0o755", "ratio: 1e3", "tags: [a, b] # kept as written"]) expect(inPlugin).toContain(`\n${line}\n`);
		} finally {
			await v.cleanup();
		}
	});
});

describe("item 16: phantom agents", () => {
	it("a group folder inside the agents folder is refused by the registry: nothing is delivered there, no message becomes an agent", async () => {
		const registry = `${REGISTRY}  50-agents-group:\n    folder: A2A/agents/team\n`;
		b = await bootPlugin({ "A2A/registry.yaml": registry, "A2A/agents/alpha.md": "---\nstatus: active\n---\n", [`${OUT}/ask.md`]: requestNote({ message_id: "pa-1", target_group: "50-agents-group" }) });
		await b.quiet();
		expect(b.files("A2A/agents/team/inbox")).toEqual([]);
		expect(b.plugin.parts.relay.router.registry.errors.map((e) => e.message).join("\n")).toContain('folder "A2A/agents/team" overlaps the agents folder A2A/agents');
		expect(b.plugin.parts.agents.all().map((a) => a.name)).toEqual(["alpha"]);
		// And the CLI agrees.
		const status = await a2a(b.host.dir, "status", "--json");
		expect(status.json.filter((l) => l.type === "agent").map((l) => l.name)).toEqual(["alpha"]);
	});
});
