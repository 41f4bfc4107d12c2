/** Obsidian's `Events`: on/off/offref/trigger/tryTrigger. Handler errors are caught and recorded like
 * Obsidian logs them; a promise returned by a handler is tracked so `host.settled()` waits for it. */
import { currentRuntime, isThenable, type Runtime } from "./runtime";

export interface EventRef {
	/** The emitter this ref belongs to (Obsidian's EventRef carries the same `e` field). */
	e: Events;
	name: string;
	fn: (...data: unknown[]) => unknown;
	ctx?: unknown;
}

const listeners = new WeakMap<Events, Map<string, EventRef[]>>();
const boundRuntimes = new WeakMap<Events, Runtime>();

function table(events: Events): Map<string, EventRef[]> {
	let t = listeners.get(events);
	if (!t) {
		t = new Map();
		listeners.set(events, t);
	}
	return t;
}

/** Attributes an emitter's handler work to a runtime (the host's vault, workspace, ...). */
export function bindRuntime(events: Events, runtime: Runtime): void {
	boundRuntimes.set(events, runtime);
}

function runtimeOf(events: Events): Runtime {
	return boundRuntimes.get(events) ?? currentRuntime();
}

/** Number of live handlers on an emitter (all names, or one name). */
export function listenerCount(events: Events, name?: string): number {
	const t = table(events);
	if (name !== undefined) return t.get(name)?.length ?? 0;
	let n = 0;
	for (const refs of t.values()) n += refs.length;
	return n;
}

export class Events {
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
		const ref: EventRef = { e: this, name, fn: callback as (...data: unknown[]) => unknown, ctx };
		const t = table(this);
		const refs = t.get(name) ?? [];
		refs.push(ref);
		t.set(name, refs);
		return ref;
	}

	off(name: string, callback: (...data: never[]) => unknown): void {
		const t = table(this);
		const refs = t.get(name);
		if (!refs) return;
		const kept = refs.filter((r) => r.fn !== callback);
		if (kept.length > 0) t.set(name, kept);
		else t.delete(name);
	}

	offref(ref: EventRef): void {
		const t = table(this);
		const refs = t.get(ref.name);
		if (!refs) return;
		const i = refs.indexOf(ref);
		if (i >= 0) refs.splice(i, 1);
		if (refs.length === 0) t.delete(ref.name);
	}

	trigger(name: string, ...data: unknown[]): void {
		const refs = table(this).get(name);
		if (!refs) return;
		for (const ref of refs.slice()) this.tryTrigger(ref, data);
	}

	tryTrigger(evt: EventRef, args: unknown[]): void {
		const runtime = runtimeOf(this);
		try {
			const result = evt.fn.apply(evt.ctx, args);
			if (isThenable(result)) runtime.track(result, `'${evt.name}' handler`);
		} catch (error) {
			runtime.recordError(`'${evt.name}' handler`, error);
		}
	}
}
