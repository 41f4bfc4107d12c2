/**
 * Suggesters. AbstractInputSuggest shows a `.suggestion-container` list under its input on every
 * 'input' event (ArrowUp/ArrowDown/Enter/Escape work on the input; a click picks an item).
 * SuggestModal/FuzzySuggestModal render into the modal with an input and `.prompt-results`.
 */
import type { App } from "./app";
import { Scope } from "./keymap";
import { Modal } from "./modal";
import { isThenable } from "./runtime";
import { prepareFuzzySearch, type SearchResult } from "./utils";

export interface Instruction {
	command: string;
	purpose: string;
}

export interface FuzzyMatch<T> {
	item: T;
	match: SearchResult;
}

/** Renders items into a container and tracks the selected one. */
class SuggestionList<T> {
	values: T[] = [];
	selected = 0;
	readonly containerEl: HTMLElement;
	private readonly render: (value: T, el: HTMLElement) => void;
	private readonly choose: (value: T, evt: MouseEvent | KeyboardEvent) => void;

	constructor(containerEl: HTMLElement, render: (value: T, el: HTMLElement) => void, choose: (value: T, evt: MouseEvent | KeyboardEvent) => void) {
		this.containerEl = containerEl;
		this.render = render;
		this.choose = choose;
	}

	set(values: T[]): void {
		this.values = values;
		this.selected = 0;
		this.containerEl.empty();
		values.forEach((value, i) => {
			const el = this.containerEl.createDiv({ cls: "suggestion-item" });
			this.render(value, el);
			el.addEventListener("mousedown", (evt) => evt.preventDefault());
			el.addEventListener("click", (evt) => this.choose(value, evt));
			el.addEventListener("mousemove", () => this.select(i));
		});
		this.select(0);
	}

	select(index: number): void {
		const items = Array.from(this.containerEl.children);
		if (items.length === 0) return;
		this.selected = ((index % items.length) + items.length) % items.length;
		items.forEach((el, i) => el.toggleClass("is-selected", i === this.selected));
	}

	chooseSelected(evt: MouseEvent | KeyboardEvent): boolean {
		const value = this.values[this.selected];
		if (value === undefined) return false;
		this.choose(value, evt);
		return true;
	}
}

export abstract class PopoverSuggest<T> {
	app: App;
	scope: Scope;
	/** Fake-only. */
	suggestEl: HTMLElement;
	/** Fake-only. */
	isOpen = false;
	protected readonly list: SuggestionList<T>;

	constructor(app: App, scope?: Scope) {
		this.app = app;
		this.scope = scope ?? new Scope();
		this.suggestEl = createDiv({ cls: "suggestion-container" });
		const container = this.suggestEl.createDiv({ cls: "suggestion" });
		this.list = new SuggestionList<T>(
			container,
			(value, el) => this.renderSuggestion(value, el),
			(value, evt) => this.selectSuggestion(value, evt),
		);
	}

	open(): void {
		if (this.isOpen) return;
		this.isOpen = true;
		document.body.appendChild(this.suggestEl);
	}

	close(): void {
		if (!this.isOpen) return;
		this.isOpen = false;
		this.suggestEl.detach();
	}

	abstract renderSuggestion(value: T, el: HTMLElement): void;

	abstract selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void;

	onHistoryBack(): void {
		this.close();
	}
}

export abstract class AbstractInputSuggest<T> extends PopoverSuggest<T> {
	limit = 100;
	/** Fake-only. */
	readonly textInputEl: HTMLInputElement | HTMLDivElement;
	private selectCb: ((value: T, evt: MouseEvent | KeyboardEvent) => unknown) | null = null;
	private requestId = 0;

	constructor(app: App, textInputEl: HTMLInputElement | HTMLDivElement) {
		super(app);
		this.textInputEl = textInputEl;
		textInputEl.addEventListener("input", () => this.onInputChanged());
		textInputEl.addEventListener("focus", () => this.onInputChanged());
		textInputEl.addEventListener("blur", () => this.close());
		textInputEl.addEventListener("keydown", (evt) => {
			if (!this.isOpen) return;
			const key = (evt as KeyboardEvent).key;
			if (key === "ArrowDown") this.list.select(this.list.selected + 1);
			else if (key === "ArrowUp") this.list.select(this.list.selected - 1);
			else if (key === "Enter") this.list.chooseSelected(evt as KeyboardEvent);
			else if (key === "Escape") this.close();
			else return;
			evt.preventDefault();
		});
	}

	setValue(value: string): void {
		if (this.textInputEl instanceof HTMLInputElement) this.textInputEl.value = value;
		else this.textInputEl.textContent = value;
	}

	getValue(): string {
		return this.textInputEl instanceof HTMLInputElement ? this.textInputEl.value : (this.textInputEl.textContent ?? "");
	}

	protected abstract getSuggestions(query: string): T[] | Promise<T[]>;

	/** Calls the onSelect callback (override to also fill the input and close). */
	selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
		if (this.selectCb) this.app.runtime.track(this.selectCb(value, evt), "suggest onSelect");
	}

	onSelect(callback: (value: T, evt: MouseEvent | KeyboardEvent) => unknown): this {
		this.selectCb = callback;
		return this;
	}

	/** Fake-only: the suggestions currently listed. */
	get shownSuggestions(): T[] {
		return this.isOpen ? this.list.values.slice() : [];
	}

	private onInputChanged(): void {
		const id = ++this.requestId;
		const result = this.getSuggestions(this.getValue());
		const show = (values: T[]): void => {
			if (id !== this.requestId) return;
			const limited = this.limit > 0 ? values.slice(0, this.limit) : values;
			if (limited.length === 0) {
				this.close();
				return;
			}
			this.list.set(limited);
			this.open();
			this.textInputEl.insertAdjacentElement("afterend", this.suggestEl);
		};
		if (isThenable(result)) this.app.runtime.track(Promise.resolve(result).then(show), "suggest getSuggestions");
		else show(result);
	}
}

export abstract class SuggestModal<T> extends Modal {
	limit = 100;
	emptyStateText = "No results found.";
	inputEl: HTMLInputElement;
	resultContainerEl: HTMLElement;
	/** Fake-only. */
	instructionsEl: HTMLElement;
	private readonly list: SuggestionList<T>;
	private requestId = 0;

	constructor(app: App) {
		super(app);
		this.modalEl.addClass("prompt");
		this.inputEl = this.modalEl.createEl("input", { cls: "prompt-input", type: "text" });
		this.resultContainerEl = this.modalEl.createDiv({ cls: "prompt-results" });
		this.instructionsEl = this.modalEl.createDiv({ cls: "prompt-instructions" });
		this.list = new SuggestionList<T>(
			this.resultContainerEl,
			(value, el) => this.renderSuggestion(value, el),
			(value, evt) => this.selectSuggestion(value, evt),
		);
		this.inputEl.addEventListener("input", () => this.updateSuggestions());
		this.scope.register([], "ArrowDown", () => {
			this.list.select(this.list.selected + 1);
			return false;
		});
		this.scope.register([], "ArrowUp", () => {
			this.list.select(this.list.selected - 1);
			return false;
		});
		this.scope.register([], "Enter", (evt) => {
			this.selectActiveSuggestion(evt);
			return false;
		});
	}

	open(): void {
		super.open();
		this.updateSuggestions();
		this.inputEl.focus();
	}

	setPlaceholder(placeholder: string): void {
		this.inputEl.placeholder = placeholder;
	}

	setInstructions(instructions: Instruction[]): void {
		this.instructionsEl.empty();
		for (const i of instructions) {
			const el = this.instructionsEl.createDiv({ cls: "prompt-instruction" });
			el.createSpan({ cls: "prompt-instruction-command", text: i.command });
			el.createSpan({ text: i.purpose });
		}
	}

	onNoSuggestion(): void {
		this.resultContainerEl.empty();
		this.resultContainerEl.createDiv({ cls: "suggestion-empty", text: this.emptyStateText });
	}

	/** Closes the modal, then calls onChooseSuggestion (Obsidian's order). */
	selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
		this.close();
		this.onChooseSuggestion(value, evt);
	}

	selectActiveSuggestion(evt: MouseEvent | KeyboardEvent): void {
		this.list.chooseSelected(evt);
	}

	/** Fake-only: the suggestions currently listed. */
	get shownSuggestions(): T[] {
		return this.list.values.slice();
	}

	abstract getSuggestions(query: string): T[] | Promise<T[]>;

	abstract renderSuggestion(value: T, el: HTMLElement): void;

	abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;

	private updateSuggestions(): void {
		const id = ++this.requestId;
		const show = (values: T[]): void => {
			if (id !== this.requestId) return;
			const limited = this.limit > 0 ? values.slice(0, this.limit) : values;
			if (limited.length === 0) {
				this.list.values = [];
				this.onNoSuggestion();
			} else {
				this.list.set(limited);
			}
		};
		const result = this.getSuggestions(this.inputEl.value);
		if (isThenable(result)) this.app.runtime.track(Promise.resolve(result).then(show), "SuggestModal.getSuggestions");
		else show(result);
	}
}

export abstract class FuzzySuggestModal<T> extends SuggestModal<FuzzyMatch<T>> {
	getSuggestions(query: string): FuzzyMatch<T>[] {
		const search = prepareFuzzySearch(query);
		const out: FuzzyMatch<T>[] = [];
		for (const item of this.getItems()) {
			const match = search(this.getItemText(item));
			if (match) out.push({ item, match });
		}
		if (query.trim() !== "") out.sort((a, b) => b.match.score - a.match.score);
		return out;
	}

	renderSuggestion(item: FuzzyMatch<T>, el: HTMLElement): void {
		el.setText(this.getItemText(item.item));
	}

	onChooseSuggestion(item: FuzzyMatch<T>, evt: MouseEvent | KeyboardEvent): void {
		this.onChooseItem(item.item, evt);
	}

	abstract getItems(): T[];

	abstract getItemText(item: T): string;

	abstract onChooseItem(item: T, evt: MouseEvent | KeyboardEvent): void;
}
