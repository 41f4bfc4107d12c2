import { UNSAFE_NAME_CHARACTERS } from "./file-names";

// Vault-relative path arithmetic. Mirrors Obsidian's normalizePath so the core (which may not
// import obsidian) and the adapters agree on every path they build.

/** A path normalizeVaultPath returns as it is: printable ASCII, single slashes inside, none at either end. */
const NORMAL_PATH = /^[\x20-\x2e\x30-\x5b\x5d-\x7e](?:[\x20-\x2e\x30-\x5b\x5d-\x7e]|\/(?!\/))*(?<!\/)$/;

export function normalizeVaultPath(path: string): string {
	if (NORMAL_PATH.test(path)) return path;
	let p = path.replace(/[\\/]+/g, "/").replace(/\u00A0|\u202F/g, " ");
	p = p.replace(/^\/+|\/+$/g, "");
	p = p.normalize("NFC");
	return p === "" ? "/" : p;
}

export function joinPath(...parts: string[]): string {
	return normalizeVaultPath(parts.filter((part) => part !== "" && part !== "/").join("/"));
}

export function basename(path: string): string {
	const i = path.lastIndexOf("/");
	return i < 0 ? path : path.slice(i + 1);
}

/**
 * A wikilink to a Markdown note by its name, which stays valid when the router moves the note on
 * (a link by path would make Obsidian create an empty note where it was); null when the name holds
 * link syntax (names the router gives never do).
 */
export function linkByName(path: string): string | null {
	const name = basename(path).replace(/\.md$/i, "");
	return /^[^\\[\]|#^<>%`\n\r]+$/.test(name) ? `[[${name}]]` : null;
}

export function dirname(path: string): string {
	const i = path.lastIndexOf("/");
	return i < 0 ? "" : path.slice(0, i);
}

export function extension(path: string): string {
	const name = basename(path);
	const i = name.lastIndexOf(".");
	return i <= 0 ? "" : name.slice(i + 1).toLowerCase();
}

export function stem(path: string): string {
	const name = basename(path);
	const i = name.lastIndexOf(".");
	return i <= 0 ? name : name.slice(0, i);
}

/** True when `path` is `folder` itself or lies below it. */
export function isInside(path: string, folder: string): boolean {
	return path === folder || path.startsWith(`${folder}/`);
}

/**
 * A relative folder given by a user or a registry (never an absolute path, never `..`, never a
 * dot-folder, never empty). Returns the normalised path or null when it could escape the vault.
 */
export function safeRelativeFolder(raw: string): string | null {
	if (raw.trim() === "" || /^([A-Za-z]:|[\\/])/.test(raw.trim()) || raw.includes("\0")) return null;
	const normal = normalizeVaultPath(raw.trim());
	if (normal === "/") return null;
	const segments = normal.split("/");
	if (segments.some((s) => s === ".." || s === "." || s.startsWith(".") || s.trim() === "")) return null;
	return normal;
}

/**
 * Turns any text (a message id, a title) into a file-name segment that cannot leave its folder:
 * no separators, no leading dot, no control, format or reserved characters.
 */
export function safeFileSegment(raw: string, fallback = "message"): string {
	const cleaned = raw
		.normalize("NFC")
		.replace(UNSAFE_NAME_CHARACTERS, "-")
		.replace(/\s+/g, " ")
		.replace(/^[.\s-]+/, "")
		.trim()
		.slice(0, 80)
		.replace(/[.\s]+$/, "");
	return cleaned === "" ? fallback : cleaned;
}
