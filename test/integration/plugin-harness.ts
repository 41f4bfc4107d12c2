import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { createTempHost } from "../../test-support/fake-obsidian/node-host";
import type { TempHost } from "../../test-support/fake-obsidian/node-host";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { SecretApprovals } from "../../src/obsidian/secret-approvals";

// Boots the real plugin class on the fake Obsidian over a real temp folder, and waits for the relay
// to finish what vault events started.

export interface Booted {
	host: TempHost;
	plugin: A2ARelayPlugin;
	/** Waits until the fake has no work in flight and the relay has routed everything. */
	quiet(): Promise<void>;
	frontmatter(path: string): Promise<Record<string, unknown>>;
	body(path: string): Promise<string>;
	files(under: string): string[];
}

export async function bootPlugin(files: Record<string, string> = {}, options: { layoutReady?: boolean; secrets?: Record<string, string>; approved?: Record<string, string> } = {}): Promise<Booted> {
	// Notes written by a test are a moment old: without a grace period the router takes them at once
	// (the tests of the grace period set it).
	const host = await createTempHost({ files: { ".obsidian/plugins/a2a-relay/data.json": JSON.stringify({ graceSeconds: 0 }), ...files } });
	// Secrets live in Obsidian's secret storage on the device, never in the vault.
	for (const [id, value] of Object.entries(options.secrets ?? {})) host.fakeApp.secretStorage.setSecret(id, value);
	// What the user chose in the Groups settings on this device: each secret for one address.
	const approvals = new SecretApprovals(host.app);
	for (const [id, url] of Object.entries(options.approved ?? {})) approvals.approve(id, url);
	const plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	await host.loadVault();
	if (options.layoutReady !== false) await host.setLayoutReady();
	const quiet = async () => {
		for (let i = 0; i < 3; i++) {
			await host.settled();
			await plugin.parts.relay.whenIdle();
		}
		await host.settled();
	};
	await quiet();
	return {
		host,
		plugin,
		quiet,
		frontmatter: async (path) => readFrontmatter(await host.read(path)) ?? {},
		body: async (path) => splitNote(await host.read(path)).body,
		files: (under) =>
			host.app.vault
				.getFiles()
				.map((f) => f.path)
				.filter((p) => p.startsWith(`${under}/`))
				.sort(),
	};
}
