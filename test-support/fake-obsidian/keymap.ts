/** Scope and Keymap: key handlers pushed by modals and views, dispatched from document keydown. */

export type Modifier = "Mod" | "Ctrl" | "Meta" | "Shift" | "Alt";
export type PaneType = "tab" | "split" | "window";
export type UserEvent = MouseEvent | KeyboardEvent | TouchEvent | PointerEvent;

export interface KeymapInfo {
	modifiers: string | null;
	key: string | null;
}

export interface KeymapContext extends KeymapInfo {
	vkey: string;
}

export type KeymapEventListener = (evt: KeyboardEvent, ctx: KeymapContext) => false | unknown;

export interface KeymapEventHandler extends KeymapInfo {
	scope: Scope;
	/** Fake-only. */
	func: KeymapEventListener;
}

function eventModifiers(evt: KeyboardEvent): string[] {
	const mods: string[] = [];
	if (evt.ctrlKey || evt.metaKey) mods.push("Mod");
	if (evt.shiftKey) mods.push("Shift");
	if (evt.altKey) mods.push("Alt");
	return mods;
}

function normalizeModifiers(modifiers: Modifier[] | null): string | null {
	if (modifiers === null) return null;
	return modifiers
		.map((m) => (m === "Ctrl" || m === "Meta" ? "Mod" : m))
		.sort()
		.join(",");
}

export class Scope {
	private readonly parent: Scope | undefined;
	private readonly handlers: KeymapEventHandler[] = [];

	constructor(parent?: Scope) {
		this.parent = parent;
	}

	register(modifiers: Modifier[] | null, key: string | null, func: KeymapEventListener): KeymapEventHandler {
		const handler: KeymapEventHandler = { scope: this, modifiers: normalizeModifiers(modifiers), key, func };
		this.handlers.push(handler);
		return handler;
	}

	unregister(handler: KeymapEventHandler): void {
		const i = this.handlers.indexOf(handler);
		if (i >= 0) this.handlers.splice(i, 1);
	}

	/** Fake-only: runs the first matching handler (then the parent scope's). True when handled. */
	handleKey(evt: KeyboardEvent): boolean {
		const mods = eventModifiers(evt).sort().join(",");
		for (const h of this.handlers.slice()) {
			const keyMatches = h.key === null || h.key.toLowerCase() === evt.key.toLowerCase();
			const modsMatch = h.modifiers === null || h.modifiers === mods;
			if (!keyMatches || !modsMatch) continue;
			const result = h.func(evt, { modifiers: mods, key: evt.key, vkey: evt.key });
			if (result === false) evt.preventDefault();
			return true;
		}
		return this.parent ? this.parent.handleKey(evt) : false;
	}
}

export class Keymap {
	private readonly stack: Scope[] = [];
	private readonly root: Scope;

	constructor(root: Scope) {
		this.root = root;
	}

	pushScope(scope: Scope): void {
		this.stack.push(scope);
	}

	popScope(scope: Scope): void {
		const i = this.stack.lastIndexOf(scope);
		if (i >= 0) this.stack.splice(i, 1);
	}

	/** Fake-only: dispatch a keydown to the innermost scope (the App installs a document listener). */
	handleKeydown(evt: KeyboardEvent): boolean {
		const scope = this.stack[this.stack.length - 1] ?? this.root;
		return scope.handleKey(evt);
	}

	static isModifier(evt: MouseEvent | TouchEvent | KeyboardEvent, modifier: Modifier): boolean {
		switch (modifier) {
			case "Mod":
				return evt.ctrlKey || evt.metaKey;
			case "Ctrl":
				return evt.ctrlKey;
			case "Meta":
				return evt.metaKey;
			case "Shift":
				return evt.shiftKey;
			case "Alt":
				return evt.altKey;
		}
	}

	/** 'tab' for Mod (or a middle click), 'split' for Mod+Alt, 'window' for Mod+Alt+Shift, else false. */
	static isModEvent(evt?: UserEvent | null): PaneType | boolean {
		if (!evt) return false;
		const mod = evt.ctrlKey || evt.metaKey;
		if (mod && evt.altKey && evt.shiftKey) return "window";
		if (mod && evt.altKey) return "split";
		if (mod) return "tab";
		if ("button" in evt && evt.type.includes("click") && evt.button === 1) return "tab";
		return false;
	}
}
