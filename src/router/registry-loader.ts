import { VaultLayout } from "../core/layout";
import { emptyRegistry, parseRegistry, parseRegistryNote } from "../core/registry";
import type { Registry } from "../core/registry";
import type { VaultPort } from "./vault-port";

// Where the registry comes from (contract v2 section 2): `registry.yaml`, else the note
// `registry.md`. When both exist the YAML file is used, and the registry warns about the note.

export interface LoadedRegistry {
	registry: Registry;
	/** What was read (both files), to tell whether anything changed. */
	text: string | null;
}

export const MISSING_REGISTRY = "is missing: run Create registry and group folders (or `a2a init`)";

export async function loadRegistry(port: VaultPort, root: string): Promise<LoadedRegistry> {
	const layout = new VaultLayout(root);
	const yaml = (await port.read(layout.registryPath))?.text ?? null;
	const note = (await port.read(layout.registryNotePath))?.text ?? null;
	if (yaml === null && note === null) {
		return { registry: emptyRegistry([{ where: "registry.yaml", message: MISSING_REGISTRY }], false), text: null };
	}
	const registry = yaml !== null ? parseRegistry(yaml, layout.root) : parseRegistryNote(note as string, layout.root);
	if (yaml !== null && note !== null) {
		registry.warnings.push(`both ${layout.registryPath} and ${layout.registryNotePath} exist: ${layout.registryPath} is used; delete the one you do not mean`);
	}
	return { registry, text: `${yaml ?? ""}\u0000${note ?? ""}` };
}

/**
 * The boxes (inbox, outbox, archive) of each group that `after` has and `before` did not: a group
 * added to the registry while a router runs gets its three folders, as `a2a init` gives them. A
 * folder that cannot be made is skipped (the router reports that group when it routes to it).
 */
export async function makeNewGroupBoxes(port: Pick<VaultPort, "ensureFolder">, before: VaultLayout, after: VaultLayout): Promise<void> {
	for (const group of after.groupIds()) {
		if (before.hasGroup(group)) continue;
		for (const folder of after.boxesOf(group)) await port.ensureFolder(folder).catch(() => undefined);
	}
}
