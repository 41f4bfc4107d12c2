/** Obsidian's `Component`: load/unload lifecycle, children, and registrations undone on unload. */
import type { EventRef } from "./events";
import { currentRuntime, isThenable, type Runtime } from "./runtime";

const loadPromises = new WeakMap<Component, Promise<unknown>>();

/** The promise returned by the last onload() of this component (async onload), if any. */
export function loadPromiseOf(component: Component): Promise<unknown> | undefined {
	return loadPromises.get(component);
}

export class Component {
	private _loaded = false;
	private readonly _children: Component[] = [];
	private readonly _cleanups: Array<() => unknown> = [];

	/** Loads this component (calls onload) and then its children. */
	load(): void {
		if (this._loaded) return;
		this._loaded = true;
		const result: unknown = this.onload();
		if (isThenable(result)) {
			const p = Promise.resolve(result);
			loadPromises.set(this, p);
			currentRuntime().watch(p);
		}
		for (const child of this._children.slice()) child.load();
	}

	onload(): void | Promise<void> {}

	/** Unloads children, runs every registered cleanup (newest first), then onunload. */
	unload(): void {
		if (!this._loaded) return;
		this._loaded = false;
		while (this._children.length > 0) this._children.pop()?.unload();
		while (this._cleanups.length > 0) {
			const cleanup = this._cleanups.pop();
			try {
				cleanup?.();
			} catch (error) {
				currentRuntime().recordError("Component cleanup", error);
			}
		}
		this.onunload();
	}

	onunload(): void {}

	addChild<T extends Component>(component: T): T {
		this._children.push(component);
		if (this._loaded) component.load();
		return component;
	}

	removeChild<T extends Component>(component: T): T {
		const i = this._children.indexOf(component);
		if (i >= 0) {
			this._children.splice(i, 1);
			component.unload();
		}
		return component;
	}

	register(cb: () => unknown): void {
		this._cleanups.push(cb);
	}

	registerEvent(eventRef: EventRef): void {
		this.register(() => eventRef.e.offref(eventRef));
	}

	registerDomEvent<K extends keyof WindowEventMap>(el: Window, type: K, callback: (this: HTMLElement, ev: WindowEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
	registerDomEvent<K extends keyof DocumentEventMap>(el: Document, type: K, callback: (this: HTMLElement, ev: DocumentEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
	registerDomEvent<K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, callback: (this: HTMLElement, ev: HTMLElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
	registerDomEvent(el: EventTarget, type: string, callback: (this: HTMLElement, ev: Event) => unknown, options?: boolean | AddEventListenerOptions): void {
		const runtime: Runtime = currentRuntime();
		const listener = callback as unknown as EventListener;
		el.addEventListener(type, listener, options);
		runtime.domListeners++;
		this.register(() => {
			el.removeEventListener(type, listener, options);
			runtime.domListeners--;
		});
	}

	registerInterval(id: number): number {
		const runtime = currentRuntime();
		runtime.intervals.add(id);
		this.register(() => {
			window.clearInterval(id);
			runtime.intervals.delete(id);
		});
		return id;
	}

	/** Fake-only: whether load() ran and unload() did not yet. */
	get _isLoaded(): boolean {
		return this._loaded;
	}
}
