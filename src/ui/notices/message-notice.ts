import { Notice } from "obsidian";
import type { App } from "obsidian";
import { readFrontmatter } from "../../core/frontmatter";
import { basename } from "../../core/paths";
import type { ComposedMessages } from "../../obsidian/composed-messages";
import type { MessageRef } from "../../obsidian/message-locator";
import type { RelayState } from "../../obsidian/relay-state";
import { noteLink, openLinkTarget } from "../note-links";

// A notice that names a message by a link to where the message is when the link is clicked (the
// router moves notes on within milliseconds), with buttons for what can be done about it.

export interface NoticeButton {
	text: string;
	run(): void;
}

export interface MessageNoticeParts {
	before: string;
	ref: MessageRef;
	/** The link's text (the note's name by default). */
	linkText?: string;
	after?: string;
	buttons?: NoticeButton[];
}

/** Builds the notice's content; clicks resolve the link then (see note-links.ts). */
export function messageNoticeFragment(app: App, state: RelayState, parts: MessageNoticeParts): DocumentFragment {
	const fragment = createFragment();
	fragment.appendText(parts.before);
	const wrapper = fragment.createSpan({ cls: "a2a-notice-message" });
	const link = noteLink(wrapper, parts.ref, parts.linkText ?? parts.ref.name ?? basename(parts.ref.path ?? ""), "internal-link a2a-notice-link");
	link.addEventListener("click", (evt) => {
		evt.preventDefault();
		void openLinkTarget(app, state, link, false, (text) => new Notice(text));
	});
	if (parts.after) fragment.appendText(parts.after);
	if (parts.buttons && parts.buttons.length > 0) {
		const row = fragment.createDiv({ cls: "a2a-notice-buttons" });
		for (const button of parts.buttons) {
			const el = row.createEl("button", { cls: "a2a-notice-button", text: button.text });
			el.addEventListener("click", (evt) => {
				evt.stopPropagation();
				button.run();
			});
		}
	}
	return fragment;
}

export function messageNotice(app: App, state: RelayState, parts: MessageNoticeParts, duration = 10000): Notice {
	return new Notice(messageNoticeFragment(app, state, parts), duration);
}

/** The message_id of a note's text, if its frontmatter names one. */
export function messageIdOf(text: string): string | undefined {
	try {
		const id = readFrontmatter(text)?.message_id;
		return typeof id === "string" ? id : undefined;
	} catch {
		return undefined;
	}
}

/**
 * After a form wrote a message: remember it as composed here (its rejection or timeout will
 * notify) and show a notice linking to wherever it is when clicked.
 */
export function announceWritten(app: App, state: RelayState, composed: ComposedMessages, before: string, path: string, messageId: string | undefined): Notice {
	composed.add(messageId);
	return messageNotice(app, state, { before, ref: { messageId, path, name: basename(path) } });
}
