import type { ActionVault } from "../../actions/vault";
import { editRegistryText } from "../../core/registry-edit";
import type { RegistryEdit } from "../../core/registry-edit";
import type { VaultLayout } from "../../core/layout";
import { SETTINGS_TEXT } from "../strings";

// Writes one registry edit through the vault port: read, edit, replace only if unchanged since the
// read (read again otherwise), so an edit made elsewhere meanwhile is never lost. The registry is
// registry.yaml, or registry.md when only the note exists (the router reads the same one).

export interface RegistryFile {
	path: string;
	note: boolean;
	text: string;
}

export async function readRegistryFile(vault: Pick<ActionVault, "read">, layout: VaultLayout): Promise<RegistryFile | null> {
	const yaml = await vault.read(layout.registryPath);
	if (yaml) return { path: layout.registryPath, note: false, text: yaml.text };
	const note = await vault.read(layout.registryNotePath);
	return note ? { path: layout.registryNotePath, note: true, text: note.text } : null;
}

/** Applies the edit; returns null when written, else why not. */
export async function writeRegistryEdit(vault: Pick<ActionVault, "read" | "replace">, layout: VaultLayout, edit: RegistryEdit): Promise<string | null> {
	for (let attempt = 0; attempt < 5; attempt++) {
		const file = await readRegistryFile(vault, layout);
		if (!file) return SETTINGS_TEXT.noRegistryFile;
		const result = editRegistryText(file.text, edit, layout.root, file.note);
		if (!result.ok) return result.error;
		const read = await vault.read(file.path);
		if (!read || read.text !== file.text) continue;
		const written = await vault.replace(file.path, result.text, read);
		if (written === "done") return null;
	}
	return SETTINGS_TEXT.registryChanging;
}
