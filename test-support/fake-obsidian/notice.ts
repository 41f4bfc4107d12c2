/** Notice: shown in a `.notice-container` in the body; every message is recorded for tests. */
import { currentRuntime, type Runtime } from "./runtime";

export interface NoticeRecord {
	notice: Notice;
	message: string;
	duration: number | undefined;
}

const history: NoticeRecord[] = [];

/** Every notice message shown in this process (constructor and setMessage), oldest first. */
export function noticeHistory(): readonly NoticeRecord[] {
	return history;
}

function containerFor(): HTMLElement {
	const existing = Array.from(document.body.children).find((c) => c.classList.contains("notice-container"));
	if (existing) return existing as HTMLElement;
	return document.body.createDiv({ cls: "notice-container" });
}

function textOf(message: string | DocumentFragment): string {
	return typeof message === "string" ? message : (message.textContent ?? "");
}

export class Notice {
	/** Fake-only: every notice message shown in this process, oldest first (see also host.notices). */
	static get history(): readonly NoticeRecord[] {
		return history;
	}

	noticeEl: HTMLElement;
	containerEl: HTMLElement;
	messageEl: HTMLElement;
	/** Fake-only. */
	readonly duration: number | undefined;
	private readonly runtime: Runtime;
	private timer: ReturnType<typeof setTimeout> | null = null;

	constructor(message: string | DocumentFragment, duration?: number) {
		this.runtime = currentRuntime();
		this.duration = duration;
		this.containerEl = containerFor();
		this.noticeEl = this.containerEl.createDiv({ cls: "notice" });
		this.messageEl = this.noticeEl.createDiv({ cls: "notice-message" });
		this.setMessage(message);
		if (duration !== 0) {
			this.timer = setTimeout(() => this.hide(), duration ?? 5000);
			(this.timer as { unref?: () => void }).unref?.();
		}
	}

	setMessage(message: string | DocumentFragment): this {
		// Read the text first: setText moves a fragment's nodes into the notice, emptying it.
		const text = textOf(message);
		this.messageEl.setText(message);
		history.push({ notice: this, message: text, duration: this.duration });
		this.runtime.notices.push(text);
		return this;
	}

	hide(): void {
		if (this.timer !== null) clearTimeout(this.timer);
		this.timer = null;
		this.noticeEl.detach();
	}

	/** Fake-only: the current text. */
	get message(): string {
		return this.messageEl.textContent ?? "";
	}
}
