import { MAX_FRONTMATTER_BYTES } from "../core/protocol";
import { UnreadableNotes, isUnreadable, readNote } from "./unreadable-notes";
import type { NoteRead } from "./unreadable-notes";
import type { ReadFile, VaultPort } from "./vault-port";
import type { ProblemSource } from "./warnings-out";

// The message index's reads of notes, a head or a whole note: one that is there but cannot be read
// is said once while it lasts (src/router/unreadable-notes.ts), until a read of it succeeds or finds
// it gone. A head that reads does not end the problem of a note whose whole read failed last.

/** Enough of a note for its frontmatter (at most 8 KB, rule 3) and a quarantine block above it. */
const HEAD_BYTES = 4 * MAX_FRONTMATTER_BYTES;

export class NoteReads implements ProblemSource {
	/** Notes that are there but cannot be read: passed over, said once (takeProblems). */
	private readonly unreadable = new UnreadableNotes(
		(path, why) => `${path} cannot be read (${why}): the router goes on without what it says, and reads it again when it next looks at it`,
		() => this.onProblem(),
	);
	/** Called after each problem met (see warnings-out.ts). */
	onProblem: () => void = () => undefined;
	/** Notes whose whole read failed last (readWhole): a head read of them does not end their problem. */
	private readonly wholeFailed = new Set<string>();

	constructor(private readonly port: VaultPort) {}

	/** A note's head (its frontmatter): null when it is gone, `{ unreadable }` when it cannot be read (said once). */
	async head(path: string): Promise<NoteRead> {
		const read = await readNote(this.port, path, { maxBytes: HEAD_BYTES });
		if (read === null) {
			this.forget(path);
			return null;
		}
		if (isUnreadable(read)) {
			this.unreadable.problem(path, read.unreadable);
			return read;
		}
		// A head that reads does not make the whole note readable (a disk error past its first bytes).
		if (!this.wholeFailed.has(path)) this.unreadable.readable(path);
		return read;
	}

	/** A note read whole: null when it is gone, or when it cannot be read (said once). */
	async whole(path: string, options: { maxBytes?: number } = {}): Promise<ReadFile | null> {
		const read = await readNote(this.port, path, options);
		if (read !== null && isUnreadable(read)) {
			this.wholeFailed.add(path);
			this.unreadable.problem(path, read.unreadable);
			return null;
		}
		this.forget(path);
		return read;
	}

	/** Forgets what was said of a note (it reads, or it is gone): a later failure is said again. */
	forget(path: string): void {
		this.wholeFailed.delete(path);
		this.unreadable.readable(path);
	}

	/** What to tell a person of notes found unreadable since the last call, each once while it stays so. */
	takeProblems(): string[] {
		return this.unreadable.take();
	}
}
