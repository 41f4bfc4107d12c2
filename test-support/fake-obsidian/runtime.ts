/**
 * Bookkeeping for one fake host: in-flight asynchronous work (so `settled()` can wait for it),
 * handler errors, live intervals and DOM listeners registered through Component, notices.
 *
 * Classes a plugin constructs itself (`new Events()`, `new Component()`, `new Notice()`) cannot be
 * told which host they belong to, so they report to the *current* runtime: the one of the most
 * recently created host.
 */

export interface RecordedError {
	source: string;
	error: unknown;
}

type Timer = ReturnType<typeof setTimeout>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return (
		(typeof value === "object" || typeof value === "function") &&
		value !== null &&
		typeof (value as { then?: unknown }).then === "function"
	);
}

export { isThenable };

let nextRuntimeId = 1;

export class Runtime {
	readonly id = nextRuntimeId++;
	/** Errors thrown (or rejected) by event handlers, command callbacks and other tracked work. */
	readonly errors: RecordedError[] = [];
	/** Every notice message shown (constructor and setMessage), in order. */
	readonly notices: string[] = [];
	/** Intervals registered with Component.registerInterval and not yet cleared by unload. */
	readonly intervals = new Set<unknown>();
	/** Live listeners registered with Component.registerDomEvent. */
	domListeners = 0;
	/** When false, console.error is not called for recorded errors (they are still recorded). */
	logErrors = true;

	private readonly pending = new Set<Promise<unknown>>();
	private readonly timers = new Map<Timer, () => void>();
	private disposed = false;

	/** Tracks a promise so settled() waits for it; a rejection is recorded, never rethrown. */
	track(value: unknown, source: string): void {
		if (!isThenable(value)) return;
		const p = Promise.resolve(value).then(
			() => undefined,
			(error: unknown) => this.recordError(source, error),
		);
		this.pending.add(p);
		void p.finally(() => this.pending.delete(p));
	}

	/** Like track(), but the caller still sees the original promise (with its rejection). */
	watch<T>(value: Promise<T>): Promise<T> {
		const p = value.then(
			() => undefined,
			() => undefined,
		);
		this.pending.add(p);
		void p.finally(() => this.pending.delete(p));
		return value;
	}

	recordError(source: string, error: unknown): void {
		this.errors.push({ source, error });
		if (this.logErrors) console.error(`[fake-obsidian] ${source}:`, error);
	}

	/** Runs fn after delayMs; settled() waits for the timer and for the promise fn returns. */
	schedule(delayMs: number, fn: () => unknown, source: string): void {
		if (this.disposed) return;
		let release: () => void = () => undefined;
		const done = new Promise<void>((resolve) => (release = resolve));
		this.pending.add(done);
		void done.finally(() => this.pending.delete(done));
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			if (this.disposed) return release();
			try {
				this.track(fn(), source);
			} catch (error) {
				this.recordError(source, error);
			}
			release();
		}, delayMs);
		this.timers.set(timer, release);
	}

	/** Runs fn in a microtask, tracked. */
	soon(fn: () => unknown, source: string): void {
		this.track(
			Promise.resolve().then(() => fn()),
			source,
		);
	}

	get busy(): boolean {
		return this.pending.size > 0;
	}

	/**
	 * Resolves once all tracked work has finished and a couple of macrotasks passed with
	 * nothing new tracked (untracked promise chains get a chance to run and enqueue more work).
	 */
	async settled(maxRounds = 10_000): Promise<void> {
		let quietRounds = 0;
		for (let round = 0; round < maxRounds; round++) {
			if (this.pending.size > 0) {
				quietRounds = 0;
				await Promise.all([...this.pending]);
				continue;
			}
			await new Promise<void>((resolve) => setTimeout(resolve, 0));
			if (this.pending.size === 0) {
				quietRounds++;
				if (quietRounds >= 2) return;
			}
		}
		throw new Error("fake-obsidian: settled() gave up: work keeps being scheduled (an endless event loop?)");
	}

	/** Cancels pending timers; later schedule() calls are ignored. */
	dispose(): void {
		this.disposed = true;
		for (const [timer, release] of this.timers) {
			clearTimeout(timer);
			release();
		}
		this.timers.clear();
	}
}

let current = new Runtime();

export function currentRuntime(): Runtime {
	return current;
}

export function setCurrentRuntime(runtime: Runtime): void {
	current = runtime;
}
