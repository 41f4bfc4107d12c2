import { Window } from "happy-dom";

// A DOM for benchmarks that run the plugin on the fake Obsidian outside vitest.

export function installDom(): void {
	const win = new Window({ url: "http://localhost/" });
	const g = globalThis as Record<string, unknown>;
	g.window = win;
	g.document = win.document;
	for (const name of ["Node", "Element", "HTMLElement", "HTMLInputElement", "HTMLTextAreaElement", "HTMLSelectElement", "HTMLButtonElement", "SVGElement", "DocumentFragment", "Text", "Event", "KeyboardEvent", "MouseEvent", "FocusEvent", "InputEvent", "CustomEvent", "MutationObserver", "getComputedStyle", "requestAnimationFrame", "cancelAnimationFrame", "navigator", "localStorage"]) {
		const value = (win as unknown as Record<string, unknown>)[name];
		if (value !== undefined && g[name] === undefined) g[name] = typeof value === "function" && /^[a-z]/.test(name) ? (value as (...a: unknown[]) => unknown).bind(win) : value;
	}
}
