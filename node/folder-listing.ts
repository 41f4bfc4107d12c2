import * as fs from "node:fs";
import * as path from "node:path";
import { lstatFile } from "./file-ops";
import { fileId, isCode } from "./fs-facts";
import type { FileInfo } from "../src/router/vault-port";

// How the Node vault lists a folder: by its directory entries, never following a link (a link to a
// folder is not one of the vault's folders, and a link to a file is no note).

/** What the router knows of a file: its size, mtime, identity (device and inode) and ctime. */
export function fileInfo(vaultPath: string, st: fs.Stats): FileInfo {
	return { path: vaultPath, size: st.size, mtime: st.mtimeMs, id: fileId(st), changed: st.ctimeMs };
}

/** The entries of the folder `absDir` (the vault's `folder`) that `keep` takes, as vault paths ([] when there is no such folder). */
export function entriesOf(absDir: string, folder: string, keep: (entry: fs.Dirent) => boolean): string[] {
	let entries: fs.Dirent[];
	try {
		entries = fs.readdirSync(absDir, { withFileTypes: true });
	} catch (error) {
		if (isCode(error, "ENOENT", "ENOTDIR")) return [];
		throw error;
	}
	const prefix = folder.replace(/\/+$/, "");
	return entries.filter(keep).map((e) => (prefix === "" ? e.name : `${prefix}/${e.name}`));
}

/** The regular files directly in `absDir` (the vault's `folder`), as `entriesOf` lists them, with their facts. */
export function filesIn(absDir: string, folder: string): FileInfo[] {
	const out: FileInfo[] = [];
	for (const vaultPath of entriesOf(absDir, folder, (e) => e.isFile())) {
		const st = lstatFile(`${absDir}${path.sep}${vaultPath.slice(vaultPath.lastIndexOf("/") + 1)}`);
		if (st) out.push(fileInfo(vaultPath, st));
	}
	return out;
}

/** The regular files anywhere below `absDir` (the vault's `folder`), with their facts. */
export function filesBelow(absDir: string, folder: string): FileInfo[] {
	const out: FileInfo[] = [];
	const walk = (dir: string, prefix: string): void => {
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(dir, { withFileTypes: true });
		} catch (error) {
			if (isCode(error, "ENOENT", "ENOTDIR")) return;
			throw error;
		}
		for (const entry of entries) {
			const full = `${dir}${path.sep}${entry.name}`;
			const vaultPath = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
			if (entry.isDirectory()) walk(full, vaultPath);
			else if (entry.isFile()) {
				const st = lstatFile(full);
				if (st) out.push(fileInfo(vaultPath, st));
			}
		}
	};
	walk(absDir, folder.split("/").filter((s) => s !== "" && s !== ".").join("/"));
	return out;
}
