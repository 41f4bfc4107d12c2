import { afterEach, describe, expect, it } from "vitest";
import { a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The registry as a note (issue 14): `registry.md`, which every sync service carries, where a
// `.yaml` file is carried by Obsidian Sync only with "Sync other file types" on.

const vaults: TempVault[] = [];
afterEach(async () => {
	await Promise.all(vaults.splice(0).map((v) => v.cleanup()));
});
async function tempVault(): Promise<TempVault> {
	const v = await makeTempVault("a2a-registry-note-");
	vaults.push(v);
	return v;
}

describe("the registry as a note", () => {
	it("a2a init --registry-note writes registry.md and no .yaml; the router routes by it, and a2a status has nothing to warn about", async () => {
		const v = await tempVault();
		const init = await a2a(v.dir, "init", "--registry-note");
		expect(init.code).toBe(0);
		expect(init.stdout).toContain("created A2A/registry.md");
		expect(await v.exists("A2A/registry.yaml")).toBe(false);
		expect(await v.frontmatter("A2A/registry.md")).toHaveProperty("groups");
		const sent = await a2a(v.dir, "send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "Which fields?", "--json");
		expect(sent.code).toBe(0);
		const routed = await a2a(v.dir, "route", "--json");
		expect(routed.json).toMatchObject([{ outcome: "delivered", message_id: sent.json[0].message_id }]);
		const status = await a2a(v.dir, "status");
		expect(status.code).toBe(0);
		expect([...status.stdout, ...status.stderr].join("\n")).not.toContain("is a .yaml file");
	});

	it("with registry.yaml in a vault Obsidian Sync carries, a2a status says Sync may not carry it and names the note to use instead", async () => {
		const v = await tempVault();
		expect((await a2a(v.dir, "init")).code).toBe(0);
		for (const corePlugins of ['["file-explorer", "sync"]', '{"file-explorer": true, "sync": true}']) {
			await v.write(".obsidian/core-plugins.json", corePlugins);
			const status = await a2a(v.dir, "status");
			expect(status.code).toBe(0);
			expect([...status.stdout, ...status.stderr].join("\n")).toContain('A2A/registry.yaml is a .yaml file: Obsidian Sync carries it only with "Sync other file types" on; the note A2A/registry.md');
		}
	});

	it("with registry.yaml in a vault no sync service is known to carry (no Sync core plugin on), a2a status does not warn about the file init wrote", async () => {
		const v = await tempVault();
		expect((await a2a(v.dir, "init")).code).toBe(0);
		const plain = await a2a(v.dir, "status");
		expect(plain.code).toBe(0);
		expect([...plain.stdout, ...plain.stderr].join("\n")).not.toContain("is a .yaml file");
		await v.write(".obsidian/core-plugins.json", '{"file-explorer": true, "sync": false}');
		const syncOff = await a2a(v.dir, "status", "--json");
		expect(syncOff.json.find((row) => row.type === "summary")).toMatchObject({ registry_warnings: [] });
	});

	it("with both, registry.yaml is used and the router says to delete the one not meant", async () => {
		const v = await tempVault();
		expect((await a2a(v.dir, "init")).code).toBe(0);
		await v.write("A2A/registry.md", "---\ngroups:\n  99-other-group: {}\n---\n");
		const status = await a2a(v.dir, "status");
		expect([...status.stdout, ...status.stderr].join("\n")).toContain("both A2A/registry.yaml and A2A/registry.md exist: A2A/registry.yaml is used");
	});
});
