import * as fs from "node:fs";
import * as path from "node:path";
import { NO_FOLLOW, NO_WAIT, isCode } from "./fs-facts";

// Whatever links a vault holds, nothing is written outside it: a folder whose real path is outside
// the vault's (a box or the log folder that is a link to a folder elsewhere) is refused. The check
// is made at the moment of each write, never remembered: a long-running command (`route --watch`,
// `mcp`, `serve`) whose inbox is swapped for a link while it runs refuses the next write there as
// a one-shot `a2a route` does. It costs one realpath(3) of the folder per write (one system call
// from Node, the kernel walks the path); only the vault's own real path is looked up once. A folder
// that does not exist yet is judged by its nearest existing parent, where mkdir would write.
//
// The check and the write are separate calls: a folder swapped for a link between them would take
// the write elsewhere. So once a file is placed, `assertPlaced` looks at the file itself: the file
// now at its name must be the one written (same device and inode) and really be inside the vault.
// On Linux that is read from the kernel through a descriptor of that very file (open, fstat,
// readlink of /proc/self/fd/N, close: no path is resolved twice); elsewhere from realpath(3) of the
// file and an lstat of that real path. A file that is not where it should be is removed at its real
// location (only when that is still the file written) and the write refused as the folder check does.

/** Whether the kernel names an open file's path (Linux /proc). */
const PROC_FD = process.platform === "linux" && fs.existsSync("/proc/self/fd");

/** Where the file at `full` really is, if it is the file `written` (same device and inode); else null. */
function realLocationOf(full: string, written: fs.Stats): string | null {
	const same = (st: fs.Stats): boolean => st.dev === written.dev && st.ino === written.ino;
	try {
		if (!PROC_FD) {
			const real = realpath(full);
			return same(fs.lstatSync(real)) ? real : null;
		}
		const fd = fs.openSync(full, fs.constants.O_RDONLY | NO_FOLLOW | NO_WAIT);
		try {
			return same(fs.fstatSync(fd)) ? fs.readlinkSync(`/proc/self/fd/${fd}`) : null;
		} finally {
			fs.closeSync(fd);
		}
	} catch (error) {
		if (isCode(error, "ENOENT", "ENOTDIR", "ELOOP")) return null;
		throw error;
	}
}

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

	/** Looks the vault's real path up once it exists. */
	private lookUpVault(): void {
		if (this.vaultReal !== undefined) return;
		const vault = realPathOf(this.dir);
		if (vault.exists) {
			this.vaultReal = vault.real;
			this.vaultPrefix = vault.real.endsWith(path.sep) ? vault.real : `${vault.real}${path.sep}`;
		}
	}

	/** Throws, saying why, when `folderFull` leads outside the vault now. */
	assertInside(folderFull: string): void {
		this.lookUpVault();
		const vaultReal = this.vaultReal ?? realPathOf(this.dir).real;
		const folder = realPathOf(folderFull);
		if (this.vaultReal !== undefined && (folder.real === vaultReal || folder.real.startsWith(this.vaultPrefix))) return;
		const relative = path.relative(vaultReal, folder.real);
		const inside = relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
		if (inside) return;
		throw new Error(`${this.rel(folderFull) || "."} leads to ${folder.real}, outside the vault (a link to a folder elsewhere): nothing is written there; make it a folder of the vault`);
	}

	/**
	 * After a file was placed at `full`: throws unless the file there is `written` and lies inside the
	 * vault. What was written elsewhere (through a folder swapped for a link meanwhile) is removed there
	 * unless `removeOutside` is false (a file this process opened, not made).
	 */
	assertPlaced(full: string, written: fs.Stats, removeOutside = true, tempName?: string): void {
		// A note can be moved on (a router in another process takes it from an outbox) before it is
		// looked at: its temporary name, linked in the same folder by the same write and still there,
		// tells where the write went.
		const real = realLocationOf(full, written) ?? (tempName === undefined ? null : realLocationOf(tempName, written));
		this.lookUpVault();
		if (real !== null && this.vaultReal !== undefined && real.startsWith(this.vaultPrefix)) return;
		if (real !== null && removeOutside) {
			// Removed only while that real path is still the file written, never through a link.
			const there = fs.lstatSync(real, { throwIfNoEntry: false });
			if (there && there.dev === written.dev && there.ino === written.ino) fs.rmSync(real, { force: true });
		}
		const folder = path.dirname(full);
		throw new Error(`${this.rel(folder) || "."} led ${real === null ? "elsewhere" : `to ${path.dirname(real)}`}, outside the vault, while ${path.basename(full)} was written (a link swapped in for the folder): it is not delivered; make it a folder of the vault`);
	}
}
