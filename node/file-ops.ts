import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { NO_FOLLOW, NO_LINKS, NO_WAIT, isCode } from "./fs-facts";

// The file-system idioms NodeVault is built from, on absolute paths: synchronous calls, errors read
// from their codes, symbolic links never followed, and no call that can replace an existing file
// but the rename of a temporary file over the very file it stands in for.

/** Our temporary files: `.a2a-<pid>-<n>-<start of the name>.tmp`, removed by the router once stale. */
const TEMP_PREFIX = ".a2a-";
let tempCounter = 0;

/** A fresh temporary name next to `full`. */
export function tempPathFor(full: string): string {
	tempCounter += 1;
	// The start of the name is enough to recognise it; the whole of a long name plus the prefix
	// would be too long to create.
	const slash = full.lastIndexOf(path.sep);
	const name = full.slice(slash + 1);
	const start = (name.length <= 40 ? name : Array.from(name).slice(0, 40).join("")).replace(/^\.+/, "");
	return `${full.slice(0, slash)}${path.sep}${TEMP_PREFIX}${process.pid}-${tempCounter}-${start}.tmp`;
}

/**
 * Creates `full` holding `content`; EEXIST when a file (or a link) has that name. The encoding is
 * given so that Node writes a string in one call (open, write, close natively): options without it
 * take the slower path through a Buffer copy and three calls.
 */
export function writeNew(full: string, content: string | Buffer, mode = 0o666): void {
	fs.writeFileSync(full, content, { flag: "wx", encoding: "utf8", mode });
}

/**
 * writeNew, through a descriptor: also returns the created file's fstat (its device and inode name
 * it wherever a swapped folder put it). One fstat more than writeNew.
 */
export function writeNewFile(full: string, content: string | Buffer, mode = 0o666): fs.Stats {
	const fd = fs.openSync(full, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW, mode);
	try {
		const st = fs.fstatSync(fd);
		const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
		let done = 0;
		while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
		return st;
	} finally {
		fs.closeSync(fd);
	}
}

export function unlinkQuietly(full: string): void {
	try {
		fs.unlinkSync(full);
	} catch (error) {
		if (!isCode(error, "ENOENT")) throw error;
	}
}

/** The lstat of a regular file, or null (missing, a folder, a link). */
export function lstatFile(full: string): fs.Stats | null {
	try {
		const st = fs.lstatSync(full);
		return st.isFile() ? st : null;
	} catch (error) {
		if (isCode(error, "ENOENT", "ENOTDIR")) return null;
		throw error;
	}
}

/**
 * A config file's whole text (`.obsidian/…`: links followed, as Obsidian follows them), or null when
 * there is none or it is not a regular file; like every open of a vault path, it never waits on a pipe.
 */
export async function readConfigText(full: string): Promise<string | null> {
	let handle: fs.promises.FileHandle;
	try {
		handle = await fs.promises.open(full, fs.constants.O_RDONLY | NO_WAIT);
	} catch (error) {
		if (isCode(error, "ENOENT", "ENOTDIR")) return null;
		throw error;
	}
	try {
		return (await handle.stat()).isFile() ? await handle.readFile("utf8") : null;
	} finally {
		await handle.close();
	}
}

/** A regular file's bytes (at most `maxBytes`) and its fstat; null when it is not one. */
export function readFileBytes(full: string, maxBytes?: number): { bytes: Buffer; st: fs.Stats } | null {
	let fd: number;
	try {
		fd = fs.openSync(full, fs.constants.O_RDONLY | NO_FOLLOW | NO_WAIT);
	} catch (error) {
		if (isCode(error, "ENOENT", "ENOTDIR", "ELOOP", "EISDIR")) return null;
		throw error;
	}
	try {
		const st = fs.fstatSync(fd);
		if (!st.isFile()) return null;
		const wanted = maxBytes !== undefined ? Math.min(st.size, maxBytes) : st.size;
		const bytes = Buffer.allocUnsafe(wanted);
		let got = 0;
		while (got < wanted) {
			const n = fs.readSync(fd, bytes, got, wanted - got, got);
			if (n === 0) break;
			got += n;
		}
		return { bytes: got === wanted ? bytes : bytes.subarray(0, got), st };
	} finally {
		fs.closeSync(fd);
	}
}

/** Exclusive create where the file system has no hard links: never overwrites, but is not atomic for readers. */
function createWithoutLinks(full: string, content: string | Buffer): fs.Stats | null {
	try {
		return writeNewFile(full, content);
	} catch (error) {
		if (isCode(error, "EEXIST")) return null;
		throw error;
	}
}

/**
 * Puts the written temporary file `temp` (holding `content`) at `full` unless a file has that name:
 * link() never replaces one. True when it did. The temporary name is gone afterwards either way.
 */
export function linkIntoPlace(temp: string, full: string, content: string | Buffer): boolean {
	return placeFile(temp, full, content) !== null;
}

/**
 * linkIntoPlace, saying what is at `full` when it placed it: "linked" (the temporary file itself),
 * or the fstat of the file written there directly where the file system has no hard links.
 */
export function placeFile(temp: string, full: string, content: string | Buffer): "linked" | fs.Stats | null {
	try {
		return linkOrCreate(temp, full, content);
	} finally {
		unlinkQuietly(temp);
	}
}

/**
 * placeFile without removing the temporary name, for a caller that tries one written file at
 * several names in turn (a taken name costs one link, not a file written again); the caller
 * unlinks `temp` once done.
 */
export function linkOrCreate(temp: string, full: string, content: string | Buffer): "linked" | fs.Stats | null {
	try {
		fs.linkSync(temp, full);
		return "linked";
	} catch (error) {
		if (isCode(error, "EEXIST")) return null;
		if (!isCode(error, ...NO_LINKS)) throw error;
		return createWithoutLinks(full, content);
	}
}

/** True when `full` is a plain file (not a link) holding exactly `content`. */
export function holdsBytes(full: string, content: Buffer): boolean {
	try {
		const read = readFileBytes(full);
		return read !== null && read.st.size === content.length && read.bytes.equals(content);
	} catch {
		return false;
	}
}

/**
 * Writes `content` at `full` whole, over what is there (a file this user's tools own, never a
 * note): a fresh temporary file beside it, never through a link, renamed over it.
 */
export function writeWhole(full: string, content: string, mode = 0o644): void {
	const temp = `${full}.${randomBytes(8).toString("hex")}.tmp`;
	try {
		writeNew(temp, content, mode);
		fs.renameSync(temp, full);
	} catch (error) {
		fs.rmSync(temp, { force: true });
		throw error;
	}
}
