import type { VaultPort } from "../router/vault-port";

// What the actions read and write through: the router's vault port plus two questions the
// plugin's forms ask. Inside Obsidian it is src/obsidian/action-vault.ts; the CLI's NodeVault has
// the same methods. Each action takes only the methods it uses.

export interface ActionVault extends Pick<VaultPort, "create" | "read" | "replace" | "remove" | "ensureFolder" | "move"> {
	/** True when a file or folder has the path (on disk too, not only in the app's file tree). */
	exists(path: string): Promise<boolean>;
	isFolder(path: string): Promise<boolean>;
}

/** Waits `ms` milliseconds (the caller's timer, so that actions need no global one). */
export type Wait = (ms: number) => Promise<void>;
