import { candidateNames } from "../core/file-names";
import { joinPath } from "../core/paths";
import type { VaultPort } from "./vault-port";

// Every new note and every move into a folder takes the first free name of the one fixed sequence
// (src/core/file-names.ts `candidateNames`): a name is free when the exclusive create or the
// no-overwrite move succeeds there, so nothing is ever written over another note, and writers that
// race for one name end with one name each.

// `messageId` is the id the names derive from once the plain name is taken; `ending` ends every
// name (`.md` unless told).

/** Creates `text` in `folder` under the first free name for `fileName`; its path. */
export async function createUnderFreeName(vault: Pick<VaultPort, "create" | "createUnderFirstFree">, folder: string, fileName: string, text: string, messageId?: string, ending?: string): Promise<string> {
	if (vault.createUnderFirstFree) {
		const path = await vault.createUnderFirstFree(folder, candidateNames(fileName, messageId, ending), text);
		if (path !== null) return path;
		throw new Error(`no free file name for ${fileName} in ${folder}`);
	}
	for (const name of candidateNames(fileName, messageId, ending)) {
		const path = joinPath(folder, name);
		if (await vault.create(path, text)) return path;
	}
	throw new Error(`no free file name for ${fileName} in ${folder}`);
}

/** Moves `from` into `folder` under the first free name for `fileName`; its new path, or null when `from` is gone. */
export async function moveUnderFreeName(vault: Pick<VaultPort, "move">, from: string, folder: string, fileName: string, messageId?: string, ending?: string): Promise<string | null> {
	for (const name of candidateNames(fileName, messageId, ending)) {
		const to = joinPath(folder, name);
		const result = await vault.move(from, to);
		if (result === "moved") return to;
		if (result === "missing") return null;
	}
	throw new Error(`no free file name for ${fileName} in ${folder}`);
}

/**
 * Where a note of this name and id lands in `folder` if moved there now: the first of its names
 * free there, as `transfer` takes it. A response written before the move links the note by it.
 */
export async function freePathIn(port: Pick<VaultPort, "stat">, folder: string, fileName: string, messageId: string, ending?: string): Promise<string> {
	for (const name of candidateNames(fileName, messageId, ending)) if ((await port.stat(joinPath(folder, name))) === null) return joinPath(folder, name);
	return joinPath(folder, fileName);
}
