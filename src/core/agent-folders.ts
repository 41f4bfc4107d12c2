import { ignoreReason } from "./ignore";
import type { VaultLayout } from "./layout";
import { isInside, safeFileSegment } from "./paths";

// Where agent status notes live (protocol section 5): the root's agents folder, where new notes go,
// then the folders the plugin's settings add (for example `Runs`). The plugin's agent store, the
// CLI's `status`, `agent` and MCP tools, and the Agents base all read them from here.

/** The agents folders, the root's first, each once. */
export function agentFolders(layout: Pick<VaultLayout, "agentsFolder">, extra: readonly string[] = []): string[] {
	return [...new Set([layout.agentsFolder, ...extra])];
}

/** True for a note below one of `folders` that can be an agent note (Markdown, not a file rule 1 ignores). */
export function isAgentNotePath(path: string, folders: readonly string[]): boolean {
	return path.endsWith(".md") && !ignoreReason(path) && folders.some((folder) => isInside(path, folder) && path !== folder);
}

/** Null when `name` can be an agent note's file name, else why not (the palette's and the CLI's words). */
export function agentNameProblem(name: string): string | null {
	if (name === "") return "give the agent a name";
	if (safeFileSegment(name, "") === name) return null;
	return `agent name "${name.slice(0, 60)}" cannot be a file name: leave out / \\ : * ? " < > | # ^ [ ], control and invisible format characters, a leading dot and spaces at either end`;
}
