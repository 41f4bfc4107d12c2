// Who waits for which task: a blocking SendMessage, a stream, a cancel's follow-up. The vault
// watcher calls `notify` with the message ids a change touched; each waiter then reads its task
// again. Nothing polls: a waiter sleeps until a change, its deadline, or the end of its request.

type Listener = () => void;

export class TaskEvents {
	private readonly byId = new Map<string, Set<Listener>>();

	/** Calls `listener` after every change that may touch task `id`; returns the unsubscribe. */
	on(id: string, listener: Listener): () => void {
		let set = this.byId.get(id);
		if (!set) this.byId.set(id, (set = new Set()));
		set.add(listener);
		return () => {
			set.delete(listener);
			if (set.size === 0 && this.byId.get(id) === set) this.byId.delete(id);
		};
	}

	notify(ids: Iterable<string>): void {
		for (const id of new Set(ids)) for (const listener of [...(this.byId.get(id) ?? [])]) listener();
	}

	/** After a change the watcher could not pin down (a rescan): every waiter looks again. */
	notifyAll(): void {
		this.notify([...this.byId.keys()]);
	}

	/** Number of waiters (for tests and the log). */
	get size(): number {
		let n = 0;
		for (const set of this.byId.values()) n += set.size;
		return n;
	}
}
