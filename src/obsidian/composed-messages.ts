import type { App } from "obsidian";

// The message_ids written in this app (composed, answered, forwarded, retried): by default only
// their rejections and timeouts notify. Kept in the app's local storage for this vault (it
// describes this device), newest last, bounded.

const KEY = "a2a-relay-composed";
const LIMIT = 500;

export class ComposedMessages {
	private readonly ids: string[];

	constructor(private readonly app: App) {
		const saved = app.loadLocalStorage(KEY) as unknown;
		this.ids = Array.isArray(saved) ? saved.filter((id): id is string => typeof id === "string").slice(-LIMIT) : [];
	}

	add(messageId: string | undefined): void {
		if (!messageId || this.ids.includes(messageId)) return;
		this.ids.push(messageId);
		if (this.ids.length > LIMIT) this.ids.splice(0, this.ids.length - LIMIT);
		this.app.saveLocalStorage(KEY, this.ids);
	}

	has(messageId: string | undefined): boolean {
		return messageId !== undefined && this.ids.includes(messageId);
	}
}
