import { Notice, normalizePath } from "obsidian";
import type { Command } from "obsidian";
import { EXAMPLE_REGISTRY } from "../core/example-registry";
import { VaultLayout } from "../core/layout";
import { describeRegistryError, parseRegistry } from "../core/registry";
import { ObsidianVault } from "../obsidian/obsidian-vault";
import type { RelayServices } from "../services";
import { COMMAND_IDS } from "./command-ids";

// Initialize A2A vault: registry.yaml (the example registry) when there is none, and every
// folder of the layout that is missing. Never overwrites anything.

export interface InitResult {
	registryCreated: boolean;
	folders: string[];
	groups: number;
	registryProblems: string[];
}

export async function initVault(services: RelayServices): Promise<InitResult> {
	const { vault } = services.app;
	const port = new ObsidianVault(services.app);
	const root = services.settings.rootFolder;
	const registryPath = normalizePath(new VaultLayout(root).registryPath);
	const registryCreated = await port.create(registryPath, EXAMPLE_REGISTRY);
	const file = vault.getFileByPath(registryPath);
	const text = registryCreated ? EXAMPLE_REGISTRY : file ? await vault.read(file) : await vault.adapter.read(registryPath);
	const registry = parseRegistry(text);
	const layout = new VaultLayout(root, registry);
	const wanted = [layout.agentsFolder, layout.deadLetterFolder, layout.logFolder];
	for (const group of layout.groupIds()) {
		for (const box of ["inbox", "outbox", "archive"] as const) {
			const folder = layout.box(group, box);
			if (folder) wanted.push(folder);
		}
	}
	const folders: string[] = [];
	for (const raw of wanted) {
		const folder = normalizePath(raw);
		if (vault.getFolderByPath(folder) || (await vault.adapter.exists(folder))) continue;
		await port.ensureFolder(folder);
		folders.push(folder);
	}
	return { registryCreated, folders, groups: layout.groupIds().length, registryProblems: registry.errors.map(describeRegistryError) };
}

export function describeInit(result: InitResult, root: string): string {
	const made: string[] = [];
	if (result.registryCreated) made.push("registry.yaml");
	if (result.folders.length > 0) made.push(`${result.folders.length} ${result.folders.length === 1 ? "folder" : "folders"}`);
	const problems = result.registryProblems.length > 0 ? ` The registry has problems: ${result.registryProblems.join("; ")}` : "";
	if (made.length === 0) return `The A2A vault in ${root} is complete: nothing to create (${result.groups} groups).${problems}`;
	return `Created ${made.join(" and ")} in ${root} (${result.groups} groups).${problems}`;
}

export function initVaultCommand(services: RelayServices): Command {
	return {
		id: COMMAND_IDS.initVault,
		name: "Initialize A2A vault",
		icon: "folder-plus",
		callback: async () => {
			const result = await initVault(services);
			new Notice(describeInit(result, services.settings.rootFolder), 8000);
		},
	};
}
