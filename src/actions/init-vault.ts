import { EXAMPLE_REGISTRY, GATEWAY_DESCRIPTION } from "../core/example-registry";
import { VaultLayout } from "../core/layout";
import { basename } from "../core/paths";
import { emptyRegistry, gatewayGroup, parseRegistry, parseRegistryNote } from "../core/registry";
import { editRegistryText } from "../core/registry-edit";
import type { Registry } from "../core/registry";
import { mergePropertyTypes } from "../core/property-types";
import { setupBases, setupFolders } from "../core/vault-setup";
import type { ActionVault } from "./vault";

// Create registry and group folders (the plugin's command) and `a2a init`: registry.yaml with the example
// registry when there is none, then every folder of the layout that is missing, then the bases
// (Messages.base, Agents.base) for Obsidian's Bases plugin, then the types of A2A's properties in
// the app's config folder (core/property-types.ts). Never overwrites anything.

export interface InitResult {
	registryPath: string;
	registryCreated: boolean;
	/** Groups added to an existing registry because this version needs them (the gateway group). */
	groupsAdded: string[];
	/** The folders made, in order. */
	folders: string[];
	/** The bases written (Messages.base, Agents.base), never over a file of the same name. */
	bases: string[];
	registry: Registry;
	layout: VaultLayout;
	/** The property names whose types were added to the config folder's types.json. */
	propertyTypes: string[];
	/** Why types.json was left alone (it is not the JSON Obsidian writes), when it was. */
	propertyTypesProblem?: string;
}

/** A file of the app's config folder, read and written whole (Obsidian's types.json). */
export interface ConfigFile {
	/** Its path, for messages. */
	path: string;
	/** Its text, or null when there is none. */
	read(): Promise<string | null>;
	write(text: string): Promise<void>;
}

export interface InitOptions {
	/**
	 * Write the registry as the note registry.md (its frontmatter): every sync service carries a
	 * note, while a .yaml file needs Obsidian Sync's "other file types".
	 */
	registryNote?: boolean;
	/** The extra agent folders of the plugin's settings: Agents.base lists their notes too. */
	extraAgentFolders?: readonly string[];
	/** Where the property types go; none, none are set. */
	propertyTypes?: ConfigFile | null;
}

/** The example registry as a note: the same mapping in its frontmatter, and why it is a note. */
export const EXAMPLE_REGISTRY_NOTE = `---\n${EXAMPLE_REGISTRY.split("\n").filter((line) => !line.startsWith("#")).join("\n")}---\n\n# A2A registry\n\nThe groups that may exchange messages, and the communication settings, in this note's properties. A note is carried by every sync service (a \`registry.yaml\` file is not always). See docs/protocol.md.\n`;

/**
 * An existing registry without a gateway group (one marked `gateway: true`, or `a2a-gateway`) gets
 * the `a2a-gateway` entry of the example registry, edited into its text so that everything else in
 * it stays as written; a registry that does not parse, or that a concurrent edit changed, is left alone.
 */
async function addGatewayGroup(
	vault: Pick<ActionVault, "read" | "replace">,
	registryPath: string,
	text: string,
	registry: Registry,
	root: string,
	note: boolean,
): Promise<{ id: string; registry: Registry } | null> {
	const id = gatewayGroup(registry);
	if (!registry.usable || registry.errors.length > 0 || registry.groups.has(id)) return null;
	const edited = editRegistryText(text, { op: "add-group", id, description: GATEWAY_DESCRIPTION, gateway: true }, root, note);
	if (!edited.ok) return null;
	const current = await vault.read(registryPath);
	if (current === null || current.text !== text) return null;
	if ((await vault.replace(registryPath, edited.text, current)) !== "done") return null;
	return { id, registry: note ? parseRegistryNote(edited.text, root) : parseRegistry(edited.text, root) };
}

export async function initVault(vault: Pick<ActionVault, "create" | "read" | "replace" | "isFolder" | "ensureFolder">, root: string, options: InitOptions = {}): Promise<InitResult> {
	const rootLayout = new VaultLayout(root);
	// An existing registry (either form) is used as it is; a new one is the form asked for.
	const yaml = await vault.read(rootLayout.registryPath);
	const note = yaml ? null : await vault.read(rootLayout.registryNotePath);
	const asNote = note !== null || (yaml === null && options.registryNote === true);
	const registryPath = asNote ? rootLayout.registryNotePath : rootLayout.registryPath;
	const registryCreated = yaml === null && note === null && (await vault.create(registryPath, asNote ? EXAMPLE_REGISTRY_NOTE : EXAMPLE_REGISTRY));
	const text = registryCreated ? (asNote ? EXAMPLE_REGISTRY_NOTE : EXAMPLE_REGISTRY) : ((yaml ?? note ?? (await vault.read(registryPath)))?.text ?? null);
	let registry = text === null ? emptyRegistry([{ where: basename(registryPath), message: "cannot be read" }], false) : asNote ? parseRegistryNote(text, rootLayout.root) : parseRegistry(text, rootLayout.root);
	const groupsAdded: string[] = [];
	if (!registryCreated && text !== null) {
		const added = await addGatewayGroup(vault, registryPath, text, registry, rootLayout.root, asNote);
		if (added !== null) {
			registry = added.registry;
			groupsAdded.push(added.id);
		}
	}
	const layout = new VaultLayout(rootLayout.root, registry);
	const folders: string[] = [];
	for (const folder of setupFolders(layout)) {
		if (await vault.isFolder(folder)) continue;
		await vault.ensureFolder(folder);
		folders.push(folder);
	}
	const bases: string[] = [];
	for (const base of setupBases(layout, options.extraAgentFolders)) if (await vault.create(base.path, base.text)) bases.push(base.path);
	const types = options.propertyTypes ? mergePropertyTypes(await options.propertyTypes.read()) : null;
	if (types?.ok && types.added.length > 0) await options.propertyTypes?.write(types.text);
	const propertyTypes = types?.ok ? types.added : [];
	return { registryPath, registryCreated, groupsAdded, folders, bases, registry, layout, propertyTypes, ...(types && !types.ok ? { propertyTypesProblem: types.problem } : {}) };
}
