import type { RoutingDecision } from "../core/decision";
import { VaultLayout } from "../core/layout";
import type { IndexEntry, MessageIndex } from "../core/message-index";
import type { RawMessage } from "../core/message-parse";
import { DEFAULT_ROOT } from "../core/protocol";
import type { ErrorCode } from "../core/protocol";
import type { Registry } from "../core/registry";
import { emptyRegistry } from "../core/registry";
import type { RouterResponseInput } from "../core/responses";
import { decideOutboxNote } from "../core/routing";
import type { OutboxNote, RoutingContext, Verdict } from "../core/routing";
import { IndexSync } from "./index-sync";
import { historyKeys } from "./history-keys";
import { DeadLetters } from "./dead-letters";
import { Deliveries } from "./deliveries";
import { Forwarder } from "./forwarder";
import { GuardedSteps } from "./guarded-steps";
import { Housekeeping } from "./housekeeping";
import { OutboxReader } from "./outbox-reader";
import { InboxUpkeep } from "./inbox-upkeep";
import { LeaseKeeper } from "./lease-keeper";
import { LogWriter } from "./log-writer";
import { NoteWriter, TRANSFERS_PER_LOG_WRITE } from "./note-writer";
import { loadRegistry, makeNewGroupBoxes } from "./registry-loader";
import type { PassContext, PassReport, QueuedNote } from "./pass-context";
import type { RouterOptions } from "./router-options";
import { sendRouterResponse } from "./router-responses";
import { WarningsOut } from "./warnings-out";
import type { VaultPort } from "./vault-port";

export type { PassReport, QueuedNote };

// The post office, written once against the vault port: the same code routes inside Obsidian (on
// vault events) and headless (`a2a route`). A note is read once and decided on that very text; what
// is delivered is the stamped copy of what was validated, created under a free name (never over
// another note), logged, and only then is the note removed from its outbox, and only if it is still
// the note that was read. Every step leaves the vault in a state the next pass finishes from.

export class Router implements PassContext {
	registry: Registry = emptyRegistry([], false);
	layout: VaultLayout;
	readonly root: string;
	graceMs: number;
	readonly lease: LeaseKeeper;
	readonly indexSync: IndexSync;
	readonly log: LogWriter;
	/** What the index and the log meet, said in a pass's report or, with a sink set, at once (warnings-out.ts). */
	readonly warnings: WarningsOut;
	private readonly writer: NoteWriter;
	private readonly upkeep: InboxUpkeep;
	readonly housekeeping: Housekeeping;
	private readonly deadLetters: DeadLetters;
	private readonly deliveries: Deliveries;
	/** Each step of a pass, its failure reported (guarded). */
	private readonly steps = new GuardedSteps(() => this.layout.root);
	private readonly outboxes: OutboxReader;
	/** Sends requests to remote groups and follows their tasks, in the background (src/router/forwarder.ts). */
	readonly forwarder: Forwarder | null;
	private readonly clock: () => number;
	private registryText: string | null | undefined = undefined;

	constructor(
		readonly port: VaultPort,
		private readonly options: RouterOptions = {},
	) {
		this.root = options.root ?? DEFAULT_ROOT;
		this.layout = new VaultLayout(this.root);
		this.clock = options.clock ?? (() => Date.now());
		this.graceMs = options.graceMs ?? 0;
		this.indexSync = new IndexSync(port, () => this.layout, { yieldNow: options.yieldNow, historyCache: options.historyCache, clock: this.clock });
		this.log = new LogWriter(port, () => this.layout);
		this.warnings = new WarningsOut([this.log, this.indexSync.reads]);
		this.writer = new NoteWriter(this);
		this.lease = new LeaseKeeper(port, {
			path: this.layout.leasePath,
			identity: options.identity ?? { device: "router", name: "A2A Relay router", yields: false },
			mode: options.mode,
			marginMs: options.marginMs,
			monotonic: options.monotonic,
			wallClock: this.clock,
			observations: options.observations,
			localLock: options.localLock,
		});
		this.upkeep = new InboxUpkeep(this);
		this.housekeeping = new Housekeeping(this);
		this.deadLetters = new DeadLetters(this);
		this.deliveries = new Deliveries(this, this.writer, this.upkeep);
		this.outboxes = new OutboxReader(this, (note, report) => this.deadLetters.rejectOversize(note, report));
		this.forwarder = options.remotes ? new Forwarder(this, options.remotes) : null;
	}

	get index(): MessageIndex {
		return this.indexSync.index;
	}

	/**
	 * The registry as last read when it could not be used while the router routes on with an earlier
	 * one (option keepLastGoodRegistry); null when the registry in use is the one in the vault.
	 */
	unusableRegistry: Registry | null = null;

	/** Reads the registry (registry.yaml, else registry.md); true when it changed since the last read (see option boxesForNewGroups). */
	async loadRegistry(): Promise<boolean> {
		const loaded = await loadRegistry(this.port, this.root);
		if (loaded.text === this.registryText) return false;
		const first = this.registryText === undefined;
		this.registryText = loaded.text;
		if (!loaded.registry.usable && this.registry.usable && this.options.keepLastGoodRegistry) {
			this.unusableRegistry = loaded.registry;
			return true;
		}
		this.unusableRegistry = null;
		const before = this.layout;
		this.registry = loaded.registry;
		this.layout = new VaultLayout(this.root, this.registry);
		if (!first && this.registry.usable && this.options.boxesForNewGroups) await makeNewGroupBoxes(this.port, before, this.layout);
		this.indexSync.clear();
		return true;
	}

	context(): RoutingContext {
		return { registry: this.registry, layout: this.layout, index: this.index, now: this.clock() };
	}

	now(): number {
		return this.clock();
	}

	/**
	 * One routing pass under the lease: route outbox notes (all of them, or only `paths`), keep the
	 * inboxes in order (timeouts, notes that did not come from the router, interrupted steps).
	 */
	async pass(paths?: string[], options: { graceMs?: number } = {}): Promise<PassReport> {
		return this.warnings.duringPass(() => this.passOnce(paths, options));
	}

	private async passOnce(paths: string[] | undefined, options: { graceMs?: number }): Promise<PassReport> {
		const report: PassReport = { decisions: [], waiting: [], busy: false, failures: [], warnings: [] };
		if (!this.registry.usable) return report;
		if (!(await this.lease.ensure())) {
			report.busy = true;
			report.standby = this.lease.state().reason;
			return report;
		}
		let finished = false;
		try {
			await this.indexSync.ensureLive();
			const queue = await this.outboxes.read(paths, report);
			// The notes waiting are routed before the rest of a long history is indexed (where the host
			// can tell which history notes changed at once), and before the copy of its index is saved.
			const asNeeded = this.options.historyAsNeeded === true;
			if (queue.length > 0) await this.indexSync.ensureHistoryFor(asNeeded ? new Set([...historyKeys(queue), ...this.upkeep.keysAsked()]) : historyKeys(queue), { saveLater: true });
			for (const note of queue) {
				if (await this.lostLease()) return report;
				await this.guarded(note.path, report, () => this.routeNote(note, report, options.graceMs ?? this.graceMs));
				if (this.writer.unfinishedCount >= TRANSFERS_PER_LOG_WRITE) await this.finishKept(report);
			}
			await this.finishKept(report);
			// A router that runs on indexes the rest of the history now. A one-shot pass does its inboxes'
			// upkeep on what it read (a question about another key reads the rest first), unless requests
			// to remote groups are to be followed after it: those jobs look answers up by any id.
			if (this.indexSync.hasPartialHistory && (!asNeeded || this.forwarder?.hasRemoteGroups())) await this.indexSync.ensureHistory({ saveLater: true });
			await this.upkeep.run(report);
			this.forwarder?.scan(report);
			await this.guarded(this.layout.root, report, () => this.housekeeping.run(report));
			await this.guarded(this.layout.root, report, () => this.indexSync.refreshHistoryCopy({ saveLater: true }));
			finished = true;
			return report;
		} finally {
			await this.finishKept(report);
			report.warnings.push(...this.warnings.take());
			await this.port.flush?.();
			// A history read in part by a pass that stopped early is not kept (its lease lost, nothing
			// followed the vault for it meanwhile); one a whole one-shot pass read is, for its report.
			if (!finished) this.indexSync.abandonPartialHistory();
			await this.indexSync.historyCopySaved();
		}
	}

	/**
	 * Runs one step; a failure is reported and the pass goes on (one bad file never stops the router).
	 * A failure that concerns the file alone (src/router/unreadable-notes.ts) is said once while it lasts.
	 */
	guarded(path: string, report: PassReport, step: () => Promise<void>): Promise<void> {
		return this.steps.run(path, report, step);
	}

	/** Writes the log rows of the deliveries kept unfinished, then removes their notes from the outboxes. */
	private async finishKept(report: PassReport): Promise<void> {
		if (this.writer.unfinishedCount === 0 || (await this.lostLease())) return;
		await this.writer.finishKept((path, step) => this.guarded(path, report, step));
	}

	/**
	 * True when the lease was due for renewal and could not be kept. A router that lost the lease
	 * leaves its half-done deliveries to the one that holds it (Deliveries.finishInterrupted).
	 */
	private async lostLease(): Promise<boolean> {
		if (!this.lease.renewalDue() || (await this.lease.ensure())) return false;
		this.writer.abandonKept();
		return true;
	}

	private async routeNote(note: QueuedNote, report: PassReport, graceMs: number): Promise<void> {
		const outboxNote: OutboxNote = { path: note.path, text: note.read.text, mtime: note.read.info.mtime, size: note.read.info.size, group: note.group, read: note.parsed, editing: this.options.isEditing?.(note.path) };
		const verdict = await this.indexSync.decide(() => decideOutboxNote(outboxNote, this.context(), { graceMs }));
		// Only deliveries share a write of their rows: every other step finds the log and the outboxes as they are.
		if (verdict.action !== "deliver" && verdict.action !== "ignore" && verdict.action !== "wait" && this.writer.unfinishedCount > 0) await this.finishKept(report);
		const decision = await this.carryOut(note, verdict);
		if (verdict.action === "wait") {
			report.waiting.push(note.path);
			(report.waitReasons ??= {})[note.path] = verdict.reason;
			report.recheckAt = Math.min(report.recheckAt ?? Infinity, verdict.until);
		}
		else if (verdict.action === "ignore") this.outboxes.reportIgnored(note.path, verdict.reason, report);
		if (decision) report.decisions.push(decision);
	}

	private async carryOut(note: QueuedNote, verdict: Verdict): Promise<RoutingDecision | null> {
		switch (verdict.action) {
			case "ignore":
			case "wait":
				return null;
			case "deliver":
				return this.deliveries.deliver(note, verdict);
			case "answer":
				return this.deliveries.answer(note, verdict);
			case "duplicate":
				return (await this.deliveries.finishInterrupted(note, verdict.existing)) ?? this.reject(note, "DUPLICATE", `message_id was already delivered (${verdict.existing.path})`, verdict.raw, false);
			case "reject":
				return this.reject(note, verdict.code, verdict.reason, verdict.raw, true);
		}
	}

	decision(outcome: RoutingDecision["outcome"], path: string, from: string, entry: IndexEntry | undefined, extra: Partial<RoutingDecision> = {}): RoutingDecision {
		return {
			outcome,
			path,
			from,
			message_id: entry?.messageId,
			trace_id: entry?.traceId,
			source_group: entry?.sourceGroup,
			target_group: entry?.targetGroup,
			time: this.clock(),
			...extra,
		};
	}

	/** See NoteWriter.transfer (src/router/note-writer.ts). */
	transfer(...args: Parameters<NoteWriter["transfer"]>): ReturnType<NoteWriter["transfer"]> {
		return this.writer.transfer(...args);
	}

	/** Rules 3 to 6 and 9: see src/router/dead-letters.ts. */
	reject(note: QueuedNote, code: ErrorCode, reason: string, raw: RawMessage | undefined, notify: boolean): Promise<RoutingDecision | null> {
		return this.deadLetters.reject(note, code, reason, raw, notify);
	}

	/** Writes an error or timeout response into the sender's inbox (once: its name derives from what it reports). */
	sendRouterResponse(input: RouterResponseInput): Promise<void> {
		return sendRouterResponse(this.port, this.layout, this.indexSync, input);
	}

	/** Moves a note the router owns (already stamped) under a free name; null when it is gone. */
	writerMove(from: string, folder: string, fileName: string, messageId: string): Promise<string | null> {
		return this.writer.move(from, folder, fileName, messageId);
	}

	/** The next time this router has work without any change in the vault (a timeout), or null. */
	nextWakeTime(): number | null {
		return this.upkeep.nextWakeTime();
	}

	/** Stops routing: gives the lease up so that another router can take over at once. */
	async stop(): Promise<void> {
		await this.forwarder?.stop();
		await this.lease.release();
	}
}
