/**
 * Modal: open() puts containerEl in document.body, pushes its Scope and calls onOpen(); close()
 * pops the scope, removes the DOM and calls onClose(). Escape (a keydown reaching the document
 * while the modal is the innermost scope), the close button and the background close it.
 */
import type { App } from "./app";
import { Scope } from "./keymap";

const openModals = new Set<Modal>();

/** Fake-only: modals currently open (any host). */
export function currentModals(): Modal[] {
	return [...openModals];
}

export class Modal {
	app: App;
	scope: Scope;
	containerEl: HTMLElement;
	modalEl: HTMLElement;
	titleEl: HTMLElement;
	contentEl: HTMLElement;
	shouldRestoreSelection = false;
	/** Fake-only. */
	isOpen = false;
	private closeCallback: (() => unknown) | null = null;

	constructor(app: App) {
		this.app = app;
		this.scope = new Scope(app.scope);
		this.scope.register([], "Escape", () => {
			this.close();
			return false;
		});
		this.containerEl = createDiv({ cls: "modal-container mod-dim" });
		this.containerEl.createDiv({ cls: "modal-bg" }).addEventListener("click", () => this.close());
		this.modalEl = this.containerEl.createDiv({ cls: "modal" });
		this.modalEl.createDiv({ cls: "modal-close-button" }).addEventListener("click", () => this.close());
		const header = this.modalEl.createDiv({ cls: "modal-header" });
		this.titleEl = header.createDiv({ cls: "modal-title" });
		this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
	}

	open(): void {
		if (this.isOpen) return;
		this.isOpen = true;
		openModals.add(this);
		document.body.appendChild(this.containerEl);
		this.app.keymap.pushScope(this.scope);
		try {
			this.app.runtime.track(this.onOpen(), "Modal.onOpen");
		} catch (error) {
			this.app.runtime.recordError("Modal.onOpen", error);
		}
	}

	close(): void {
		if (!this.isOpen) return;
		this.isOpen = false;
		openModals.delete(this);
		this.app.keymap.popScope(this.scope);
		this.containerEl.detach();
		try {
			this.onClose();
			this.closeCallback?.();
		} catch (error) {
			this.app.runtime.recordError("Modal.onClose", error);
		}
	}

	onOpen(): Promise<void> | void {}

	onClose(): void {}

	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}

	setContent(content: string | DocumentFragment): this {
		this.contentEl.setText(content);
		return this;
	}

	setCloseCallback(callback: () => unknown): this {
		this.closeCallback = callback;
		return this;
	}

	onHistoryBack(): void {
		this.close();
	}
}
