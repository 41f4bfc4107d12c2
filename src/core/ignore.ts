import { basename } from "./paths";

// Protocol rule 1: files that are never routed and never deleted, with the reason shown to users.

const CONFLICT_MARKERS = [".sync-conflict-", "(Conflicted copy", "(conflict"];
/** Dropbox names the loser of a conflict `name (Jane Doe's conflicted copy 2026-01-01).md`. */
const OWNED_CONFLICT_COPY = /\([^()]*conflicted copy/i;

export function ignoreReason(path: string): string | null {
	if (path.startsWith(".") || path.includes("/.")) {
		if (path.split("/").slice(0, -1).some((s) => s.startsWith("."))) return "inside a dot-folder";
		if (basename(path).startsWith(".")) return "a dot-file";
	}
	const name = basename(path);
	const lower = name.toLowerCase();
	if (CONFLICT_MARKERS.some((marker) => lower.includes(marker.toLowerCase())) || OWNED_CONFLICT_COPY.test(name)) return "a sync-conflict copy";
	if (name.startsWith("~$")) return "a lock file of an editor";
	if (/\.(lock|tmp|part)$/i.test(name)) return "a lock or temporary file";
	return null;
}
