import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { PROPERTY_TYPES } from "../../src/core/property-types";
import { a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { boot, lastNotice, run, settle } from "./commands-harness";
import type { Harness } from "./commands-harness";

// What init sets up besides the registry and the folders, from both front ends (the plugin's
// Create registry and group folders, `a2a init`): the types of A2A's properties in the config
// folder's types.json, merged so that a type the user set stays, and Agents.base over the agents
// folder and the extra agent folders of the settings. Each is read back from the files written.

let h: Harness | undefined;
let v: TempVault | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
	await v?.cleanup();
	v = undefined;
});

const ALL = Object.keys(PROPERTY_TYPES).length;
/** A types.json as a user's Obsidian has it: a type of their own for one of A2A's names, one for theirs. */
const USERS_TYPES = `${JSON.stringify({ types: { aliases: "aliases", Created: "date", rating: "number" } }, null, 2)}\n`;

function typesOf(text: string): Record<string, string> {
	return (JSON.parse(text) as { types: Record<string, string> }).types;
}

/** The folders Agents.base lists its notes from. */
function agentBaseFolders(text: string): string[] {
	return [...text.matchAll(/file\.inFolder\("([^"]*)"\)/g)].map((m) => m[1]);
}

describe("Create registry and group folders (the plugin)", () => {
	it("writes the property types into the config folder the vault names, and leaves the user's types as they are", async () => {
		h = await boot({ registry: false, settings: { extraAgentFolders: ["Runs", "Team/agents"] } });
		// A config folder other than .obsidian (Obsidian lets a device name its own).
		h.host.fakeApp.vault.configDir = ".my-config";
		await h.host.fakeApp.vault.adapter.mkdir(".my-config");
		await h.host.fakeApp.vault.adapter.write(".my-config/types.json", USERS_TYPES);
		run(h, "init-vault");
		await settle(h);
		const types = typesOf(await h.host.fakeApp.vault.adapter.read(".my-config/types.json"));
		expect(types).toMatchObject({ aliases: "aliases", Created: "date", rating: "number", hop_count: "number", delivered_at: "datetime", late: "checkbox", route: "multitext", message_id: "text" });
		expect(types, "created is the user's (Created: date), not added again").not.toHaveProperty("created");
		expect(Object.keys(types)).toHaveLength(ALL - 1 + 3);
		expect(await h.host.fakeApp.vault.adapter.exists(".obsidian/types.json")).toBe(false);
		expect(lastNotice(h)).toBe("A2A is ready: 5 groups can send each other messages (10-backend-group, 20-frontend-group, 30-devops-group, 40-security-group and 1 more), each with an inbox and an outbox. Two bases list the messages and the agents. Next: create an agent.");
		expect(agentBaseFolders(await h.host.read("A2A/Agents.base"))).toEqual(["A2A/agents", "Runs", "Team/agents"]);
		expect(parse(await h.host.read("A2A/Agents.base"))).toMatchObject({ filters: { and: [{ or: ['file.inFolder("A2A/agents")', 'file.inFolder("Runs")', 'file.inFolder("Team/agents")'] }, 'file.hasProperty("status")'] } });

		const before = await h.host.fakeApp.vault.adapter.read(".my-config/types.json");
		run(h, "init-vault");
		await settle(h);
		expect(await h.host.fakeApp.vault.adapter.read(".my-config/types.json")).toBe(before);
		expect(lastNotice(h)).toBe("A2A is already set up: nothing to create (5 groups).");
	});

	it("creates types.json when there is none, asks Obsidian's type manager to read it again, and leaves a file it cannot read alone", async () => {
		h = await boot({ registry: false });
		const reloads: string[] = [];
		const manager = { loadData: async () => void reloads.push(await h!.host.fakeApp.vault.adapter.read(".obsidian/types.json")) };
		(h.host.fakeApp as unknown as { metadataTypeManager: unknown }).metadataTypeManager = manager;
		run(h, "init-vault");
		await settle(h);
		const written = await h.host.fakeApp.vault.adapter.read(".obsidian/types.json");
		expect(typesOf(written)).toEqual(PROPERTY_TYPES);
		expect(reloads).toEqual([written]);
		run(h, "init-vault");
		await settle(h);
		expect(reloads, "nothing written, nothing to reload").toHaveLength(1);

		await h.host.fakeApp.vault.adapter.write(".obsidian/types.json", "{ half-written");
		run(h, "init-vault");
		await settle(h);
		expect(await h.host.fakeApp.vault.adapter.read(".obsidian/types.json")).toBe("{ half-written");
		expect(lastNotice(h)).toContain("Property types not set: types.json is not valid JSON.");
	});

	it("never overwrites an Agents.base the user has", async () => {
		h = await boot({ files: { "A2A/Agents.base": "my own base\n" }, settings: { extraAgentFolders: ["Runs"] } });
		run(h, "init-vault");
		await settle(h);
		expect(await h.host.read("A2A/Agents.base")).toBe("my own base\n");
	});
});

describe("a2a init", () => {
	it("in a vault Obsidian opened, adds the missing property types to .obsidian/types.json; a second init changes nothing", async () => {
		v = await makeTempVault();
		await v.write(".obsidian/types.json", USERS_TYPES);
		const first = await a2a(v.dir, "init");
		expect(first.code).toBe(0);
		expect(first.stdout).toContain(`set the types of ${ALL - 1} properties in .obsidian/types.json`);
		const written = await v.read(".obsidian/types.json");
		const types = typesOf(written);
		expect(types).toMatchObject({ Created: "date", rating: "number", expires_at: "datetime", progress_percent: "number", late: "checkbox", route: "multitext" });
		expect(types).not.toHaveProperty("created");

		const second = await a2a(v.dir, "init", "--json");
		expect(second.code).toBe(0);
		expect(second.json[0]).toMatchObject({ created: [], property_types: [] });
		expect(await v.read(".obsidian/types.json")).toBe(written);
		expect((await v.files(".obsidian")).filter((f) => f !== ".obsidian/types.json"), "no temporary file left").toEqual([]);
	});

	it("in a folder Obsidian never opened, makes no config folder", async () => {
		v = await makeTempVault();
		expect((await a2a(v.dir, "init")).code).toBe(0);
		expect(await v.exists(".obsidian")).toBe(false);
	});

	it("writes Agents.base over the extra agent folders of the plugin's settings", async () => {
		v = await makeTempVault();
		await v.write(".obsidian/plugins/a2a-relay/data.json", JSON.stringify({ extraAgentFolders: ["Runs", "Old runs: #1"] }));
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const base = parse(await v.read("A2A/Agents.base")) as { filters: { and: unknown[] } };
		expect(base.filters.and[0]).toEqual({ or: ['file.inFolder("A2A/agents")', 'file.inFolder("Runs")', 'file.inFolder("Old runs: #1")'] });
	});
});
