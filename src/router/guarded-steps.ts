import type { PassReport } from "./pass-context";
import { UnreadableNotes, oneFileProblem } from "./unreadable-notes";

// A step of a pass that fails is reported and the pass goes on: one bad file never stops the router.
// A failure that concerns the file alone (src/router/unreadable-notes.ts) is said once while it lasts.

export class GuardedSteps {
	/** Files a step could not read or write for a reason of their own: said once while it lasts. */
	private readonly stuckFiles = new UnreadableNotes((path, why) => ({ path, error: `${why}: it stays as it is, and is tried again at every pass` }));

	/** `root`: the vault's root folder, the path the vault-wide steps share. */
	constructor(private readonly root: () => string) {}

	/** Runs one step; a failure goes into `report` (see above). */
	async run(path: string, report: PassReport, step: () => Promise<void>): Promise<void> {
		try {
			await step();
			// The vault-wide steps (housekeeping, the history copy's refresh) share the root as their path:
			// one's success says nothing of the file another could not read.
			if (path !== this.root()) this.stuckFiles.readable(path);
		} catch (error) {
			const why = oneFileProblem(error);
			if (why === null) report.failures.push({ path, error: error instanceof Error ? error.message : String(error) });
			else {
				this.stuckFiles.problem(path, why);
				report.failures.push(...this.stuckFiles.take());
			}
		}
	}
}
