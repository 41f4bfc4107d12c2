import * as fs from "node:fs";
import * as path from "node:path";
import { isCode } from "./fs-facts";

// Whatever links a vault holds, nothing is written outside it: a folder whose real path is outside
// the vault's (a box or the log folder that is a link to a folder elsewhere) is refused. A folder is
// looked up once (one realpath, then cached), never once per note; one that does not exist yet is
// judged by its nearest existing parent, where mkdir would write.

/**
 * The real path of `full` (links resolved); for a path that does not exist (yet), that of its
 * nearest existing parent with the rest of the path after it.
 */
function realPathOf(full: string): { real: string; exists: boolean } {
	let existing = full;
	const rest: string[] = [];
	for (;;) {
		try {
			return { real: path.join(fs.realpathSync(existing), ...rest), exists: rest.length === 0 };
		} catch (error) {
			const parent = path.dirname(existing);
			if (!isCode(error, "ENOENT", "ENOTDIR") || parent === existing) throw error;
			rest.unshift(path.basename(existing));
			existing = parent;
		}
	}
}

export class FolderGuard {
	/** The vault folder's real path, once looked up. */
	private vaultReal: string | undefined;
	/** Folders whose real path was looked up: null when inside the vault, else why nothing is written there. */
	private readonly placement = new Map<string, string | null>();

	constructor(
		private readonly dir: string,
		private readonly rel: (full: string) => string,
	) {}

	/** Throws, saying why, when `folderFull` leads outside the vault. */
	assertInside(folderFull: string): void {
		const known = this.placement.get(folderFull);
		if (known === null) return;
		if (known !== undefined) throw new Error(known);
		if (this.vaultReal === undefined) {
			const vault = realPathOf(this.dir);
			if (vault.exists) this.vaultReal = vault.real;
		}
		const vaultReal = this.vaultReal ?? realPathOf(this.dir).real;
		const folder = realPathOf(folderFull);
		const relative = path.relative(vaultReal, folder.real);
		const inside = relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
		const verdict = inside ? null : `${this.rel(folderFull) || "."} leads to ${folder.real}, outside the vault (a link to a folder elsewhere): nothing is written there; make it a folder of the vault`;
		if (folder.exists) this.placement.set(folderFull, verdict);
		if (verdict !== null) throw new Error(verdict);
	}
}
