import { Notice } from "obsidian";

// Notices for routing problems, rate-limited: a burst of bad files becomes one notice that counts
// them, never a screen full.

/** Notices of one kind closer together than this are folded into one that counts them (every notice of the plugin). */
export const NOTICE_BURST_MS = 3000;

export class Notifier {
	private lastShown = new Map<string, number>();
	private held = new Map<string, { count: number; latest: string }>();
	private timers = new Map<string, number>();

	constructor(private readonly enabled: () => boolean) {}

	/** Shows `text` now, or folds it into the next summary when this kind was shown recently. */
	notify(kind: string, text: string, summary: (count: number, latest: string) => string): void {
		if (!this.enabled()) return;
		const now = Date.now();
		const last = this.lastShown.get(kind) ?? 0;
		if (now - last >= NOTICE_BURST_MS && !this.held.has(kind)) {
			this.lastShown.set(kind, now);
			new Notice(text, 8000);
			return;
		}
		const held = this.held.get(kind) ?? { count: 0, latest: text };
		held.count += 1;
		held.latest = text;
		this.held.set(kind, held);
		if (!this.timers.has(kind)) {
			const timer = window.setTimeout(() => this.flush(kind, summary), Math.max(0, NOTICE_BURST_MS - (now - last)));
			this.timers.set(kind, timer);
		}
	}

	private flush(kind: string, summary: (count: number, latest: string) => string): void {
		this.timers.delete(kind);
		const held = this.held.get(kind);
		this.held.delete(kind);
		if (!held || !this.enabled()) return;
		this.lastShown.set(kind, Date.now());
		new Notice(held.count === 1 ? held.latest : summary(held.count, held.latest), 8000);
	}

	/** Cancels pending summaries (on unload). */
	clear(): void {
		for (const timer of this.timers.values()) window.clearTimeout(timer);
		this.timers.clear();
		this.held.clear();
	}
}
