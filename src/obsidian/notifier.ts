import { Notice } from "obsidian";

// Notices for routing problems, rate-limited: a burst of bad files becomes one notice that counts
// them, never a screen full.

const WINDOW_MS = 3000;

/**
 * Kinds another part shows better: a rejected or timed-out message gets a notice with a link to
 * where it is now and a Retry… button (src/ui/notices/decision-notices.ts reads the relay's
 * decisions), so the relay's plain-text notice for it is not shown.
 */
const SHOWN_ELSEWHERE: ReadonlySet<string> = new Set(["rejected"]);

export class Notifier {
	private lastShown = new Map<string, number>();
	private held = new Map<string, { count: number; latest: string }>();
	private timers = new Map<string, number>();

	constructor(private readonly enabled: () => boolean) {}

	/** Shows `text` now, or folds it into the next summary when this kind was shown recently. */
	notify(kind: string, text: string, summary: (count: number, latest: string) => string): void {
		if (!this.enabled() || SHOWN_ELSEWHERE.has(kind)) return;
		const now = Date.now();
		const last = this.lastShown.get(kind) ?? 0;
		if (now - last >= WINDOW_MS && !this.held.has(kind)) {
			this.lastShown.set(kind, now);
			new Notice(text, 8000);
			return;
		}
		const held = this.held.get(kind) ?? { count: 0, latest: text };
		held.count += 1;
		held.latest = text;
		this.held.set(kind, held);
		if (!this.timers.has(kind)) {
			const timer = window.setTimeout(() => this.flush(kind, summary), Math.max(0, WINDOW_MS - (now - last)));
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
