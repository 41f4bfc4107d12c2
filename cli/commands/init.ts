import { promises as fs } from "node:fs";
import * as path from "node:path";
import { terminalText } from "../../src/core/terminal-text";
import { initVault } from "../../src/actions/init-vault";
import type { ConfigFile, InitResult } from "../../src/actions/init-vault";
import { PROPERTY_TYPES_FILE } from "../../src/core/property-types";
import { describeRegistryError, gatewayGroup } from "../../src/core/registry";
import type { ParsedArgs } from "../args";
import { readConfigText, writeWhole } from "../../node/file-ops";
import { CONFIG_FOLDER, readPluginSettings } from "../../node/plugin-settings";
import { createVaultFolderIfMissing, openSession, vaultFolderToCreate } from "../session";
import type { Session } from "../session";

export const INIT_HELP = `Usage: a2a init [--registry-note] [--vault DIR] [--root NAME] [--json]

Creates the vault folder when it does not exist (--vault DIR, else $A2A_VAULT, else the vault the
current folder is in, else the current folder); <root>/registry.yaml (with the example groups of
the A2A Communicator and the gateway group a2a-gateway) when it is absent, and in an existing
registry without a gateway group, that group (nothing else in the registry changes); the inbox, outbox and archive folders of every registry
group, plus agents/, dead-letter/ and log/; and Messages.base and Agents.base for Obsidian's Bases
plugin (Agents.base lists the extra agent folders of the plugin's settings too). In a vault Obsidian
has opened (it has .obsidian/), it adds the types of A2A's properties to .obsidian/types.json,
leaving every type already there as it is. Never overwrites anything that exists.
--registry-note  writes the registry as the note <root>/registry.md (its frontmatter) instead of
                 registry.yaml: every sync service carries a note, while Obsidian Sync carries a
                 .yaml file only with "Sync other file types" on.`;

/**
 * types.json of the vault's config folder, or null when the vault has none (a folder Obsidian never
 * opened gets no config folder from init). Written to a temporary file, then renamed over it.
 */
async function propertyTypesFile(vaultDir: string): Promise<ConfigFile | null> {
	const folder = path.join(vaultDir, CONFIG_FOLDER);
	const isFolder = await fs.stat(folder).then((s) => s.isDirectory(), () => false);
	if (!isFolder) return null;
	const file = path.join(folder, PROPERTY_TYPES_FILE);
	return {
		path: `${CONFIG_FOLDER}/${PROPERTY_TYPES_FILE}`,
		read: () => readConfigText(file),
		write: async (text) => writeWhole(file, text),
	};
}

/** `Ready: 4 groups and the gateway group a2a-gateway in A2A/registry.yaml.` */
function readyLine(result: InitResult): string {
	const gateway = gatewayGroup(result.registry);
	const ids = result.layout.groupIds();
	const groups = ids.filter((id) => id !== gateway);
	return `Ready: ${groups.length} ${groups.length === 1 ? "group" : "groups"}${ids.includes(gateway) ? ` and the gateway group ${gateway}` : ""} in ${result.registryPath}.`;
}

export async function runInit(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const choice = vaultFolderToCreate(args);
	const vaultCreated = await createVaultFolderIfMissing(choice);
	const session = await openSession(args, io, {}, choice);
	const { extraAgentFolders } = await readPluginSettings(session.vault.dir);
	const propertyTypes = await propertyTypesFile(session.vault.dir);
	// The same plan as the plugin's Create registry and group folders (src/actions/init-vault.ts).
	const result = await initVault(session.vault, session.root, { registryNote: args.booleans.has("registry-note"), extraAgentFolders, propertyTypes });
	const { registry, layout } = result;
	const created = [...(result.registryCreated ? [result.registryPath] : []), ...result.folders, ...result.bases];
	const added = result.groupsAdded.map((id) => `added the gateway group ${id} to ${result.registryPath} (a2a serve writes outside A2A clients' requests from it; nothing else in the registry changed)`);
	for (const error of registry.errors) io.err(terminalText(`registry error: ${describeRegistryError(error)}`));
	if (result.propertyTypesProblem) io.err(`property types not set: ${result.propertyTypesProblem} (${propertyTypes?.path})`);
	const typesSet = result.propertyTypes.length > 0 ? propertyTypes?.path : undefined;
	if (session.json) io.out(JSON.stringify({ vault: session.vault.dir, vault_created: vaultCreated, created, groups_added: result.groupsAdded, property_types: result.propertyTypes, groups: layout.groupIds(), registry_errors: registry.errors.length }));
	else {
		if (vaultCreated) io.out(`created folder ${session.vault.dir}`);
		for (const line of added) io.out(line);
		for (const item of created) io.out(`created ${item}`);
		if (typesSet) io.out(`set the types of ${result.propertyTypes.length} properties in ${typesSet}`);
		io.out(created.length === 0 && added.length === 0 && !typesSet ? terminalText(`Nothing to do: the vault ${session.vault.dir} is already set up.`) : readyLine(result));
		if (result.registryCreated && result.registryPath.endsWith(".yaml")) {
			io.out("Tip: if Obsidian Sync carries this vault, `a2a init --registry-note` writes the registry as a note, which every sync service carries.");
		}
	}
	return registry.usable && registry.errors.length === 0 ? 0 : 2;
}
