import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isCode } from "./fs-facts";
import { readFileBytes } from "./file-ops";

// The CLI's private state on this device (docs/protocol.md, "One router at a time"): this device's
// id for each vault, the lock that keeps two `a2a route` of this user from routing one vault at once,
// and what it observed of the lease between runs. It lives in the user's private state folder
// ($XDG_STATE_HOME/a2a-relay, else ~/.local/state/a2a-relay), never in the vault (no sync service
// may carry it to another device) nor in the shared temporary folder (any local user could plant a
// lock or a link there). The folder must be this user's, a real folder (not a link), closed to
// everyone else (0700) and outside the vault; it is made so when missing. Files in it are read
// without following a link and written under fresh names, never through one.

/** Device state cannot be kept: `a2a route` refuses to route (exit 2) and says why. */
export class DeviceStateError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "DeviceStateError";
	}
}

/** The user's private state folder for a2a-relay, or null when there is none (no absolute home). */
export function stateFolder(env: NodeJS.ProcessEnv = process.env): string | null {
	if (env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)) return path.join(env.XDG_STATE_HOME, "a2a-relay");
	let home: string;
	try {
		home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : os.homedir();
	} catch {
		return null;
	}
	return path.isAbsolute(home) ? path.join(home, ".local", "state", "a2a-relay") : null;
}

const myUid = (): number | null => (typeof process.getuid === "function" ? process.getuid() : null);

/**
 * True for a file or folder of this user's that nobody else may read or write. Where the system has
 * no POSIX owners and modes (Windows: access is by ACL, and a folder under the user's profile is
 * private by default) there is nothing to check.
 */
export function ownedPrivately(st: fs.Stats): boolean {
	const uid = myUid();
	if (uid === null) return true;
	return st.uid === uid && (st.mode & 0o077) === 0;
}

const isInside = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : `${outer}${path.sep}`);

/** Where one vault's state lives in the state folder, and the folder itself, checked (and made when missing). */
export class DeviceState {
	private checked = false;

	constructor(
		readonly folder: string,
		private readonly vaultDir: string,
		private readonly root: string,
	) {}

	/** The state of `vaultDir`'s `root` in the folder of `env` (see stateFolder). */
	static of(vaultDir: string, root: string, env: NodeJS.ProcessEnv = process.env): DeviceState {
		const folder = stateFolder(env);
		if (folder === null) throw new DeviceStateError("this user has no home folder to keep the router's device state in: set XDG_STATE_HOME to a private folder");
		return new DeviceState(folder, fs.realpathSync(vaultDir), root);
	}

	/** A file name of this vault's: `<kind>-<key><ext>`, the key from the vault, the root and `extra`. */
	file(kind: string, ext: string, extra = ""): string {
		const key = createHash("sha256").update(`${this.vaultDir}\n${this.root}\n${extra}`).digest("hex").slice(0, 32);
		return path.join(this.folder, `${kind}-${key}${ext}`);
	}

	/** The folder, made when missing; refused unless it is this user's, a real folder, private and outside the vault. */
	ensureFolder(): string {
		if (this.checked) return this.folder;
		const inVault = () => new DeviceStateError(`${this.folder} is inside the vault: a sync service would carry this device's state to other devices. Set XDG_STATE_HOME to a folder outside the vault`);
		if (isInside(path.resolve(this.folder), this.vaultDir)) throw inVault();
		let st: fs.Stats;
		try {
			st = fs.lstatSync(this.folder);
		} catch (error) {
			if (!isCode(error, "ENOENT")) throw new DeviceStateError(`cannot use ${this.folder} for the router's device state: ${(error as Error).message}`);
			try {
				fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
				st = fs.lstatSync(this.folder);
			} catch (made) {
				throw new DeviceStateError(`cannot create ${this.folder} for the router's device state: ${(made as Error).message}`);
			}
		}
		if (!st.isDirectory()) throw new DeviceStateError(`${this.folder} holds the router's device state but is not a folder (a link or a file): remove it, or set XDG_STATE_HOME to a private folder`);
		if (!ownedPrivately(st)) {
			throw new DeviceStateError(`${this.folder} holds the router's device state but is not private to this user (it must be owned by this user with permissions 0700): run chmod 700 on it, or set XDG_STATE_HOME to a private folder`);
		}
		if (isInside(fs.realpathSync(this.folder), this.vaultDir)) throw inVault();
		this.checked = true;
		return this.folder;
	}
}

/** A regular file's text, read without following a link, when it is this user's and private; null when absent. "unusable" otherwise. */
export function readPrivate(file: string): string | null | "unusable" {
	let read;
	try {
		read = readFileBytes(file);
	} catch {
		return "unusable";
	}
	if (read === null) {
		try {
			fs.lstatSync(file);
			return "unusable"; // A link, a folder or another kind of file.
		} catch {
			return null;
		}
	}
	return ownedPrivately(read.st) ? read.bytes.toString("utf8") : "unusable";
}
