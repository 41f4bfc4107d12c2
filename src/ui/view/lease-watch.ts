import type { RouterLine } from "./flow-state";

// Two devices that both believe they route make the lease change hands again and again (each
// takes it over from the other). This counts the changes of holder seen within a window: three or
// more in ten minutes is a warning worth showing.

const WINDOW_MS = 10 * 60_000;
const FLIPS = 3;

export class LeaseWatch {
	private holder: string | null = null;
	private changes: number[] = [];

	/** Records what the router says now; true while the lease flips between devices. */
	observe(router: RouterLine, now: number): boolean {
		const holder = router.holderDevice;
		if (holder !== null && this.holder !== null && holder !== this.holder) this.changes.push(now);
		if (holder !== null) this.holder = holder;
		this.changes = this.changes.filter((t) => now - t < WINDOW_MS);
		return this.changes.length >= FLIPS;
	}
}
