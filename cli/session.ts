import { promises as fs, realpathSync, statSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeRegistryError } from "../src/core/registry";
import { safeRelativeFolder } from "../src/core/paths";
import { terminalText } from "../src/core/terminal-text";
import { MISSING_REGISTRY } from "../src/router/registry-loader";
import { Router } from "../src/router/router";
import type { RouterOptions } from "../src/router/router-options";
import { HistoryCacheFolder, cacheFolder } from "../node/history-cache-folder";
import { NodeVault } from "../node/node-vault";
import { UsageError, one } from "./args";
import type { ParsedArgs } from "./args";

// What every command starts from: the vault folder (`--vault`, else `$A2A_VAULT`, else the nearest
// folder upward holding the registry), the A2A root inside it (`--root`, default A2A), the Node
// vault adapter and a router over it.

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

/** Where the vault folder came from: the flag, the environment, or the search upward from the current folder. */
export type VaultSource = "--vault" | "A2A_VAULT" | "found" | "current folder";

export interface VaultChoice {
	dir: string;
	source: VaultSource;
}

/** `$A2A_VAULT`, when set to something; a leading `~/` (left by a quoted assignment or a client's config) is the home folder. */
function vaultFromEnv(): string | undefined {
	const value = process.env.A2A_VAULT;
	if (value === undefined || value.trim() === "") return undefined;
	return value === "~" || value.startsWith("~/") ? path.join(os.homedir(), value.slice(1)) : value;
}

/** `--vault DIR`, else `$A2A_VAULT`, as an absolute path; null when neither is given. */
function namedVault(args: ParsedArgs): VaultChoice | null {
	const flag = one(args, "vault");
	if (flag !== undefined && flag.trim() === "") throw new UsageError("--vault needs a folder (it was empty): give --vault DIR, or leave it out to use A2A_VAULT or the vault the current folder is in");
	if (flag !== undefined) return { dir: path.resolve(flag), source: "--vault" };
	const env = vaultFromEnv();
	return env === undefined ? null : { dir: path.resolve(env), source: "A2A_VAULT" };
}

function holdsRegistry(dir: string, root: string): boolean {
	for (const name of ["registry.yaml", "registry.md"]) {
		try {
			if (statSync(path.join(dir, ...root.split("/"), name)).isFile()) return true;
		} catch {
			// not here
		}
	}
	return false;
}

/** The nearest folder from `start` upward that holds `<root>/registry.yaml` or `<root>/registry.md`, as git finds its repository. */
export function findVaultUpward(start: string, root: string): string | null {
	for (let dir = path.resolve(start); ; ) {
		if (holdsRegistry(dir, root)) return dir;
		const parent = path.dirname(dir);
		if (parent === dir) return null;
		dir = parent;
	}
}

/**
 * A vault found upward is used only when its folder, its root folder and its registry belong to the
 * user running a2a (as git's safe.directory rule): a registry someone else planted above the current
 * folder (`/tmp/A2A/registry.yaml` on a shared machine) must not take this user's messages. A usage
 * error (exit 1) that says how to use it when it is really meant. Not checked on Windows.
 */
function checkFoundVaultOwned(dir: string, root: string): void {
	const uid = process.getuid?.();
	if (uid === undefined || process.platform === "win32") return;
	const rootDir = path.join(dir, ...root.split("/"));
	const registries = ["registry.yaml", "registry.md"].map((name) => path.join(rootDir, name));
	for (const item of [dir, rootDir, ...registries]) {
		let owner: number;
		try {
			owner = statSync(item).uid;
		} catch {
			continue; // only one registry file exists
		}
		if (owner !== uid) {
			throw new UsageError(
				terminalText(`the vault found upward at ${dir} is not yours (${item} belongs to user id ${owner}, you are ${uid}), so it is not used: if it is really meant, pass --vault ${dir} or set A2A_VAULT=${dir}`),
			);
		}
	}
}

/** The three ways to name a vault, for an error that found none (protocol section 6). */
export function noVaultMessage(root: string, cwd = process.cwd()): string {
	return (
		`no vault found: give --vault DIR, or set A2A_VAULT=DIR, or run a2a inside a vault ` +
		`(no folder from ${cwd} upward holds ${root}/registry.yaml or ${root}/registry.md). A new vault is made with a2a init --vault DIR`
	);
}

/**
 * The vault folder a command works on (protocol section 6): `--vault DIR`, else `$A2A_VAULT`, else
 * the nearest folder upward from the current one that holds the registry. Exit 2 when none.
 */
export function vaultFolder(args: ParsedArgs): VaultChoice {
	const named = namedVault(args);
	if (named) return named;
	const root = rootFolder(args);
	const found = findVaultUpward(process.cwd(), root);
	if (found === null) throw new VaultError(noVaultMessage(root));
	checkFoundVaultOwned(found, root);
	return { dir: found, source: "found" };
}

/**
 * Where `a2a init` makes a vault: `--vault DIR`, else `$A2A_VAULT`, else the vault the current folder
 * is inside (never a second vault within one), else the current folder.
 */
export function vaultFolderToCreate(args: ParsedArgs): VaultChoice {
	const named = namedVault(args);
	if (named) return named;
	const root = rootFolder(args);
	const found = findVaultUpward(process.cwd(), root);
	if (found !== null) checkFoundVaultOwned(found, root);
	return found !== null ? { dir: found, source: "found" } : { dir: process.cwd(), source: "current folder" };
}

/** How an error names a vault folder: with where it came from when that was not the flag. */
function named(choice: VaultChoice): string {
	return choice.source === "A2A_VAULT" ? `${choice.dir} (from A2A_VAULT)` : choice.dir;
}

/**
 * Creates the vault folder (and its parents) when nothing exists at its path, for `a2a init`; says
 * whether it did. Something that is not a folder is left for openSession to refuse.
 */
export async function createVaultFolderIfMissing(choice: VaultChoice): Promise<boolean> {
	const vaultDir = choice.dir;
	try {
		await fs.stat(vaultDir);
		return false;
	} catch {
		try {
			await fs.mkdir(vaultDir, { recursive: true });
		} catch (error) {
			throw new VaultError(`cannot create the vault folder ${named(choice)}: ${(error as Error).message}`);
		}
		return true;
	}
}

/** The vault folder (see vaultFolder), checked to be an existing folder. */
export async function existingVaultFolder(args: ParsedArgs, choice: VaultChoice = vaultFolder(args)): Promise<string> {
	const vaultDir = choice.dir;
	let stat;
	try {
		stat = await fs.stat(vaultDir);
	} catch {
		throw new VaultError(`the vault folder ${named(choice)} does not exist (give the vault with --vault DIR or A2A_VAULT, or create it with a2a init --vault DIR)`);
	}
	if (!stat.isDirectory()) throw new VaultError(`${named(choice)} is not a folder (give the vault folder with --vault DIR or A2A_VAULT)`);
	return vaultDir;
}

/** The A2A root of `--root` (default A2A), checked. */
export function rootFolder(args: ParsedArgs): string {
	const rawRoot = one(args, "root") ?? "A2A";
	const root = safeRelativeFolder(rawRoot);
	if (root === null) throw new UsageError(`--root must be a folder name inside the vault (no "..", no leading "/" or "."), got "${rawRoot}"`);
	return root;
}

export async function openSession(
	args: ParsedArgs,
	io: { out: (l: string) => void; err: (l: string) => void },
	options: RouterOptions = {},
	choice?: VaultChoice,
): Promise<Session> {
	const vaultDir = await existingVaultFolder(args, choice);
	const root = rootFolder(args);
	const vault = new NodeVault(vaultDir);
	const cache = cacheFolder();
	// A copy that cannot be kept is said only to a user who chose the folder (A2A_CACHE_DIR): otherwise commands just read the history whole.
	const said = process.env.A2A_CACHE_DIR ? (message: string) => io.err(`warning: ${message}`) : undefined;
	const historyCache = cache === null ? undefined : new HistoryCacheFolder(cache, realpathSync(vaultDir), root, said);
	const router = new Router(vault, { historyCache, ...options, root });
	// What the index and the log meet outside a routing pass (a note that cannot be read) is said at once.
	router.warnings.sayAsTheyCome((line) => io.err(terminalText(`warning: ${line}`)));
	await router.loadRegistry();
	return { vault, router, root, json: args.booleans.has("json"), ...io };
}

/** Stops with exit code 2 when there is no usable registry; prints entry errors and says whether there were any. */
export function checkRegistry(session: Session): boolean {
	const { registry } = session.router;
	if (!registry.usable) {
		const at = path.join(session.vault.dir, session.router.layout.registryPath);
		if (registry.errors.length === 1 && registry.errors[0].message === MISSING_REGISTRY) {
			throw new VaultError(`no registry at ${at} (nor ${session.router.layout.registryNotePath}): create it with a2a init --vault ${session.vault.dir}, or name the vault you meant with --vault DIR or A2A_VAULT`);
		}
		const why = registry.errors.map(describeRegistryError).join("; ");
		throw new VaultError(`no usable registry at ${at}: ${why}`);
	}
	for (const error of registry.errors) session.err(terminalText(`registry error: ${describeRegistryError(error)}`));
	for (const warning of registry.warnings) session.err(terminalText(`warning: ${warning}`));
	return registry.errors.length > 0;
}
