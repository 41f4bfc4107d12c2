import * as fs from "node:fs";
import * as path from "node:path";
import { holdsLines } from "../src/core/text";
import { NO_FOLLOW, NO_WAIT } from "./fs-facts";

// Appends through a descriptor kept open until `flush` (a pass appends one log row per decision):
// a write() reaches the kernel at once, so a killed process loses no row it wrote. The file is read
// only when something else wrote it since this appender's last append (its inode or size differs),
// to see whether it holds the lines already; a file a sync engine replaced is reopened.

type Known = { ino: number; size: number };

/** True when `now` is the file `known` recorded (same inode, same size): nothing else wrote it since. */
function sameFile(known: Known | undefined, now: Known | null | undefined): boolean {
	return known !== undefined && !!now && now.ino === known.ino && now.size === known.size;
}

export interface AppendTarget {
	/** The file's lstat now (null when missing). */
	stat(): fs.Stats | null;
	/** Creates the file with `text` when no file has the name (never over another); true when it did. */
	create(text: string): Promise<boolean>;
	/** Refuses (throws) when the file's folder leads outside the vault. */
	assertInside(): void;
	/** Refuses (throws) unless the file opened (its fstat) is at its name and inside the vault. */
	assertOpened(opened: fs.Stats): void;
}

/**
 * The fstat of a log just opened, or (descriptor closed) why it is refused: O_NOFOLLOW stops a
 * symbolic link, not a hard link, and a name that is one of several links of a file may share it with
 * a file outside the vault; and a folder swapped between the check and the open leads elsewhere.
 */
function checkOpened(fd: number, full: string, target: AppendTarget): fs.Stats {
	try {
		const opened = fs.fstatSync(fd);
		if (!opened.isFile()) throw new Error(`${path.basename(full)} is not a file: nothing is appended to it; remove it, and the log is made anew`);
		if (opened.nlink !== 1) throw new Error(`${path.basename(full)} is one of ${opened.nlink} hard links to one file (the others may be outside the vault): nothing is appended to it; make it a file of its own`);
		target.assertOpened(opened);
		return opened;
	} catch (error) {
		fs.closeSync(fd);
		throw error;
	}
}

export class LogAppender {
	private readonly open = new Map<string, number>();
	/** Each appended file's inode and size after this appender's last append to it. */
	private readonly known = new Map<string, Known>();

	async append(full: string, target: AppendTarget, text: string, header: string): Promise<"appended" | "present"> {
		// Checked at every append, also through a descriptor kept open: the folder may have been swapped for a link since.
		target.assertInside();
		const now = target.stat();
		const known = this.known.get(full);
		let fd = this.open.get(full);
		if (fd !== undefined && !sameFile(known, now)) {
			fs.closeSync(fd);
			this.open.delete(full);
			fd = undefined;
		}
		if (fd === undefined) {
			if (!now && (await target.create(header + text))) {
				const made = target.stat();
				if (made) this.known.set(full, { ino: made.ino, size: made.size });
				return "appended";
			}
			fd = fs.openSync(full, fs.constants.O_RDWR | fs.constants.O_APPEND | NO_FOLLOW | NO_WAIT);
			const opened = checkOpened(fd, full, target);
			this.open.set(full, fd);
			this.known.set(full, { ino: opened.ino, size: opened.size });
			if (!sameFile(known, opened) && holdsLines(fs.readFileSync(fd, "utf8"), text)) return "present";
		}
		(this.known.get(full) as Known).size += fs.writeSync(fd, text);
		return "appended";
	}

	/** Closes the descriptors (what it knows of each file stays, so an unchanged log is not read again). */
	flush(): void {
		for (const fd of this.open.values()) fs.closeSync(fd);
		this.open.clear();
	}
}
