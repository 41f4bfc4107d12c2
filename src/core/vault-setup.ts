import { BOXES } from "./layout";
import type { VaultLayout } from "./layout";

// What an A2A vault is made of (protocol section 1), the plan `a2a init` and the plugin's
// Initialize A2A vault both carry out: registry.yaml, then every folder below.

/** agents/, dead-letter/, log/, then the boxes of each registry group. */
export function setupFolders(layout: VaultLayout): string[] {
	const folders = [layout.agentsFolder, layout.deadLetterFolder, layout.logFolder];
	for (const group of layout.groupIds()) {
		for (const box of BOXES) {
			const folder = layout.box(group, box);
			if (folder) folders.push(folder);
		}
	}
	return folders;
}
