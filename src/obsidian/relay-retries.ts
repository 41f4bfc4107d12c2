import type { Router } from "../router/router";

// After routing failed, the relay tries again as a whole (the registry, every folder, a full pass)
// after a pause; changes that arrive during the pause wait for that retry, which reads them. Any full
// pass that completes ends the pause and hands the changes held back to the next batch.

/** The pause before work that failed is tried again; it doubles while the work keeps failing, up to the longest. */
const FIRST_RETRY_PAUSE_MS = 2000;
const MAX_RETRY_PAUSE_MS = 60_000;

/** When the relay tries failed work again, and the paths changed meanwhile, which that retry reads. */
export class RelayRetries {
	/** When work that failed is tried again (see Relay.enqueue), or null. */
	private retryAt: number | null = null;
	/** Paths changed while waiting for that retry: it reads them. */
	private readonly changedDuringPause = new Set<string>();
	private failedInARow = 0;

	/** Work failed: the next try comes after a pause that doubles while the work keeps failing. */
	failed(now: number): void {
		this.retryAt = now + Math.min(MAX_RETRY_PAUSE_MS, FIRST_RETRY_PAUSE_MS * 2 ** this.failedInARow);
		this.failedInARow++;
	}

	/** When the retry is due (epoch ms), or null when none is. */
	get at(): number | null {
		return this.retryAt;
	}

	/** The retry is due and starts: no other is until work fails again (the count of failures goes on until a full pass completes). */
	start(): void {
		this.retryAt = null;
	}

	/** Holds changed paths for the retry, which reads them (an in-place change would not show in a listing). */
	hold(paths: Iterable<string>): void {
		for (const path of paths) this.changedDuringPause.add(path);
	}

	/** After a failure: the registry read again, every folder listed again, the notes changed meanwhile read (held again if this fails too). */
	async readAgain(router: Router): Promise<void> {
		const changed = [...this.changedDuringPause];
		this.changedDuringPause.clear();
		try {
			await router.loadRegistry();
			await router.indexSync.ensureLive();
			await router.indexSync.rescan(true);
			for (const path of changed) await router.indexSync.refresh(path);
		} catch (error) {
			this.hold(changed);
			throw error;
		}
	}

	/** A full pass did what a retry would do: none is due and the count starts over; returns the paths held, for the next batch. */
	done(): string[] {
		const held = [...this.changedDuringPause];
		this.changedDuringPause.clear();
		this.retryAt = null;
		this.failedInARow = 0;
		return held;
	}
}
