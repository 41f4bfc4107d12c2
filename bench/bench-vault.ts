import * as fs from "node:fs";
import * as path from "node:path";
import { GROUPS, emptyVault } from "../test-support/bench-notes";

// Writing the benchmarks' vaults (test-support/bench-notes.ts) to a disk.

/** Writes a vault to `dir` with synchronous calls: the registry, every group's boxes, and `files`. */
export function writeVault(dir: string, files: Record<string, string>): void {
	const made = new Set<string>();
	const mkdir = (folder: string) => {
		if (made.has(folder)) return;
		fs.mkdirSync(folder, { recursive: true });
		made.add(folder);
	};
	for (const g of GROUPS) for (const box of ["inbox", "outbox", "archive"]) mkdir(path.join(dir, "A2A", "groups", g, box));
	mkdir(path.join(dir, "A2A", "dead-letter"));
	for (const [rel, text] of Object.entries({ ...emptyVault(), ...files })) {
		const full = path.join(dir, ...rel.split("/"));
		mkdir(path.dirname(full));
		fs.writeFileSync(full, text);
	}
}

/** Counts the files in a folder (0 when it does not exist). */
export function countFiles(dir: string): number {
	try {
		return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).length;
	} catch {
		return 0;
	}
}
