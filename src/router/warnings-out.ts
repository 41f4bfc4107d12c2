// Where what the index and the log meet (a note that cannot be read, a log that cannot be appended
// to) is said, each once while it lasts: a pass puts what it met into its report; outside a pass it
// goes at once to the reader's sink, when one is set (every CLI session, `a2a serve`, `a2a mcp`;
// the plugin sets none and reads its pass reports).

/** A part of the router that meets problems and keeps them until taken. */
export interface ProblemSource {
	takeProblems(): string[];
	/** Called after each problem met. */
	onProblem: () => void;
}

export class WarningsOut {
	private passes = 0;
	private say: ((line: string) => void) | null = null;

	constructor(private readonly sources: readonly ProblemSource[]) {}

	/** What the sources met since the last call. */
	take(): string[] {
		return this.sources.flatMap((source) => source.takeProblems());
	}

	/** From now on, what is met outside a pass is said through `say` at once. */
	sayAsTheyCome(say: (line: string) => void): void {
		this.say = say;
		for (const source of this.sources) source.onProblem = () => this.flush();
		this.flush();
	}

	/** Runs a pass: what it meets is left for its report (it takes it), not said meanwhile. */
	async duringPass<T>(pass: () => Promise<T>): Promise<T> {
		this.passes++;
		try {
			return await pass();
		} finally {
			this.passes--;
			this.flush();
		}
	}

	private flush(): void {
		const say = this.say;
		if (say === null || this.passes > 0) return;
		for (const line of this.take()) {
			try {
				say(line);
			} catch {
				// A sink that fails (a closed stderr) never fails the read that met the problem.
			}
		}
	}
}
