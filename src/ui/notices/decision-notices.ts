import { Component, Notice } from "obsidian";
import type { App, TFile } from "obsidian";
import type { RoutingDecision } from "../../core/decision";
import { basename } from "../../core/paths";
import type { ComposedMessages } from "../../obsidian/composed-messages";
import { locateMessage } from "../../obsidian/message-locator";
import { NOTICE_BURST_MS } from "../../obsidian/notifier";
import type { RelayState } from "../../obsidian/relay-state";
import { ACTION_NAMES, NOTICE_TEXT, VIEW_TEXT } from "../strings";
import { messageNotice } from "./message-notice";

// Notices for messages that were rejected or timed out, read from the relay's latest decisions.
// Each links to the message where it is now (the dead-letter folder) and offers Retry…. By default
// only messages written in this app notify (Settings: Notices for every message). A burst becomes
// one notice that counts it. A pass the user started (Route now) says what it did itself.

const NOTIFYING = new Set(["rejected", "timed_out"]);

export interface NoticeSettings {
	showNotices: boolean;
	noticesForAll: boolean;
}

export class DecisionNotices extends Component {
	private readonly seen = new WeakSet<RoutingDecision>();
	private manual = 0;
	private held: { count: number; latest: RoutingDecision } | null = null;
	private lastShown = 0;
	private timer: number | null = null;

	constructor(
		private readonly app: App,
		private readonly state: RelayState,
		private readonly settings: () => NoticeSettings,
		private readonly composed: ComposedMessages,
		private readonly retry: (file: TFile) => void,
	) {
		super();
	}

	onload(): void {
		this.markSeen();
		this.registerEvent(this.state.onChanged(() => this.check()));
	}

	onunload(): void {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		this.held = null;
	}

	/** Runs a pass the user started: its decisions are reported by its own notice, not here. */
	async manualPass<T>(run: () => Promise<T>): Promise<T> {
		this.manual++;
		try {
			return await run();
		} finally {
			this.markSeen();
			this.manual--;
		}
	}

	private markSeen(): void {
		for (const d of this.state.recent()) this.seen.add(d);
	}

	private check(): void {
		const fresh = this.state.recent().filter((d) => !this.seen.has(d));
		for (const d of fresh) this.seen.add(d);
		if (this.manual > 0) return;
		const { showNotices, noticesForAll } = this.settings();
		if (!showNotices) return;
		// recent() is newest first: notify oldest first.
		for (const d of fresh.reverse()) if (NOTIFYING.has(d.outcome) && (noticesForAll || this.composed.has(d.message_id))) this.queue(d);
	}

	private queue(d: RoutingDecision): void {
		const now = Date.now();
		if (now - this.lastShown >= NOTICE_BURST_MS && this.held === null) {
			this.lastShown = now;
			this.show(d, 1);
			return;
		}
		this.held = { count: (this.held?.count ?? 0) + 1, latest: d };
		if (this.timer === null) this.timer = window.setTimeout(() => this.flush(), Math.max(0, NOTICE_BURST_MS - (now - this.lastShown)));
	}

	private flush(): void {
		this.timer = null;
		const held = this.held;
		this.held = null;
		if (!held) return;
		this.lastShown = Date.now();
		this.show(held.latest, held.count);
	}

	private show(d: RoutingDecision, count: number): void {
		const name = basename(d.path);
		const what = d.outcome === "timed_out" ? NOTICE_TEXT.timedOut : NOTICE_TEXT.rejected(d.error_code ?? "error");
		messageNotice(
			this.app,
			this.state,
			{
				before: count > 1 ? NOTICE_TEXT.burst(count) : "",
				ref: { messageId: d.message_id, path: d.path, name },
				after: `${what}${d.reason ?? ""}`,
				buttons: [{ text: ACTION_NAMES.retry, run: () => this.retryMessage(d, name) }],
			},
			12000,
		);
	}

	private retryMessage(d: RoutingDecision, name: string): void {
		const file = locateMessage(this.app, this.state, { messageId: d.message_id, path: d.path, name });
		if (file && this.state.layout().locate(file.path).area === "dead-letter") this.retry(file);
		else new Notice(VIEW_TEXT.missingNote(name));
	}
}
