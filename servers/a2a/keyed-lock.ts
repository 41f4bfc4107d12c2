// One operation at a time per key (a task id): two SendMessage calls with one messageId, or a send
// and a cancel of one task, never interleave their look-up and their write.

export class KeyedLock {
	private readonly tails = new Map<string, Promise<unknown>>();

	run<T>(key: string, step: () => Promise<T>): Promise<T> {
		const before = this.tails.get(key) ?? Promise.resolve();
		const result = before.then(step, step);
		const tail = result.catch(() => undefined);
		this.tails.set(key, tail);
		void tail.then(() => {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		});
		return result;
	}
}
