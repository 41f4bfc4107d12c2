import { joinPath } from "../src/core/paths";
import type { NodeVault } from "./node-vault";

/** Creates a new note atomically under a free name in a folder; returns its vault path. */
export async function writeNewNote(vault: NodeVault, folder: string, fileName: string, text: string): Promise<string> {
	await vault.ensureFolder(folder);
	let path = joinPath(folder, fileName);
	for (let i = 2; !(await vault.create(path, text)); i++) path = joinPath(folder, fileName.replace(/\.md$/, `-${i}.md`));
	return path;
}
