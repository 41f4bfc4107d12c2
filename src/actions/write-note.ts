import { createUnderFreeName } from "../router/free-names";
import type { VaultPort } from "../router/vault-port";
import type { FieldErrors } from "./form-errors";

// A planned new note (a request, a response, a forward) and its writing under a free name.

export type PlannedNote = { ok: true; folder: string; fileName: string; text: string } | { ok: false; errors: FieldErrors };

export function writePlannedNote(vault: Pick<VaultPort, "create">, planned: Extract<PlannedNote, { ok: true }>): Promise<string> {
	return createUnderFreeName(vault, planned.folder, planned.fileName, planned.text);
}
