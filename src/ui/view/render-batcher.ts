// Coalesces changes: the paths that changed (and whether the relay changed) are collected for a
// frame's time and rendered at once, so a burst of hundreds of changes is one render. While the view
// is hidden nothing renders; the changes wait and are rendered when it is shown again.

export interface Batch {
	/** Render every agent from scratch. */
	all: boolean;
	paths: Set<string>;
	relay: boolean;
}

/** About one frame: changes arriving within it are rendered together. */
const COALESCE_MS = 16;

export class RenderBatcher {
	private paths = new Set<string>();
	private all = false;
	private relay = false;
	private timer: number | null = null;

	constructor(
		private readonly win: () => Window,
		private readonly visible: () => boolean,
		private readonly render: (batch: Batch) => void,
	) {}

	get pending(): boolean {
		return this.all || this.relay || this.paths.size > 0;
	}

	agents(paths: readonly string[]): void {
		for (const path of paths) this.paths.add(path);
		this.schedule();
	}

	everything(): void {
		this.all = true;
		this.relay = true;
		this.schedule();
	}

	relayChanged(): void {
		this.relay = true;
		this.schedule();
	}

	/** The view may have become visible: render what waited. */
	resume(): void {
		if (this.pending) this.schedule();
	}

	/** Renders now when visible (the view opening); else leaves the changes waiting. */
	flushNow(): void {
		this.cancel();
		this.run();
	}

	cancel(): void {
		if (this.timer !== null) this.win().clearTimeout(this.timer);
		this.timer = null;
	}

	private schedule(): void {
		if (this.timer !== null) return;
		// A timer rather than requestAnimationFrame: frames do not come while the window is in the
		// background or minimised, and in some hosts a "frame" is the next tick (no coalescing).
		this.timer = this.win().setTimeout(() => {
			this.timer = null;
			this.run();
		}, COALESCE_MS);
	}

	private run(): void {
		if (!this.pending || !this.visible()) return;
		const batch: Batch = { all: this.all, paths: this.paths, relay: this.relay };
		this.all = false;
		this.relay = false;
		this.paths = new Set();
		this.render(batch);
	}
}
