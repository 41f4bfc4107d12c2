/** Path helpers shared by the fake vault, disks and adapter. Pure functions, no Node imports. */

/**
 * Same rules as Obsidian's `normalizePath`: backslashes and runs of slashes become one `/`,
 * leading and trailing slashes are trimmed, non-breaking spaces become spaces, the result is
 * NFC-normalised, and an empty result is `/` (the vault root).
 */
export function normalizePath(path: string): string {
	let p = path.replace(/[\\/]+/g, "/").replace(/\u00A0|\u202F/g, " ");
	p = p.replace(/^\/+|\/+$/g, "");
	if (p === "") return "/";
	return p.normalize("NFC");
}

/** Vault-relative key used by the disks: "" is the root. */
export function diskKey(path: string): string {
	const p = normalizePath(path);
	return p === "/" ? "" : p;
}

export function parentPath(path: string): string {
	const p = diskKey(path);
	const i = p.lastIndexOf("/");
	return i < 0 ? "" : p.slice(0, i);
}

export function baseName(path: string): string {
	const p = diskKey(path);
	return p.slice(p.lastIndexOf("/") + 1);
}

export function joinPath(dir: string, name: string): string {
	const d = diskKey(dir);
	return d === "" ? name : `${d}/${name}`;
}

/** Splits `name.ext` into basename and extension like Obsidian (a leading-dot name has no extension). */
export function splitExtension(name: string): { basename: string; extension: string } {
	const i = name.lastIndexOf(".");
	if (i <= 0) return { basename: name, extension: "" };
	return { basename: name.slice(0, i), extension: name.slice(i + 1) };
}

/** True when any segment starts with a dot: such paths never enter the file tree and fire no events. */
export function isHiddenPath(path: string): boolean {
	return diskKey(path)
		.split("/")
		.some((segment) => segment.startsWith("."));
}

/** Ancestor folders from the top down, excluding the root and the path itself. */
export function ancestorPaths(path: string): string[] {
	const parts = diskKey(path).split("/");
	const out: string[] = [];
	for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join("/"));
	return out;
}

export function isSameOrInside(path: string, folder: string): boolean {
	const p = diskKey(path);
	const f = diskKey(folder);
	return f === "" || p === f || p.startsWith(`${f}/`);
}
