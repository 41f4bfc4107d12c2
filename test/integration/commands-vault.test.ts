import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { leaseNoteText } from "../../src/core/lease";
import { BACKEND, DEVOPS, FRONTEND, boot, box, filesIn, lastNotice, requestNote, run, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

const GROUPS = [BACKEND, FRONTEND, DEVOPS, "40-security-group", "a2a-gateway"];

describe("init-vault", () => {
	it("creates registry.yaml and every folder of the layout, then says there is nothing left to create", async () => {
		h = await boot({ registry: false });
		expect(h.parts.relay.router.layout.groupIds()).toEqual([]);
		expect(run(h, "init-vault")).toBe(true);
		await settle(h);
		expect(await h.host.read("A2A/registry.yaml")).toBe(EXAMPLE_REGISTRY);
		for (const folder of ["A2A/agents", "A2A/dead-letter", "A2A/log", ...GROUPS.flatMap((g) => ["inbox", "outbox", "archive"].map((b) => box(g, b as "inbox")))]) {
			expect(h.host.fakeApp.vault.getFolderByPath(folder), folder).not.toBeNull();
		}
		expect(lastNotice(h)).toBe("A2A is ready: 5 groups can send each other messages (10-backend-group, 20-frontend-group, 30-devops-group, 40-security-group and 1 more), each with an inbox and an outbox. Two bases list the messages and the agents. Next: create an agent.");
		// the relay reads the new registry: composing becomes possible
		await waitFor("the registry in the relay", () => h?.parts.relay.router.layout.groupIds().length === 5);
		expect(await h.host.read("A2A/Messages.base")).toContain("name: In flight");
		expect(await h.host.read("A2A/Agents.base")).toContain("name: By status");

		run(h, "init-vault");
		await settle(h);
		expect(lastNotice(h)).toBe("A2A is already set up: nothing to create (5 groups).");
	});

	it("never overwrites an existing registry: it adds only the gateway group an older one lacks, and the missing folders of its groups", async () => {
		const registry = "groups:\n  alpha:\n    description: Mine\n  beta:\n    folder: teams/beta\n";
		// The default grace period: a note just put in an inbox by hand is left a few seconds before the router takes it out.
		h = await boot({ registry, settings: { graceSeconds: 5 }, files: { "A2A/groups/alpha/inbox/keep.md": "kept\n" } });
		run(h, "init-vault");
		await settle(h);
		expect(await h.host.read("A2A/registry.yaml")).toBe(`${registry}  a2a-gateway:\n    description: Sends the requests of outside A2A clients (a2a serve)\n    gateway: true\n`);
		expect(await h.host.read("A2A/groups/alpha/inbox/keep.md")).toBe("kept\n");
		for (const folder of ["A2A/groups/a2a-gateway/outbox", "A2A/groups/alpha/outbox", "A2A/groups/alpha/archive", "teams/beta/inbox", "teams/beta/outbox", "teams/beta/archive", "A2A/agents", "A2A/dead-letter", "A2A/log"]) {
			expect(await h.host.exists(folder), folder).toBe(true);
		}
		expect(lastNotice(h)).toBe("Added the missing folders in A2A (3 groups). Two bases list the messages and the agents. Added the gateway group a2a-gateway to the registry (A2A clients' requests come from it).");
	});

	it("names registry problems in its notice", async () => {
		h = await boot({ registry: "groups:\n  good: {}\n  'bad id!': {}\n" });
		run(h, "init-vault");
		await settle(h);
		expect(lastNotice(h)).toContain("The registry has problems: groups.bad id!");
	});
});

describe("route-now", () => {
	it("routes every pending note and says what it did", async () => {
		h = await boot({ settings: { autoRoute: false } });
		await h.parts.settings.update({ autoRoute: false });
		for (const [name, draft] of Object.entries({ a: { from: BACKEND, to: FRONTEND }, b: { from: DEVOPS, to: FRONTEND }, c: { from: BACKEND, to: "99-nowhere" } })) {
			await h.host.fakeApp.vault.create(`${box(draft.from, "outbox")}/${name}.md`, requestNote(draft).text);
		}
		await settle(h);
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toEqual([]);
		expect(run(h, "route-now")).toBe(true);
		await settle(h);
		expect(lastNotice(h)).toBe("Routed 3 messages: 2 delivered, 1 rejected.");
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toEqual(["a.md", "b.md"]);
		run(h, "route-now");
		await settle(h);
		expect(lastNotice(h)).toBe("Nothing to route.");
	});

	it("says which device routes when another one holds the lease", async () => {
		h = await boot();
		const now = new Date().toISOString();
		const lease = leaseNoteText({ device: "cli@build-server", name: "a2a route --watch on build-server", since: now, renewed: now, renewal: 7, yields: false, released: false });
		await h.host.fakeApp.vault.adapter.write("A2A/router.md", lease);
		run(h, "route-now");
		await settle(h);
		expect(lastNotice(h)).toBe(`Not routing on this device: a2a route --watch on build-server routes this vault (last renewal ${now}).`);
	});

	it("says when there is no registry", async () => {
		h = await boot({ registry: false });
		run(h, "route-now");
		await settle(h);
		expect(lastNotice(h)).toContain("Nothing routed: the registry is missing or unreadable");
	});
});
