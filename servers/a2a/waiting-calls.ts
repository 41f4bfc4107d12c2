// The calls of `a2a serve` that hold their connection until a task moves (issue 27): a blocking
// SendMessage, a stream, a re-subscription, in either binding and either version. They are counted,
// and past the server's bound a new one is answered 503 with Retry-After while every other call
// (GetTask, ListTasks, a non-blocking send, the card) goes on being served.

/** How many waiting calls `a2a serve` holds at once unless told otherwise (--max-waiting). */
export const DEFAULT_MAX_WAITING = 256;

/** Seconds a client refused for the bound is told to wait (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

type Params = { configuration?: { returnImmediately?: unknown; return_immediately?: unknown; blocking?: unknown } } | undefined;

const configuration = (params: unknown): NonNullable<Params>["configuration"] => (typeof params === "object" && params !== null ? (params as NonNullable<Params>).configuration : undefined);

/**
 * True when a send blocks, read exactly as the SDK reads it (any truthy value counts, not only
 * `true`): v1.0 unless `returnImmediately` is truthy; v0.3 when `blocking` is truthy (its v0.3
 * layer reads a missing `blocking` as non-blocking).
 */
function sendBlocks(params: unknown, legacy: boolean): boolean {
	const config = configuration(params);
	return legacy ? Boolean(config?.blocking) : !(config?.returnImmediately ?? config?.return_immediately);
}

/** A JSON-RPC call that waits, by its method (v1.0 or v0.3 name) and params. */
export function rpcWaits(method: string, params: unknown): boolean {
	switch (method) {
		case "SendMessage":
			return sendBlocks(params, false);
		case "message/send":
			return sendBlocks(params, true);
		case "SendStreamingMessage":
		case "SubscribeToTask":
		case "message/stream":
		case "tasks/resubscribe":
			return true;
		default:
			return false;
	}
}

/** An HTTP+JSON call that waits, by its path below the binding's URL and its body; `legacy` when it is served as v0.3. */
export function restWaits(method: string, path: string, body: unknown, legacy: boolean): boolean {
	if (/:stream$|:subscribe$/.test(path)) return method === "POST" || method === "GET";
	return method === "POST" && /\/message:send$/.test(path) && sendBlocks(body, legacy);
}

/** The count of waiting calls, shared by every listener of one `a2a serve` (HTTP and gRPC). */
export class WaitingGate {
	private held = 0;

	constructor(readonly max: number = DEFAULT_MAX_WAITING) {}

	get count(): number {
		return this.held;
	}

	/** Takes a place; returns its release (callable more than once), or null past the bound. */
	enter(): (() => void) | null {
		if (this.held >= this.max) return null;
		this.held++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.held--;
		};
	}

	busyText(): string {
		return `the server holds ${this.held} waiting calls (blocking sends and streams), its limit: retry in ${RETRY_AFTER_SECONDS} s, or send with returnImmediately and read the task with GetTask`;
	}
}
