/** Fault injection: make the next vault operation of a kind throw (crash-safety tests). */

export type FaultOperation =
	| "create"
	| "createFolder"
	| "modify"
	| "append"
	| "process"
	| "rename"
	| "delete"
	| "trash"
	| "copy"
	| "processFrontMatter";

/**
 * `before` (default): the operation throws before touching the disk (nothing changes).
 * `after`: the disk is changed and the vault event is queued, then the operation throws —
 * like a crash between the write and the caller's bookkeeping.
 */
export type FaultPhase = "before" | "after";

interface Fault {
	error: Error;
	phase: FaultPhase;
}

export class FaultInjector {
	private readonly queued = new Map<FaultOperation, Fault[]>();

	failNext(operation: FaultOperation, error?: Error, phase: FaultPhase = "before"): void {
		const list = this.queued.get(operation) ?? [];
		list.push({ error: error ?? new Error(`fake-obsidian: injected failure in ${operation}`), phase });
		this.queued.set(operation, list);
	}

	/** Throws the queued error when the next fault for this operation is for this phase. */
	check(operation: FaultOperation, phase: FaultPhase): void {
		const list = this.queued.get(operation);
		const next = list?.[0];
		if (!list || !next || next.phase !== phase) return;
		list.shift();
		throw next.error;
	}

	pending(operation?: FaultOperation): number {
		if (operation) return this.queued.get(operation)?.length ?? 0;
		let n = 0;
		for (const list of this.queued.values()) n += list.length;
		return n;
	}

	clear(): void {
		this.queued.clear();
	}
}
