import type { Box, VaultLayout } from "./layout";

// What an A2A vault is made of (protocol section 1), the plan `a2a init` and the plugin's
// Initialize A2A vault both carry out: registry.yaml, then every folder below.

/** The three folders of every registry group, in the order they are made. */
export const GROUP_BOXES: readonly Box[] = ["inbox", "outbox", "archive"];

/** agents/, dead-letter/, log/, then the boxes of each registry group. */
export function setupFolders(layout: VaultLayout): string[] {
	const folders = [layout.agentsFolder, layout.deadLetterFolder, layout.logFolder];
	for (const group of layout.groupIds()) {
		for (const box of GROUP_BOXES) {
			const folder = layout.box(group, box);
			if (folder) folders.push(folder);
		}
	}
	return folders;
}
