/** Menu / MenuItem / MenuSeparator: a `.menu` in the body; clicking an item runs it and hides the menu. */
import { Component } from "./component";
import { setIcon } from "./icons";
import { currentRuntime } from "./runtime";

export interface MenuPositionDef {
	x: number;
	y: number;
	width?: number;
	overlap?: boolean;
	left?: boolean;
}

let lastShown: Menu | null = null;

/** Fake-only: the menu shown most recently (null once hidden). */
export function shownMenu(): Menu | null {
	return lastShown;
}

export class MenuItem {
	/** Fake-only. */
	readonly dom: HTMLElement;
	/** Fake-only. */
	title = "";
	/** Fake-only. */
	disabled = false;
	/** Fake-only. */
	checked: boolean | null = null;
	/** Fake-only. */
	section = "";
	private callback: ((evt: MouseEvent | KeyboardEvent) => unknown) | null = null;
	private readonly menu: Menu;

	/** Obsidian's constructor is private; menus create their items. */
	constructor(menu: Menu) {
		this.menu = menu;
		this.dom = createDiv({ cls: "menu-item" });
		this.dom.addEventListener("click", (evt) => this.handleEvent(evt));
	}

	setTitle(title: string | DocumentFragment): this {
		this.title = typeof title === "string" ? title : (title.textContent ?? "");
		let titleEl = this.dom.querySelector<HTMLElement>(".menu-item-title");
		titleEl ??= this.dom.createDiv({ cls: "menu-item-title" });
		titleEl.setText(title);
		return this;
	}

	setIcon(icon: string | null): this {
		if (icon) setIcon(this.dom, icon);
		return this;
	}

	setChecked(checked: boolean | null): this {
		this.checked = checked;
		this.dom.toggleClass("mod-checked", checked === true);
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		this.dom.toggleClass("is-disabled", disabled);
		return this;
	}

	setWarning(isWarning: boolean): this {
		this.dom.toggleClass("mod-warning", isWarning);
		return this;
	}

	setIsLabel(isLabel: boolean): this {
		this.dom.toggleClass("is-label", isLabel);
		return this;
	}

	setSection(section: string): this {
		this.section = section;
		return this;
	}

	onClick(callback: (evt: MouseEvent | KeyboardEvent) => unknown): this {
		this.callback = callback;
		return this;
	}

	/** Fake-only: what a click does. */
	handleEvent(evt: MouseEvent | KeyboardEvent): void {
		if (this.disabled) return;
		if (this.callback) currentRuntime().track(this.callback(evt), `menu item '${this.title}'`);
		this.menu.hide();
	}
}

export class MenuSeparator {
	readonly dom: HTMLElement = createDiv({ cls: "menu-separator" });
}

export class Menu extends Component {
	/** Fake-only. */
	readonly items: Array<MenuItem | MenuSeparator> = [];
	/** Fake-only. */
	readonly dom: HTMLElement;
	private hideCallbacks: Array<() => unknown> = [];
	private parentEl: HTMLElement | null = null;
	private shown = false;

	constructor() {
		super();
		this.dom = createDiv({ cls: "menu" });
	}

	setNoIcon(): this {
		return this;
	}

	setUseNativeMenu(useNativeMenu: boolean): this {
		void useNativeMenu;
		return this;
	}

	addItem(cb: (item: MenuItem) => unknown): this {
		const item = new MenuItem(this);
		this.items.push(item);
		this.dom.appendChild(item.dom);
		cb(item);
		return this;
	}

	addSeparator(): this {
		const sep = new MenuSeparator();
		this.items.push(sep);
		this.dom.appendChild(sep.dom);
		return this;
	}

	setParentElement(el: HTMLElement): this {
		this.parentEl = el;
		return this;
	}

	showAtMouseEvent(evt: MouseEvent): this {
		return this.showAtPosition({ x: evt.clientX, y: evt.clientY });
	}

	showAtPosition(position: MenuPositionDef, doc?: Document): this {
		(this.parentEl ?? (doc ?? document).body).appendChild(this.dom);
		this.dom.setCssStyles({ left: `${position.x}px`, top: `${position.y}px` });
		this.shown = true;
		lastShown = this;
		this.load();
		return this;
	}

	hide(): this {
		if (!this.shown) return this;
		this.shown = false;
		this.dom.detach();
		if (lastShown === this) lastShown = null;
		this.unload();
		for (const cb of this.hideCallbacks) cb();
		return this;
	}

	close(): void {
		this.hide();
	}

	onHide(callback: () => unknown): void {
		this.hideCallbacks.push(callback);
	}

	onHistoryBack(): void {
		this.hide();
	}

	/** Fake-only: the titles of the items, in order. */
	get titles(): string[] {
		return this.items.filter((i): i is MenuItem => i instanceof MenuItem).map((i) => i.title);
	}

	static forEvent(evt: PointerEvent | MouseEvent): Menu {
		void evt;
		return new Menu();
	}
}
