import * as fs from "node:fs";
import * as path from "node:path";
import { isCode } from "./fs-facts";

// Whatever links a vault holds, nothing is written outside it: a folder whose real path is outside
// the vault's (a box or the log folder that is a link to a folder elsewhere) is refused. The check
// is made at the moment of each write, never remembered: a long-running command (`route --watch`,
// `mcp`, `serve`) whose inbox is swapped for a link while it runs refuses the next write there as
// a one-shot `a2a route` does. It costs one realpath(3) of the folder per write (one system call
// from Node, the kernel walks the path); only the vault's own real path is looked up once. A folder
// that does not exist yet is judged by its nearest existing parent, where mkdir would write.

/** realpath(3): one call, the kernel resolves every link on the way. */
const realpath = (full: string): string => fs.realpathSync.native(full);

/**
 * The real path of `full` (links resolved); for a path that does not exist (yet), that of its
 * nearest existing parent with the rest of the path after it.
 */
function realPathOf(full: string): { real: string; exists: boolean } {
	let existing = full;
	const rest: string[] = [];
	for (;;) {
		try {
			return { real: rest.length === 0 ? realpath(existing) : path.join(realpath(existing), ...rest), exists: rest.length === 0 };
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
	/** The vault's real path with a separator after it, to compare prefixes. */
	private vaultPrefix = "";

	constructor(
		private readonly dir: string,
		private readonly rel: (full: string) => string,
	) {}

	/** Throws, saying why, when `folderFull` leads outside the vault now. */
	assertInside(folderFull: string): void {
		if (this.vaultReal === undefined) {
			const vault = realPathOf(this.dir);
			if (vault.exists) {
				this.vaultReal = vault.real;
				this.vaultPrefix = vault.real.endsWith(path.sep) ? vault.real : `${vault.real}${path.sep}`;
			}
		}
		const vaultReal = this.vaultReal ?? realPathOf(this.dir).real;
		const folder = realPathOf(folderFull);
		if (this.vaultReal !== undefined && (folder.real === vaultReal || folder.real.startsWith(this.vaultPrefix))) return;
		const relative = path.relative(vaultReal, folder.real);
		const inside = relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
		if (inside) return;
		throw new Error(`${this.rel(folderFull) || "."} leads to ${folder.real}, outside the vault (a link to a folder elsewhere): nothing is written there; make it a folder of the vault`);
	}
}
