import { promises as fs, realpathSync } from "node:fs";
import * as path from "node:path";
import { describeRegistryError } from "../src/core/registry";
import { safeRelativeFolder } from "../src/core/paths";
import { terminalText } from "../src/core/terminal-text";
import { Router } from "../src/router/router";
import type { RouterOptions } from "../src/router/router-options";
import { HistoryCacheFile, cacheFolder } from "../node/history-cache-file";
import { NodeVault } from "../node/node-vault";
import { UsageError, one } from "./args";
import type { ParsedArgs } from "./args";

// What every command starts from: the vault folder (`--vault`, default the current directory), the
// A2A root inside it (`--root`, default A2A), the Node vault adapter and a router over it.

/** Exit code 2: the vault or the registry cannot be used. */
export class VaultError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "VaultError";
	}
}

export interface Session {
	vault: NodeVault;
	router: Router;
	root: string;
	json: boolean;
	out: (line: string) => void;
	err: (line: string) => void;
}

/** The vault folder a command works on: `--vault DIR`, else the current folder, as an absolute path. */
export function vaultFolder(args: ParsedArgs): string {
	return path.resolve(one(args, "vault") ?? process.cwd());
}

/**
 * Creates the vault folder (and its parents) when nothing exists at its path, for `a2a init`; says
 * whether it did. Something that is not a folder is left for openSession to refuse.
 */
export async function createVaultFolderIfMissing(args: ParsedArgs): Promise<boolean> {
	const vaultDir = vaultFolder(args);
	try {
		await fs.stat(vaultDir);
		return false;
	} catch {
		try {
			await fs.mkdir(vaultDir, { recursive: true });
		} catch (error) {
			throw new VaultError(`cannot create the vault folder ${vaultDir}: ${(error as Error).message}`);
		}
		return true;
	}
}

/** The vault folder of `--vault` (or the current folder), checked to be an existing folder. */
export async function existingVaultFolder(args: ParsedArgs): Promise<string> {
	const vaultDir = vaultFolder(args);
	let stat;
	try {
		stat = await fs.stat(vaultDir);
	} catch {
		throw new VaultError(`the vault folder ${vaultDir} does not exist (give it with --vault DIR, or create it with a2a init --vault DIR)`);
	}
	if (!stat.isDirectory()) throw new VaultError(`${vaultDir} is not a folder (give the vault folder with --vault DIR)`);
	return vaultDir;
}

/** The A2A root of `--root` (default A2A), checked. */
export function rootFolder(args: ParsedArgs): string {
	const rawRoot = one(args, "root") ?? "A2A";
	const root = safeRelativeFolder(rawRoot);
	if (root === null) throw new UsageError(`--root must be a folder name inside the vault (no "..", no leading "/" or "."), got "${rawRoot}"`);
	return root;
}

export async function openSession(args: ParsedArgs, io: { out: (l: string) => void; err: (l: string) => void }, options: RouterOptions = {}): Promise<Session> {
	const vaultDir = await existingVaultFolder(args);
	const root = rootFolder(args);
	const vault = new NodeVault(vaultDir);
	const cache = cacheFolder();
	// A copy that cannot be kept is said only to a user who chose the folder (A2A_CACHE_DIR): otherwise commands just read the history whole.
	const said = process.env.A2A_CACHE_DIR ? (message: string) => io.err(`warning: ${message}`) : undefined;
	const historyCache = cache === null ? undefined : new HistoryCacheFile(cache, realpathSync(vaultDir), root, said);
	const router = new Router(vault, { historyCache, ...options, root });
	await router.loadRegistry();
	return { vault, router, root, json: args.booleans.has("json"), ...io };
}

/** Stops with exit code 2 when there is no usable registry; prints entry errors and says whether there were any. */
export function checkRegistry(session: Session): boolean {
	const { registry } = session.router;
	if (!registry.usable) {
		const why = registry.errors.map(describeRegistryError).join("; ");
		throw new VaultError(`no usable registry at ${path.join(session.vault.dir, session.router.layout.registryPath)}: ${why}. Run \`a2a init\` to create one.`);
	}
	for (const error of registry.errors) session.err(terminalText(`registry error: ${describeRegistryError(error)}`));
	for (const warning of registry.warnings) session.err(terminalText(`warning: ${warning}`));
	return registry.errors.length > 0;
}
