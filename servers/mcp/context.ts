import type { Router } from "../../src/router/router";
import type { NodeVault } from "../../node/node-vault";

// What every tool of one `a2a mcp` server works with: the vault, a router over it (used to read and
// check, never to route), the group the server speaks for and its agent note. Tool calls touch the
// router's index one at a time (`serial`); a wait sleeps outside that turn.

export interface McpContext {
	vault: NodeVault;
	router: Router;
	/** The group this server speaks for (`--group`). */
	group: string;
	/** The agent note this server writes (`--agent`), when given. */
	agent?: string;
	/** Runs `work` when no other tool call is touching the index. */
	serial<T>(work: () => Promise<T>): Promise<T>;
	/** One line to stderr (stdout carries the protocol only). */
	log(line: string): void;
	/** Told of each message a tool wrote (telemetry: its creation span). */
	created?: (fields: Record<string, unknown>, atMs: number) => void;
}

/** A queue of async jobs, run one after another. */
export function serialQueue(): <T>(work: () => Promise<T>) => Promise<T> {
	let tail: Promise<unknown> = Promise.resolve();
	return <T>(work: () => Promise<T>): Promise<T> => {
		const run = tail.then(work, work);
		tail = run.catch(() => undefined);
		return run;
	};
}
