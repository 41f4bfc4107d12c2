/// <reference types="obsidian" />
/**
 * The helpers Obsidian adds to the DOM prototypes and to the global scope (createEl, createDiv,
 * addClass, setText, empty, isShown, ...). `installDomHelpers(window)` installs them on any window:
 * happy-dom (setup-dom.ts) or a real browser (the Chromium test bundle). Types come from the
 * `declare global` block of the real obsidian.d.ts.
 */

type AttrValue = string | number | boolean | null;
type Info = DomElementInfo | SvgElementInfo | string | undefined;

interface DomWindow {
	document: Document;
	Node: { prototype: Node };
	Element: { prototype: Element };
	HTMLElement: { prototype: HTMLElement };
	DocumentFragment: { prototype: DocumentFragment };
	Document: { prototype: Document };
	SVGElement?: { prototype: SVGElement };
	getComputedStyle?: (el: Element) => CSSStyleDeclaration;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function define(target: object, name: string, value: unknown): void {
	Object.defineProperty(target, name, { value, configurable: true, writable: true, enumerable: false });
}

function defineGetter(target: object, name: string, get: () => unknown): void {
	Object.defineProperty(target, name, { get, configurable: true, enumerable: false });
}

function splitClasses(cls: string | string[]): string[] {
	return (Array.isArray(cls) ? cls : cls.split(" ")).filter((c) => c.length > 0);
}

function setAttrOn(el: Element, name: string, value: AttrValue): void {
	if (value === null) el.removeAttribute(name);
	else el.setAttribute(name, String(value));
}

function setTextOn(el: Node, val: string | DocumentFragment): void {
	if (typeof val === "string") {
		el.textContent = val;
	} else {
		while (el.firstChild) el.removeChild(el.firstChild);
		el.appendChild(val);
	}
}

function applyInfo(el: Element, o: Exclude<Info, string | undefined>): void {
	if (o.cls !== undefined) el.classList.add(...splitClasses(o.cls));
	if (o.attr) for (const [k, v] of Object.entries(o.attr)) setAttrOn(el, k, v);
	const info = o as DomElementInfo;
	if (info.text !== undefined) setTextOn(el, info.text);
	if (info.title !== undefined) el.setAttribute("title", info.title);
	if (info.type !== undefined) el.setAttribute("type", info.type);
	if (info.placeholder !== undefined) el.setAttribute("placeholder", info.placeholder);
	if (info.href !== undefined) el.setAttribute("href", info.href);
	if (info.value !== undefined) {
		if ("value" in el) (el as HTMLInputElement).value = info.value;
		else el.setAttribute("value", info.value);
	}
}

function place(el: Element, parent: Node | null | undefined, prepend: boolean | undefined): void {
	if (!parent) return;
	if (prepend) parent.insertBefore(el, parent.firstChild);
	else parent.appendChild(el);
}

function docOf(node: Node | undefined, win: DomWindow): Document {
	if (!node) return win.document;
	if (node.nodeType === 9) return node as Document;
	return node.ownerDocument ?? win.document;
}

function makeCreateEl(win: DomWindow) {
	return function createEl(this: Node | undefined, tag: string, o?: Info, callback?: (el: HTMLElement) => void): HTMLElement {
		const info = typeof o === "string" ? { cls: o } : o;
		const el = docOf(this, win).createElement(tag);
		if (info) applyInfo(el, info);
		place(el, info?.parent ?? (this && this !== (globalThis as unknown) ? this : undefined), info?.prepend);
		callback?.(el);
		return el;
	};
}

function makeCreateSvg(win: DomWindow) {
	return function createSvg(this: Node | undefined, tag: string, o?: Info, callback?: (el: SVGElement) => void): SVGElement {
		const info = typeof o === "string" ? { cls: o } : o;
		const el = docOf(this, win).createElementNS(SVG_NS, tag) as SVGElement;
		if (info) applyInfo(el, info);
		place(el, info?.parent ?? (this && this !== (globalThis as unknown) ? this : undefined), info?.prepend);
		callback?.(el);
		return el;
	};
}

/** Whether the element is attached and neither it nor an ancestor is hidden (attribute or display:none). */
function isShownImpl(el: HTMLElement, win: DomWindow): boolean {
	if (!el.isConnected) return false;
	for (let node: Element | null = el; node; node = node.parentElement) {
		if (node.hasAttribute("hidden")) return false;
		const style = (node as HTMLElement).style as CSSStyleDeclaration | undefined;
		if (style?.display === "none") return false;
		if (win.getComputedStyle) {
			try {
				if (win.getComputedStyle(node).display === "none") return false;
			} catch {
				// no computed style support
			}
		}
	}
	return true;
}

interface DelegatedListener {
	type: string;
	selector: string;
	listener: (ev: Event, delegateTarget: HTMLElement) => unknown;
	options?: boolean | AddEventListenerOptions;
	callback: EventListener;
}

const delegated = new WeakMap<EventTarget, DelegatedListener[]>();

function onImpl(this: HTMLElement | Document, type: string, selector: string, listener: (ev: Event, t: HTMLElement) => unknown, options?: boolean | AddEventListenerOptions): void {
	const callback: EventListener = (ev) => {
		const target = ev.target as Element | null;
		const match = target?.closest?.(selector) as HTMLElement | null | undefined;
		if (match && (this as Node).contains(match)) listener.call(this, ev, match);
	};
	const list = delegated.get(this) ?? [];
	list.push({ type, selector, listener, options, callback });
	delegated.set(this, list);
	this.addEventListener(type, callback, options);
}

function offImpl(this: HTMLElement | Document, type: string, selector: string, listener: (ev: Event, t: HTMLElement) => unknown, options?: boolean | AddEventListenerOptions): void {
	const list = delegated.get(this) ?? [];
	const kept: DelegatedListener[] = [];
	for (const d of list) {
		if (d.type === type && d.selector === selector && d.listener === listener) this.removeEventListener(type, d.callback, options);
		else kept.push(d);
	}
	delegated.set(this, kept);
}

/** Installs the helpers on the window's prototypes and the globals on `window` and `globalThis`. */
export function installDomHelpers(win: Window): void {
	const w = win as unknown as DomWindow;
	const createEl = makeCreateEl(w);
	const createSvg = makeCreateSvg(w);
	const node = w.Node.prototype;
	const element = w.Element.prototype;
	const html = w.HTMLElement.prototype;

	define(node, "createEl", createEl);
	define(node, "createDiv", function (this: Node, o?: Info, cb?: (el: HTMLElement) => void) {
		return createEl.call(this, "div", o, cb);
	});
	define(node, "createSpan", function (this: Node, o?: Info, cb?: (el: HTMLElement) => void) {
		return createEl.call(this, "span", o, cb);
	});
	define(node, "createSvg", createSvg);
	define(node, "empty", function (this: Node) {
		while (this.firstChild) this.removeChild(this.firstChild);
	});
	define(node, "detach", function (this: Node) {
		this.parentNode?.removeChild(this);
	});
	define(node, "appendText", function (this: Node, val: string) {
		this.appendChild(docOf(this, w).createTextNode(val));
	});
	define(node, "insertAfter", function <T extends Node>(this: Node, newNode: T, child: Node | null): T {
		this.insertBefore(newNode, child ? child.nextSibling : this.firstChild);
		return newNode;
	});
	define(node, "indexOf", function (this: Node, other: Node) {
		return Array.prototype.indexOf.call(this.childNodes, other);
	});
	define(node, "setChildrenInPlace", function (this: Node, children: Node[]) {
		while (this.firstChild) this.removeChild(this.firstChild);
		for (const c of children) this.appendChild(c);
	});
	define(node, "instanceOf", function (this: Node, type: abstract new () => unknown) {
		return this instanceof type;
	});
	defineGetter(node, "doc", function (this: Node) {
		return docOf(this, w);
	});
	defineGetter(node, "win", function (this: Node) {
		return docOf(this, w).defaultView ?? win;
	});
	defineGetter(node, "constructorWin", function () {
		return win;
	});

	define(element, "getText", function (this: Element) {
		return this.textContent ?? "";
	});
	define(element, "setText", function (this: Element, val: string | DocumentFragment) {
		setTextOn(this, val);
	});
	define(element, "addClass", function (this: Element, ...classes: string[]) {
		this.classList.add(...classes.flatMap((c) => splitClasses(c)));
	});
	define(element, "addClasses", function (this: Element, classes: string[]) {
		this.classList.add(...classes.flatMap((c) => splitClasses(c)));
	});
	define(element, "removeClass", function (this: Element, ...classes: string[]) {
		this.classList.remove(...classes.flatMap((c) => splitClasses(c)));
	});
	define(element, "removeClasses", function (this: Element, classes: string[]) {
		this.classList.remove(...classes.flatMap((c) => splitClasses(c)));
	});
	define(element, "toggleClass", function (this: Element, classes: string | string[], value: boolean) {
		for (const c of splitClasses(classes)) this.classList.toggle(c, value);
	});
	define(element, "hasClass", function (this: Element, cls: string) {
		return this.classList.contains(cls);
	});
	define(element, "setAttr", function (this: Element, name: string, value: AttrValue) {
		setAttrOn(this, name, value);
	});
	define(element, "setAttrs", function (this: Element, obj: Record<string, AttrValue>) {
		for (const [k, v] of Object.entries(obj)) setAttrOn(this, k, v);
	});
	define(element, "getAttr", function (this: Element, name: string) {
		return this.getAttribute(name);
	});
	define(element, "matchParent", function (this: Element, selector: string, lastParent?: Element) {
		for (let p = this.parentElement; p && p !== lastParent; p = p.parentElement) if (p.matches(selector)) return p;
		return null;
	});
	define(element, "getCssPropertyValue", function (this: Element, property: string) {
		return w.getComputedStyle ? w.getComputedStyle(this).getPropertyValue(property) : "";
	});
	define(element, "isActiveElement", function (this: Element) {
		return docOf(this, w).activeElement === this;
	});
	define(element, "find", function (this: Element, selector: string) {
		return this.querySelector(selector);
	});
	define(element, "findAll", function (this: Element, selector: string) {
		return Array.from(this.querySelectorAll(selector));
	});
	define(element, "findAllSelf", function (this: Element, selector: string) {
		const all = Array.from(this.querySelectorAll(selector));
		return this.matches(selector) ? [this, ...all] : all;
	});

	for (const proto of [html, w.SVGElement?.prototype].filter((p): p is HTMLElement | SVGElement => p !== undefined)) {
		define(proto, "setCssStyles", function (this: HTMLElement, styles: Partial<CSSStyleDeclaration>) {
			Object.assign(this.style, styles);
		});
		define(proto, "setCssProps", function (this: HTMLElement, props: Record<string, string>) {
			for (const [k, v] of Object.entries(props)) this.style.setProperty(k, v);
		});
	}
	define(html, "show", function (this: HTMLElement) {
		if (this.style.display === "none") this.style.removeProperty("display");
	});
	define(html, "hide", function (this: HTMLElement) {
		this.style.display = "none";
	});
	define(html, "toggle", function (this: HTMLElement, show: boolean) {
		if (show) {
			if (this.style.display === "none") this.style.removeProperty("display");
		} else {
			this.style.display = "none";
		}
	});
	define(html, "toggleVisibility", function (this: HTMLElement, visible: boolean) {
		this.style.visibility = visible ? "" : "hidden";
	});
	define(html, "isShown", function (this: HTMLElement) {
		return isShownImpl(this, w);
	});
	defineGetter(html, "innerWidth", function (this: HTMLElement) {
		return this.clientWidth;
	});
	defineGetter(html, "innerHeight", function (this: HTMLElement) {
		return this.clientHeight;
	});
	define(html, "onClickEvent", function (this: HTMLElement, listener: (ev: MouseEvent) => unknown, options?: boolean | AddEventListenerOptions) {
		this.addEventListener("click", listener as EventListener, options);
		this.addEventListener("auxclick", listener as EventListener, options);
	});
	define(html, "on", onImpl);
	define(html, "off", offImpl);
	define(w.Document.prototype, "on", onImpl);
	define(w.Document.prototype, "off", offImpl);
	define(html, "onNodeInserted", function (this: HTMLElement, listener: () => unknown, once?: boolean) {
		let wasConnected = this.isConnected;
		const timer = setInterval(() => {
			const connected = this.isConnected;
			if (connected && !wasConnected) {
				listener();
				if (once) clearInterval(timer);
			}
			wasConnected = connected;
		}, 10);
		return () => clearInterval(timer);
	});
	define(html, "onWindowMigrated", function () {
		return () => undefined;
	});
	define(html, "trigger", function (this: HTMLElement, eventType: string) {
		this.dispatchEvent(new (docOf(this, w).defaultView as unknown as typeof globalThis).Event(eventType, { bubbles: true }));
	});

	const fragment = w.DocumentFragment.prototype;
	define(fragment, "find", function (this: DocumentFragment, selector: string) {
		return this.querySelector(selector);
	});
	define(fragment, "findAll", function (this: DocumentFragment, selector: string) {
		return Array.from(this.querySelectorAll(selector));
	});

	const globals: Record<string, unknown> = {
		createEl: (tag: string, o?: Info, cb?: (el: HTMLElement) => void) => createEl.call(undefined, tag, o, cb),
		createDiv: (o?: Info, cb?: (el: HTMLElement) => void) => createEl.call(undefined, "div", o, cb),
		createSpan: (o?: Info, cb?: (el: HTMLElement) => void) => createEl.call(undefined, "span", o, cb),
		createSvg: (tag: string, o?: Info, cb?: (el: SVGElement) => void) => createSvg.call(undefined, tag, o, cb),
		createFragment: (cb?: (el: DocumentFragment) => void) => {
			const frag = w.document.createDocumentFragment();
			cb?.(frag);
			return frag;
		},
		fish: (selector: string) => w.document.querySelector(selector),
		fishAll: (selector: string) => Array.from(w.document.querySelectorAll(selector)),
		isBoolean: (obj: unknown) => typeof obj === "boolean",
		sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
		nextFrame: () => new Promise<void>((resolve) => setTimeout(resolve, 16)),
		ready: (fn: () => unknown) => fn(),
		activeWindow: win,
		activeDocument: w.document,
	};
	for (const target of new Set<object>([win, globalThis])) {
		for (const [name, value] of Object.entries(globals)) define(target, name, value);
	}
	installLanguageHelpers();
}

/** The small Array/String/Math/Object helpers Obsidian declares globally. */
function installLanguageHelpers(): void {
	const arr = Array.prototype as unknown as Record<string, unknown>;
	define(arr, "first", function (this: unknown[]) {
		return this[0];
	});
	define(arr, "last", function (this: unknown[]) {
		return this[this.length - 1];
	});
	define(arr, "contains", function (this: unknown[], target: unknown) {
		return this.includes(target);
	});
	define(arr, "remove", function (this: unknown[], target: unknown) {
		for (let i = this.indexOf(target); i >= 0; i = this.indexOf(target)) this.splice(i, 1);
	});
	define(arr, "unique", function (this: unknown[]) {
		return [...new Set(this)];
	});
	define(arr, "shuffle", function (this: unknown[]) {
		for (let i = this.length - 1; i > 0; i--) {
			const j = Math.floor(Math.random() * (i + 1));
			[this[i], this[j]] = [this[j], this[i]];
		}
		return this;
	});
	define(Array, "combine", (arrays: unknown[][]) => arrays.flat());
	define(String.prototype, "contains", function (this: string, target: string) {
		return this.includes(target);
	});
	define(String, "isString", (obj: unknown) => typeof obj === "string");
	define(Number, "isNumber", (obj: unknown) => typeof obj === "number");
	define(Math, "clamp", (value: number, min: number, max: number) => Math.min(max, Math.max(min, value)));
	define(Math, "square", (value: number) => value * value);
	define(Object, "isEmpty", (obj: Record<string, unknown>) => Object.keys(obj).length === 0);
	define(Object, "each", (obj: Record<string, unknown>, cb: (value: unknown, key?: string) => boolean | void) => {
		for (const [k, v] of Object.entries(obj)) if (cb(v, k) === false) return false;
		return true;
	});
}
