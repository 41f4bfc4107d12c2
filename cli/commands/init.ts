import { initVault } from "../../src/actions/init-vault";
import { describeRegistryError } from "../../src/core/registry";
import type { ParsedArgs } from "../args";
import { createVaultFolderIfMissing, openSession } from "../session";
import type { Session } from "../session";

export const INIT_HELP = `Usage: a2a init [--registry-note] [--vault DIR] [--root NAME] [--json]

Creates the vault folder DIR when it does not exist; <root>/registry.yaml (with the example groups
of the A2A Communicator) when it is absent; the inbox, outbox and archive folders of every registry
group, plus agents/, dead-letter/ and log/; and Messages.base and Agents.base for Obsidian's Bases
plugin. Never overwrites anything that exists.
--registry-note  writes the registry as the note <root>/registry.md (its frontmatter) instead of
                 registry.yaml: every sync service carries a note, while Obsidian Sync carries a
                 .yaml file only with "Sync other file types" on.`;

export async function runInit(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const vaultCreated = await createVaultFolderIfMissing(args);
	const session = await openSession(args, io);
	// The same plan as the plugin's Initialize A2A vault (src/actions/init-vault.ts).
	const result = await initVault(session.vault, session.root, { registryNote: args.booleans.has("registry-note") });
	const { registry, layout } = result;
	const created = [...(result.registryCreated ? [result.registryPath] : []), ...result.folders, ...result.bases];
	for (const error of registry.errors) io.err(`registry error: ${describeRegistryError(error)}`);
	if (session.json) io.out(JSON.stringify({ vault: session.vault.dir, vault_created: vaultCreated, created, groups: layout.groupIds(), registry_errors: registry.errors.length }));
	else {
		if (vaultCreated) io.out(`created folder ${session.vault.dir}`);
		for (const item of created) io.out(`created ${item}`);
		io.out(created.length === 0 ? "Nothing to do: the vault is already set up." : `Ready: ${layout.groupIds().length} groups in ${result.registryPath}.`);
		if (result.registryCreated && result.registryPath.endsWith(".yaml")) {
			io.out("Tip: if Obsidian Sync carries this vault, `a2a init --registry-note` writes the registry as a note, which every sync service carries.");
		}
	}
	return registry.usable && registry.errors.length === 0 ? 0 : 2;
}
