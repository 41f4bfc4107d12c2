/** TAbstractFile / TFile / TFolder. The vault mutates these objects in place on rename, like Obsidian. */
import { baseName, splitExtension } from "./paths";
import type { Vault } from "./vault";

export interface FileStats {
	ctime: number;
	mtime: number;
	size: number;
}

export abstract class TAbstractFile {
	vault!: Vault;
	path = "";
	name = "";
	parent: TFolder | null = null;
}

export class TFile extends TAbstractFile {
	stat: FileStats = { ctime: 0, mtime: 0, size: 0 };
	basename = "";
	extension = "";

	constructor(vault?: Vault, path?: string) {
		super();
		if (vault) this.vault = vault;
		if (path !== undefined) setFilePath(this, path);
	}
}

export class TFolder extends TAbstractFile {
	children: TAbstractFile[] = [];

	constructor(vault?: Vault, path?: string) {
		super();
		if (vault) this.vault = vault;
		if (path !== undefined) setFilePath(this, path);
	}

	isRoot(): boolean {
		return this.path === "/";
	}
}

/** Updates path, name (and basename/extension for files). */
export function setFilePath(file: TAbstractFile, path: string): void {
	file.path = path;
	file.name = path === "/" ? "" : baseName(path);
	if (file instanceof TFile) {
		const { basename, extension } = splitExtension(file.name);
		file.basename = basename;
		file.extension = extension;
	}
}
