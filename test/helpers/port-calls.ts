import type { VaultPort } from "../../src/router/vault-port";

// A vault port that records its calls (method and first argument) and counts them by method, for
// the guards that count the router's work instead of timing it.

export interface RecordedPort {
	port: VaultPort;
	/** Calls by method. */
	calls: Map<string, number>;
	/** Every call, as "method firstArgument". */
	log: string[];
	/** The paths `read` was called with. */
	reads: string[];
}

export function recordingPort(inner: VaultPort): RecordedPort {
	const calls = new Map<string, number>();
	const log: string[] = [];
	const reads: string[] = [];
	const port = new Proxy(inner, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver) as unknown;
			if (typeof value !== "function") return value;
			return (...args: unknown[]) => {
				calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
				log.push(`${String(prop)} ${String(args[0])}`);
				if (prop === "read") reads.push(String(args[0]));
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
	return { port, calls, log, reads };
}
