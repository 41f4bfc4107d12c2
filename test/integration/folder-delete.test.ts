import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { TFolder } from "obsidian";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { TempHost } from "../../test-support/fake-obsidian/node-host";
import { BOX, REGISTRY, requestNote } from "../helpers/temp-vault";

// A folder deleted in Obsidian takes its notes out of the index, as a cold read of the vault would:
// the registry is read again (a folder event may be a group's), and the paths of the notes deleted
// with the folder are brought up to date too. A request that reuses a deleted archived note's id is
// then delivered, not refused as a duplicate.

const SOURCE = "10-backend-group";
const TARGET = "20-frontend-group";
const MONTH = `${BOX(TARGET, "archive")}/2026-10`;
const DAY_AGO = Date.now() - 86_400_000;

const dirs: string[] = [];
const hosts: TempHost[] = [];
afterEach(async () => {
	for (const host of hosts.splice(0)) await host.dispose();
	await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function writeAt(dir: string, rel: string, text: string, mtime: number): Promise<void> {
	const file = path.join(dir, ...rel.split("/"));
	await fs.mkdir(path.dirname(file), { recursive: true });
	await fs.writeFile(file, text);
	await fs.utimes(file, new Date(mtime), new Date(mtime));
}

describe("a history folder deleted while the plugin runs", () => {
	it("leaves no entry of its notes behind: a request reusing a deleted note's id is delivered, as a cold read would", async () => {
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-review-folder-"));
		dirs.push(dir);
		await writeAt(dir, "A2A/registry.yaml", REGISTRY, DAY_AGO);
		await writeAt(dir, ".obsidian/plugins/a2a-relay/data.json", JSON.stringify({ graceSeconds: 0 }), DAY_AGO);
		await writeAt(dir, `${MONTH}/old.md`, requestNote({ message_id: "old-1", source_group: SOURCE, target_group: TARGET, state: "answered", route: [SOURCE, TARGET], delivered_at: "2026-10-01T10:00:00Z" }), DAY_AGO);
		const host = new TempHost(dir);
		hosts.push(host);
		const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
		await host.loadVault();
		await host.setLayoutReady();
		const idle = async () => {
			for (let i = 0; i < 3; i++) {
				await host.settled();
				await plugin.parts.relay.whenIdle();
			}
		};
		await idle();
		expect(plugin.parts.relay.router.index.withId("old-1").length).toBe(1);

		// The person deletes the old month folder in Obsidian.
		await host.app.vault.delete(host.app.vault.getAbstractFileByPath(MONTH) as TFolder, true);
		await idle();

		await host.app.vault.create(`${BOX(SOURCE, "outbox")}/again.md`, requestNote({ message_id: "old-1", trace_id: "b1b2c3d4-e5f6-7890-abcd-ef1234567890", source_group: SOURCE, target_group: TARGET }));
		await idle();
		const outcomes = plugin.parts.relay.recent.filter((d) => d.message_id === "old-1").map((d) => d.outcome);
		expect(outcomes).toEqual(["delivered"]);
		expect(plugin.parts.relay.router.index.withId("old-1").map((e) => e.path).filter((p) => p.startsWith(MONTH))).toEqual([]);
	}, 60_000);
});
