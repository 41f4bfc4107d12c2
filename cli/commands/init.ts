import { promises as fs } from "node:fs";
import * as path from "node:path";
import { terminalText } from "../../src/core/terminal-text";
import { initVault } from "../../src/actions/init-vault";
import type { ConfigFile } from "../../src/actions/init-vault";
import { PROPERTY_TYPES_FILE } from "../../src/core/property-types";
import { describeRegistryError } from "../../src/core/registry";
import type { ParsedArgs } from "../args";
import { writeWhole } from "../../node/file-ops";
import { CONFIG_FOLDER, readPluginSettings } from "../../node/plugin-settings";
import { createVaultFolderIfMissing, openSession } from "../session";
import type { Session } from "../session";

export const INIT_HELP = `Usage: a2a init [--registry-note] [--vault DIR] [--root NAME] [--json]

Creates the vault folder DIR when it does not exist; <root>/registry.yaml (with the example groups
of the A2A Communicator) when it is absent; the inbox, outbox and archive folders of every registry
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
		read: () => fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : Promise.reject(error))),
		write: async (text) => writeWhole(file, text),
	};
}

export async function runInit(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const vaultCreated = await createVaultFolderIfMissing(args);
	const session = await openSession(args, io);
	const { extraAgentFolders } = await readPluginSettings(session.vault.dir);
	const propertyTypes = await propertyTypesFile(session.vault.dir);
	// The same plan as the plugin's Create registry and group folders (src/actions/init-vault.ts).
	const result = await initVault(session.vault, session.root, { registryNote: args.booleans.has("registry-note"), extraAgentFolders, propertyTypes });
	const { registry, layout } = result;
	const created = [...(result.registryCreated ? [result.registryPath] : []), ...result.folders, ...result.bases];
	for (const error of registry.errors) io.err(terminalText(`registry error: ${describeRegistryError(error)}`));
	if (result.propertyTypesProblem) io.err(`property types not set: ${result.propertyTypesProblem} (${propertyTypes?.path})`);
	const typesSet = result.propertyTypes.length > 0 ? propertyTypes?.path : undefined;
	if (session.json) io.out(JSON.stringify({ vault: session.vault.dir, vault_created: vaultCreated, created, property_types: result.propertyTypes, groups: layout.groupIds(), registry_errors: registry.errors.length }));
	else {
		if (vaultCreated) io.out(`created folder ${session.vault.dir}`);
		for (const item of created) io.out(`created ${item}`);
		if (typesSet) io.out(`set the types of ${result.propertyTypes.length} properties in ${typesSet}`);
		io.out(created.length === 0 && !typesSet ? "Nothing to do: the vault is already set up." : `Ready: ${layout.groupIds().length} groups in ${result.registryPath}.`);
		if (result.registryCreated && result.registryPath.endsWith(".yaml")) {
			io.out("Tip: if Obsidian Sync carries this vault, `a2a init --registry-note` writes the registry as a note, which every sync service carries.");
		}
	}
	return registry.usable && registry.errors.length === 0 ? 0 : 2;
}
