// Coalesces changes: the paths that changed (and whether the relay changed) are collected and
// rendered once per animation frame, so a burst of hundreds of changes is one render. While the
// view is hidden nothing renders; the changes wait and are rendered when it is shown again.

export interface Batch {
	/** Render every agent from scratch. */
	all: boolean;
	paths: Set<string>;
	relay: boolean;
}

/** A frame, or this long at most when frames are throttled (a background window). */
const FALLBACK_MS = 100;

export class RenderBatcher {
	private paths = new Set<string>();
	private all = false;
	private relay = false;
	private frame: number | null = null;
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
		const win = this.win();
		if (this.frame !== null) win.cancelAnimationFrame(this.frame);
		if (this.timer !== null) win.clearTimeout(this.timer);
		this.frame = null;
		this.timer = null;
	}

	private schedule(): void {
		if (this.frame !== null || this.timer !== null) return;
		const win = this.win();
		const run = () => {
			this.cancel();
			this.run();
		};
		if (typeof win.requestAnimationFrame === "function") this.frame = win.requestAnimationFrame(run);
		this.timer = win.setTimeout(run, FALLBACK_MS);
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
