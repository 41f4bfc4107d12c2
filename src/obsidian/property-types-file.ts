import { normalizePath } from "obsidian";
import type { App } from "obsidian";
import type { ConfigFile } from "../actions/init-vault";
import { PROPERTY_TYPES_FILE } from "../core/property-types";

// Obsidian's property types: `<config folder>/types.json` (the config folder is the vault's, by
// default .obsidian, and may be another), read and written through the vault adapter, since the
// vault API does not list the config folder. Obsidian keeps the types in memory in its
// metadataTypeManager, which is no part of the public API: after a write it is asked to read the
// file again, only when it has that method (loadData); Obsidian also reloads the file when it sees
// it change on disk.

interface TypeManagerLike {
	loadData?: unknown;
}

export function propertyTypesFile(app: App): ConfigFile {
	const path = normalizePath(`${app.vault.configDir}/${PROPERTY_TYPES_FILE}`);
	const adapter = app.vault.adapter;
	return {
		path,
		read: async () => ((await adapter.exists(path)) ? adapter.read(path) : null),
		write: async (text) => {
			if (!(await adapter.exists(app.vault.configDir))) await adapter.mkdir(app.vault.configDir);
			await adapter.write(path, text);
			// Undocumented, so guarded: a missing or failing reload leaves the file as written.
			const manager = (app as unknown as { metadataTypeManager?: TypeManagerLike }).metadataTypeManager;
			if (typeof manager?.loadData === "function") {
				try {
					await (manager.loadData as () => Promise<void>).call(manager);
				} catch {
					// Obsidian reads the file again itself when it notices the change.
				}
			}
		},
	};
}
