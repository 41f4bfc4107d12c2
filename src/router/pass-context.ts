import type { RoutingDecision } from "../core/decision";
import type { VaultLayout } from "../core/layout";
import type { MessageIndex } from "../core/message-index";
import type { RawMessage, ReadResult } from "../core/message-parse";
import type { ErrorCode } from "../core/protocol";
import type { Registry } from "../core/registry";
import type { RouterResponseInput } from "../core/responses";
import type { IndexSync } from "./index-sync";
import type { LeaseKeeper } from "./lease-keeper";
import type { LogWriter } from "./log-writer";
import type { ReadFile, VaultPort } from "./vault-port";

// What the parts of a routing pass (src/router/inbox-upkeep.ts, housekeeping.ts) use of the router:
// its state and the steps it carries out. The Router implements it; the parts never import it.

export interface PassReport {
	decisions: RoutingDecision[];
	/** Outbox notes that wait for their writer (rule 2). */
	waiting: string[];
	/** When the first of them has been quiet for the grace period and is worth looking at again (epoch ms). */
	recheckAt?: number;
	/** Why each waiting outbox note waits (rule 2), by path. */
	waitReasons?: Record<string, string>;
	/** True when this router does not hold the lease and did nothing. */
	busy: boolean;
	/** Why this router does not route, when busy. */
	standby?: string;
	/** Notes that could not be dealt with, and why (the pass went on without them). */
	failures: { path: string; error: string }[];
	/** Things a person should know (two devices routed at once, merged logs). */
	warnings: string[];
}

/** A note the router acts on: where it is, the group whose outbox held it ("" when none), what was read. */
export interface QueuedNote {
	path: string;
	group: string;
	read: ReadFile;
	priority?: string;
	created?: string;
	/** readRawMessage of `read.text` once history-keys.ts made it (the decision uses it): never edited. */
	parsed?: ReadResult;
}

export interface PassContext {
	readonly port: VaultPort;
	readonly registry: Registry;
	readonly layout: VaultLayout;
	readonly index: MessageIndex;
	readonly indexSync: IndexSync;
	readonly lease: LeaseKeeper;
	readonly log: LogWriter;
	readonly graceMs: number;
	now(): number;
	guarded(path: string, report: PassReport, step: () => Promise<void>): Promise<void>;
	decision(outcome: RoutingDecision["outcome"], path: string, from: string, entry: { messageId?: string; traceId?: string; sourceGroup?: string; targetGroup?: string } | undefined, extra?: Partial<RoutingDecision>): RoutingDecision;
	transfer(
		note: { path: string; read: ReadFile },
		folder: string,
		messageId: string,
		stamped: { text: string; fields?: Record<string, unknown> },
		outcome: RoutingDecision["outcome"],
		extra?: Partial<RoutingDecision>,
	): Promise<RoutingDecision | null>;
	reject(note: QueuedNote, code: ErrorCode, reason: string, raw: RawMessage | undefined, notify: boolean): Promise<RoutingDecision | null>;
	sendRouterResponse(input: RouterResponseInput): Promise<void>;
	writerMove(from: string, folder: string, fileName: string, messageId: string): Promise<string | null>;
}
