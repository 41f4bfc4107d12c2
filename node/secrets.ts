import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SECRET_ID_RULE, isSecretId } from "../src/core/registry";
import { readFileBytes } from "./file-ops";
import { isCode } from "./fs-facts";

// Where the CLI finds a secret a registry entry names (`token_secret: <id>`, protocol section 2):
// the environment variable A2A_SECRET_<ID> (upper case, dashes as underscores), else the file <id>
// in the user's private configuration folder ($XDG_CONFIG_HOME/a2a-relay/secrets, else
// ~/.config/a2a-relay/secrets). Never a path the registry gives, never a file in the vault: the
// id is a plain file name by the one rule of core. Folder and file must be the user's own and
// closed to everyone else (no link is followed); otherwise the secret is refused, saying why. A
// secret's value never appears in a message.

/** The environment variable that may hold secret `id`. */
export function secretEnvName(id: string): string {
	return `A2A_SECRET_${id.toUpperCase().replace(/-/g, "_")}`;
}

/** The folder the CLI reads secrets from, or null when there is no home to find it in. */
export function secretsFolder(env: NodeJS.ProcessEnv = process.env): string | null {
	if (env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)) return path.join(env.XDG_CONFIG_HOME, "a2a-relay", "secrets");
	let home: string;
	try {
		// $HOME first, as os.homedir() reads it, from the environment given.
		home = env.HOME || os.homedir();
	} catch {
		return null;
	}
	return path.isAbsolute(home) ? path.join(home, ".config", "a2a-relay", "secrets") : null;
}

/** Why `st` (of `what`) is not private to this user, or null when it is. POSIX mode bits only mean something off Windows. */
function notPrivate(st: fs.Stats, what: string): string | null {
	if (process.platform === "win32") return null;
	const uid = typeof process.getuid === "function" ? process.getuid() : null;
	if (uid !== null && st.uid !== uid) return `${what} belongs to another user`;
	if ((st.mode & 0o077) !== 0) return `${what} can be read or written by others (mode ${(st.mode & 0o777).toString(8)}); run chmod ${st.isDirectory() ? "700" : "600"} on it`;
	return null;
}

function tokenOf(text: string, id: string, where: string): string {
	const token = text.trim();
	if (token === "" || /\s/.test(token)) throw new Error(`secret ${id} (${where}) must hold one token without spaces`);
	return token;
}

/** The value of secret `id` for the CLI; throws, saying what to do, when it is missing or refused. */
export function readSecret(id: string, env: NodeJS.ProcessEnv = process.env): string {
	if (!isSecretId(id)) throw new Error(`secret id ${JSON.stringify(id)} is not valid: ${SECRET_ID_RULE}`);
	const variable = secretEnvName(id);
	const fromEnv = env[variable];
	if (fromEnv !== undefined && fromEnv !== "") return tokenOf(fromEnv, id, variable);
	const folder = secretsFolder(env);
	if (folder === null) throw new Error(`secret ${id} is not set: set ${variable} (no home folder to read a secrets folder from)`);
	const file = path.join(folder, id);
	let folderStat: fs.Stats;
	try {
		folderStat = fs.lstatSync(folder);
	} catch (error) {
		if (isCode(error, "ENOENT", "ENOTDIR")) throw new Error(`secret ${id} is not set: put it in ${file} (folder mode 700, file mode 600) or set ${variable}`);
		throw error;
	}
	if (!folderStat.isDirectory()) throw new Error(`secret ${id} is refused: ${folder} must be a folder of yours, not a link or a file`);
	const folderProblem = notPrivate(folderStat, folder);
	if (folderProblem !== null) throw new Error(`secret ${id} is refused: ${folderProblem}`);
	let read: { bytes: Buffer; st: fs.Stats } | null;
	try {
		read = readFileBytes(file, 64 * 1024);
	} catch (error) {
		throw new Error(`secret ${id} cannot be read from ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
	}
	if (read === null) throw new Error(`secret ${id} is not set: put it in ${file} (a plain file, mode 600, not a link) or set ${variable}`);
	const fileProblem = notPrivate(read.st, file);
	if (fileProblem !== null) throw new Error(`secret ${id} is refused: ${fileProblem}`);
	return tokenOf(read.bytes.toString("utf8"), id, file);
}

/**
 * The origin secret `id` is pinned to, beside it (`<id>.origin`: a secret id has no dot, so no
 * secret has that name): the first address the CLI sent it to. A registry edited elsewhere that
 * moves the group's `url:` (or names this secret for another group) cannot have it sent to a new
 * address; the user deletes the pin to allow one. Nothing is pinned where there is no home folder.
 */
export function checkSecretOrigin(id: string, origin: string, env: NodeJS.ProcessEnv = process.env, again = true): void {
	const folder = secretsFolder(env);
	if (folder === null) return;
	const pin = path.join(folder, `${id}.origin`);
	let read: { bytes: Buffer; st: fs.Stats } | null;
	try {
		read = readFileBytes(pin, 4096);
	} catch (error) {
		throw new Error(`secret ${id}: ${pin} cannot be read: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
	}
	if (read !== null) {
		const problem = notPrivate(read.st, pin);
		if (problem !== null) throw new Error(`secret ${id} is refused: ${problem}`);
		const pinned = read.bytes.toString("utf8").trim();
		if (pinned === origin) return;
		throw new Error(`secret ${id} is only sent to ${pinned} (where it was first sent); the registry now names ${origin}: if the group really moved there, delete ${pin}`);
	}
	fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
	try {
		fs.writeFileSync(pin, `${origin}\n`, { flag: "wx", mode: 0o600 });
	} catch (error) {
		if (!isCode(error, "EEXIST")) throw error;
		// Something is at the pin's name that was not read as a file: a link, a folder, or a pin another
		// process wrote meanwhile. Only the last is checked again, and only once.
		const st = fs.lstatSync(pin, { throwIfNoEntry: false });
		if (!again || st === undefined || !st.isFile() || notPrivate(st, pin) !== null) {
			throw new Error(`secret ${id} is refused: ${pin} must be a plain file of yours: remove it`);
		}
		checkSecretOrigin(id, origin, env, false);
	}
}
