import { EXAMPLE_REGISTRY } from "../core/example-registry";
import { VaultLayout } from "../core/layout";
import { describeRegistryError, emptyRegistry, parseRegistry } from "../core/registry";
import type { Registry } from "../core/registry";
import { setupBases, setupFolders } from "../core/vault-setup";
import type { ActionVault } from "./vault";

// Create registry and group folders (the plugin's command) and `a2a init`: registry.yaml with the example
// registry when there is none, then every folder of the layout that is missing, then the bases
// (Messages.base, Agents.base) for Obsidian's Bases plugin. Never overwrites anything.

export interface InitResult {
	registryPath: string;
	registryCreated: boolean;
	/** The folders made, in order. */
	folders: string[];
	/** The bases written (Messages.base, Agents.base), never over a file of the same name. */
	bases: string[];
	registry: Registry;
	layout: VaultLayout;
}

export async function initVault(vault: Pick<ActionVault, "create" | "read" | "isFolder" | "ensureFolder">, root: string): Promise<InitResult> {
	const rootLayout = new VaultLayout(root);
	const registryPath = rootLayout.registryPath;
	const registryCreated = await vault.create(registryPath, EXAMPLE_REGISTRY);
	const text = registryCreated ? EXAMPLE_REGISTRY : ((await vault.read(registryPath))?.text ?? null);
	const registry = text === null ? emptyRegistry([{ where: "registry.yaml", message: "cannot be read" }], false) : parseRegistry(text, rootLayout.root);
	const layout = new VaultLayout(rootLayout.root, registry);
	const folders: string[] = [];
	for (const folder of setupFolders(layout)) {
		if (await vault.isFolder(folder)) continue;
		await vault.ensureFolder(folder);
		folders.push(folder);
	}
	const bases: string[] = [];
	for (const base of setupBases(layout)) if (await vault.create(base.path, base.text)) bases.push(base.path);
	return { registryPath, registryCreated, folders, bases, registry, layout };
}

/** What the plugin's notice says: what was made, how many groups, the registry's problems. */
export function describeInit(result: InitResult): string {
	const root = result.layout.root;
	const groups = result.layout.groupIds().length;
	const made: string[] = [];
	if (result.registryCreated) made.push("registry.yaml");
	if (result.folders.length > 0) made.push(`${result.folders.length} ${result.folders.length === 1 ? "folder" : "folders"}`);
	if (result.bases.length > 0) made.push(`${result.bases.length} ${result.bases.length === 1 ? "base" : "bases"}`);
	const problems = result.registry.errors.length > 0 ? ` The registry has problems: ${result.registry.errors.map(describeRegistryError).join("; ")}` : "";
	if (made.length === 0) return `The A2A vault in ${root} is complete: nothing to create (${groups} groups).${problems}`;
	const list = made.length === 1 ? made[0] : `${made.slice(0, -1).join(", ")} and ${made[made.length - 1]}`;
	return `Created ${list} in ${root} (${groups} groups).${problems}`;
}
