import * as fs from "node:fs";
import * as path from "node:path";
import type { FolderGuard } from "./folder-guard";
import { linkOrCreate, tempPathFor, unlinkQuietly, writeNewFile } from "./file-ops";
import { isCode } from "./fs-facts";

// How NodeVault puts a file into the vault, on absolute paths: its folder is checked at every write
// (folder-guard.ts) and made once, the file is written under a temporary name beside its place and
// linked into place (never over another file), and then checked where it landed, which catches a
// folder swapped for a link between the check and the write.

export class FilePlacer {
	/** The folders made so far, each once; every write still checks where its folder leads. */
	private readonly folders = new Set<string>();

	constructor(private readonly guard: FolderGuard) {}

	/** Checks (at every write, see folder-guard.ts) that `full`'s folder is in the vault, and makes it once. `checked`: the caller has just checked it. */
	ensureParent(full: string, checked = false): void {
		const parent = path.dirname(full);
		if (!checked) this.guard.assertInside(parent);
		if (this.folders.has(parent)) return;
		fs.mkdirSync(parent, { recursive: true });
		this.folders.add(parent);
	}

	/** `full`'s folder went away since it was made: checked and made again. */
	remakeParent(full: string): void {
		this.folders.delete(path.dirname(full));
		this.ensureParent(full);
	}

	/** Checks that the folder `full` is in the vault, and makes it once. */
	ensureFolder(full: string): void {
		this.guard.assertInside(full);
		if (!this.folders.has(full)) {
			fs.mkdirSync(full, { recursive: true });
			// Made where the path led when mkdir ran: checked again, a folder swapped meanwhile is refused.
			this.guard.assertInside(full);
			this.folders.add(full);
		}
	}

	/** Writes a temporary file next to `full` (and returns its fstat); the caller links or renames it into place. */
	writeTemp(full: string, content: string | Buffer): { temp: string; written: fs.Stats } {
		const temp = tempPathFor(full);
		try {
			return { temp, written: writeNewFile(temp, content) };
		} catch (error) {
			if (!isCode(error, "ENOENT")) throw error;
			// The folder went away (or was never made): make it and write again.
			this.remakeParent(full);
			return { temp, written: writeNewFile(temp, content) };
		}
	}

	/** Places a new file at `full` (never over another) and checks it landed in the vault; null when the name is taken. */
	place(full: string, content: string | Buffer): fs.Stats | null {
		const { temp, written } = this.writeTemp(full, content);
		try {
			const placed = linkOrCreate(temp, full, content);
			return placed === null ? null : this.checkPlaced(full, placed, written, temp);
		} finally {
			unlinkQuietly(temp);
		}
	}

	/** Checks where a placed file landed (folder-guard.ts): a linked one also by its temporary name, should it be moved on already. */
	checkPlaced(full: string, placed: "linked" | fs.Stats, written: fs.Stats, temp: string): fs.Stats {
		if (placed !== "linked") this.guard.assertPlaced(full, placed);
		else this.guard.assertPlaced(full, written, true, temp);
		return placed === "linked" ? written : placed;
	}
}
