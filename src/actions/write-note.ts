import { candidateNames } from "../core/file-names";
import { joinPath } from "../core/paths";
import type { VaultPort } from "../router/vault-port";
import type { FieldErrors } from "./form-errors";

// A planned new note (a request, a response, a forward) and its writing under a free name.

export type PlannedNote = { ok: true; folder: string; fileName: string; text: string } | { ok: false; errors: FieldErrors };

/**
 * Creates a new note in a folder (made when missing) under the first free name of the router's
 * sequence (src/core/file-names.ts); returns its path.
 */
export async function createUnderFreeName(vault: Pick<VaultPort, "create">, folder: string, fileName: string, text: string, messageId?: string): Promise<string> {
	for (const name of candidateNames(fileName, messageId)) {
		const path = joinPath(folder, name);
		if (await vault.create(path, text)) return path;
	}
	throw new Error(`no free file name for ${fileName} in ${folder}`);
}

export function writePlannedNote(vault: Pick<VaultPort, "create">, planned: Extract<PlannedNote, { ok: true }>): Promise<string> {
	return createUnderFreeName(vault, planned.folder, planned.fileName, planned.text);
}
