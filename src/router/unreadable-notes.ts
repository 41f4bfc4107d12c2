import type { ReadFile, VaultPort } from "./vault-port";

// A note that is there but cannot be read (its permissions, a failing disk) concerns that note
// alone: the router passes over it, says so once, and reads it again the next time it looks. Any
// other failure of a read (too many open files, no memory) concerns every note and still stops the
// step, as before: passing over notes for it could forget a message without a word.

/** The error codes (Node's, which Obsidian's desktop adapter passes on) that concern one file. */
const ONE_FILE: Record<string, string> = {
	EACCES: "permission denied",
	EPERM: "operation not permitted",
	EIO: "input/output error",
	ENXIO: "no such device",
	EAGAIN: "busy",
	EBUSY: "busy",
	ETXTBSY: "busy",
	EOVERFLOW: "too large",
	EFBIG: "too large",
};

/** Why a read failed, when the failure concerns that one file; null otherwise. */
export function oneFileProblem(error: unknown): string | null {
	const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
	return typeof code === "string" && code in ONE_FILE ? `${ONE_FILE[code]}, ${code}` : null;
}

/** How many things to say are kept at most until taken (the notes themselves are all remembered until read or gone). */
const REMEMBERED = 1000;

/** What a read found: the file, nothing (gone, or not a file), or a file that cannot be read and why. */
export type NoteRead = ReadFile | null | { unreadable: string };

/** Reads through `port`; a failure that concerns the one file is returned as `{ unreadable }`, any other is thrown. */
export async function readNote(port: VaultPort, path: string, options: { maxBytes?: number }): Promise<NoteRead> {
	try {
		return await port.read(path, options);
	} catch (error) {
		const why = oneFileProblem(error);
		if (why === null) throw error;
		return { unreadable: why };
	}
}

export function isUnreadable(read: NoteRead): read is { unreadable: string } {
	return read !== null && "unreadable" in read;
}

/**
 * The notes that could not be read, each said once while it stays so: `problem` records one (said
 * again only when the reason changes), `readable` forgets it once a read succeeds or finds it gone, `take` returns
 * what is new to say, as `say` put it.
 */
export class UnreadableNotes<T> {
	private readonly now = new Map<string, string>();
	private fresh: T[] = [];

	/** `told` is called after each new thing to say (a reader that says them at once takes them then). */
	constructor(
		private readonly say: (path: string, why: string) => T,
		private readonly told: () => void = () => undefined,
	) {}

	problem(path: string, why: string): void {
		if (this.now.get(path) === why) return;
		this.now.set(path, why);
		this.fresh.push(this.say(path, why));
		// Bounded, however rarely they are taken.
		if (this.fresh.length > REMEMBERED) this.fresh.shift();
		this.told();
	}

	readable(path: string): void {
		if (this.now.size > 0) this.now.delete(path);
	}

	take(): T[] {
		const fresh = this.fresh;
		this.fresh = [];
		return fresh;
	}
}
