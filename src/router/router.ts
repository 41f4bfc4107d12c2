import { logHeader, logLine } from "../core/decision";
import type { RoutingDecision } from "../core/decision";
import { YamlError, readFrontmatter, updateFrontmatterText } from "../core/frontmatter";
import { isUuidShaped, newId } from "../core/ids";
import { ignoreReason } from "../core/ignore";
import { VaultLayout } from "../core/layout";
import type { Location } from "../core/layout";
import { MessageIndex, entryFromRaw, wasDelivered } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import { isMessagePath, readRawMessage } from "../core/message-parse";
import type { RawMessage } from "../core/message-parse";
import { basename, joinPath, stem } from "../core/paths";
import { compareForRouting, orderFields } from "../core/priority";
import { DEFAULT_ROOT } from "../core/protocol";
import type { ErrorCode } from "../core/protocol";
import { emptyRegistry, parseRegistry } from "../core/registry";
import type { Registry } from "../core/registry";
import { utf8Length } from "../core/text";
import { ROUTER_SENDER, routerResponse } from "../core/responses";
import { decideOutboxNote, requestAnswered, routeInto } from "../core/routing";
import type { OutboxNote, RoutingContext, Verdict } from "../core/routing";
import {
	flattenMessageText,
	iso,
	quarantineText,
	stampAnswered,
	stampDead,
	stampDeliveredRequest,
	stampDeliveredResponse,
	stampRetry,
	timeoutStep,
} from "../core/stamps";
import type { FileInfo, KnownContent, VaultPort } from "./vault-port";

// The post office, written once against the vault port: the same code routes inside Obsidian (on
// vault events) and headless (`a2a route`). Every step leaves the vault in a state the next sweep
// can finish from: a note is first moved (the atomic claim), then stamped, then answered, then
// logged; `recover` completes whatever a crash interrupted.

export interface RouterOptions {
	root?: string;
	clock?: () => number;
	/** How long a note that does not parse may wait for its writer to finish it (rule 2). */
	graceMs?: number;
	/** Identifies this router in the lease file. */
	holder?: string;
	leaseTtlMs?: number;
	/**
	 * Outbox notes routed at once (their file operations overlap; their decisions stay in priority
	 * order, and notes of one trace or message id wait for each other). 1 inside Obsidian.
	 */
	concurrency?: number;
}

export interface PassReport {
	decisions: RoutingDecision[];
	/** Outbox notes that do not parse yet and are within their grace period. */
	waiting: string[];
	/** True when another router held the vault and nothing was done. */
	busy: boolean;
}

const LEASE_FILE = ".router.lock";

export class Router {
	registry: Registry = emptyRegistry([], false);
	layout: VaultLayout;
	readonly index = new MessageIndex();
	readonly root: string;
	graceMs: number;
	private readonly clock: () => number;
	private readonly holder: string;
	private readonly leaseTtlMs: number;
	private readonly concurrency: number;
	/** Destination names a move in flight is about to take. */
	private readonly reserved = new Set<string>();
	/** Wall-clock time the lease was last taken or renewed in this pass (the lease's TTL is wall-clock time). */
	private leaseAt = 0;
	private leaseLost = false;
	private readonly loggedIgnores = new Set<string>();
	private registryText: string | null | undefined = undefined;
	/** mtime:size of each file when the index last read it (see refreshIndex). */
	private readonly seen = new Map<string, string>();
	/** Folders this router has made sure exist (cleared with each new index). */
	private readonly ensured = new Set<string>();

	constructor(
		private readonly port: VaultPort,
		options: RouterOptions = {},
	) {
		this.root = options.root ?? DEFAULT_ROOT;
		this.layout = new VaultLayout(this.root);
		this.clock = options.clock ?? (() => Date.now());
		this.graceMs = options.graceMs ?? 0;
		this.holder = options.holder ?? newId();
		this.leaseTtlMs = options.leaseTtlMs ?? 15000;
		this.concurrency = Math.max(1, options.concurrency ?? 1);
	}

	get leasePath(): string {
		return joinPath(this.layout.root, LEASE_FILE);
	}

	/** Reads registry.yaml; returns true when it changed since the last read. */
	async loadRegistry(): Promise<boolean> {
		const rootLayout = new VaultLayout(this.root);
		const text = await this.port.read(rootLayout.registryPath);
		if (text === this.registryText) return false;
		this.registryText = text;
		this.registry =
			text === null ? emptyRegistry([{ where: "registry.yaml", message: "is missing: run Initialize A2A vault (or `a2a init`)" }], false) : parseRegistry(text, rootLayout.root);
		this.layout = new VaultLayout(this.root, this.registry);
		return true;
	}

	/** Folders whose notes the index holds: every group's boxes and the dead-letter folder. */
	messageFolders(): string[] {
		const folders: string[] = [];
		for (const group of this.layout.groupIds()) {
			for (const box of ["inbox", "outbox", "archive"] as const) folders.push(this.layout.box(group, box) as string);
		}
		folders.push(this.layout.deadLetterFolder);
		return folders;
	}

	/** Builds the index from the A2A folders only (never the whole vault). */
	async buildIndex(): Promise<void> {
		this.index.clear();
		this.seen.clear();
		this.ensured.clear();
		await this.refreshIndex();
	}

	/**
	 * Brings the index up to date with what other processes did, re-reading only files that are
	 * new or changed since they were last seen (for the CLI's watch loop; the plugin uses events).
	 */
	async refreshIndex(): Promise<void> {
		const listed = new Set<string>();
		for (const folder of this.messageFolders()) {
			for (const file of await this.port.list(folder)) {
				if (ignoreReason(file.path)) continue;
				listed.add(file.path);
				const stamp = `${file.mtime}:${file.size}`;
				if (this.seen.get(file.path) === stamp && this.index.get(file.path)) continue;
				this.seen.set(file.path, stamp);
				if (!this.countOutboxNote(file.path)) await this.indexFile(file.path);
			}
		}
		for (const entry of [...this.index.all()]) {
			if (!listed.has(entry.path)) {
				this.index.remove(entry.path);
				this.seen.delete(entry.path);
			}
		}
	}

	/**
	 * Outbox notes are read when they are routed; until then the index only counts them. True when
	 * `path` is a message file in an outbox (now counted), false for any other path.
	 */
	countOutboxNote(path: string): boolean {
		const location = this.layout.locate(path);
		if (location.area !== "box" || location.box !== "outbox") return false;
		if (ignoreReason(path) || !isMessagePath(path)) this.index.remove(path);
		else if (!this.index.get(path)) this.index.set({ path, location, kind: null, route: [] });
		return true;
	}

	/** Re-reads one path into the index (or drops it when it is gone or not a message folder). */
	async indexFile(path: string, text?: string | null): Promise<IndexEntry | undefined> {
		const location = this.layout.locate(path);
		if ((location.area !== "box" && location.area !== "dead-letter") || ignoreReason(path) || !isMessagePath(path)) {
			this.index.remove(path);
			return undefined;
		}
		const content = text === undefined ? await this.port.read(path) : text;
		if (content === null) {
			this.index.remove(path);
			return undefined;
		}
		const read = readRawMessage(content, path);
		const entry: IndexEntry = read.ok
			? entryFromRaw(path, location, read.raw)
			: { path, location, kind: null, route: [], state: quarantinedState(content) };
		this.index.set(entry);
		return entry;
	}

	private context(): RoutingContext {
		return { registry: this.registry, layout: this.layout, index: this.index, now: this.clock() };
	}

	/**
	 * One routing pass under the lease: finish interrupted work, route outbox notes (all of them, or
	 * only `paths` when given), handle due timeouts, and append the decisions to the day's log.
	 */
	async pass(paths?: string[]): Promise<PassReport> {
		const report: PassReport = { decisions: [], waiting: [], busy: false };
		if (!this.registry.usable) return report;
		if (!(await this.port.acquireLease(this.leasePath, this.holder, this.leaseTtlMs))) {
			report.busy = true;
			return report;
		}
		this.leaseAt = Date.now();
		this.leaseLost = false;
		try {
			await this.recover(report.decisions);
			await this.routeOutboxes(paths, report);
			await this.handleTimeouts(report.decisions);
		} finally {
			try {
				await this.writeLog(report.decisions);
			} finally {
				await this.port.releaseLease(this.leasePath, this.holder);
			}
		}
		return report;
	}

	/**
	 * Renews the lease now and then during a pass. The lease records when it was taken, and another
	 * router takes over a lease older than its time-to-live: without renewal, a pass longer than that
	 * (a large backlog) was taken for abandoned and a second router routed alongside it. False when
	 * another router has taken the lease over meanwhile: the pass then stops between two steps,
	 * leaving the vault as consistent as after a crash.
	 */
	private async keepLease(): Promise<boolean> {
		if (this.leaseLost) return false;
		if (Date.now() - this.leaseAt < this.leaseTtlMs / 3) return true;
		if (await this.port.acquireLease(this.leasePath, this.holder, this.leaseTtlMs)) {
			this.leaseAt = Date.now();
			return true;
		}
		this.leaseLost = true;
		return false;
	}

	private async outboxFiles(paths?: string[]): Promise<FileInfo[]> {
		if (paths) {
			const infos = await Promise.all(paths.map((p) => this.port.stat(p)));
			return infos.filter((i): i is FileInfo => i !== null && this.outboxGroupOf(i.path) !== null);
		}
		const files: FileInfo[] = [];
		for (const group of this.layout.groupIds()) files.push(...(await this.port.list(this.layout.box(group, "outbox") as string)));
		return files;
	}

	private outboxGroupOf(path: string): string | null {
		const location = this.layout.locate(path);
		return location.area === "box" && location.box === "outbox" ? location.group : null;
	}

	private async routeOutboxes(paths: string[] | undefined, report: PassReport): Promise<void> {
		const notes: (OutboxNote & { priority?: unknown; created?: unknown })[] = [];
		const files = await this.outboxFiles(paths);
		if (!paths) {
			// Forget ignored files that are gone (the hidden temp file of every atomic write passes
			// through an outbox): in a long `route --watch` the set otherwise grew without end.
			const listed = new Set(files.map((f) => f.path));
			for (const p of this.loggedIgnores) if (!listed.has(p)) this.loggedIgnores.delete(p);
		}
		for (const file of files) {
			const group = this.outboxGroupOf(file.path) as string;
			const reason = ignoreReason(file.path) ?? (isMessagePath(file.path) ? null : "not a note (.md) or YAML file");
			if (reason) {
				if (!this.loggedIgnores.has(file.path)) {
					this.loggedIgnores.add(file.path);
					report.decisions.push({ outcome: "ignored", path: file.path, reason, time: this.clock() });
				}
				continue;
			}
			if (!(await this.keepLease())) return;
			const text = await this.port.read(file.path);
			if (text === null) continue;
			// Parsed when its turn comes: the parse is then fresh for the stamp that follows it.
			notes.push({ path: file.path, text, mtime: file.mtime, size: file.size, fileId: file.id, group, ...orderFields(text) });
		}
		notes.sort(compareForRouting);
		const results: (RoutingDecision | null)[] = [];
		const running = new Set<Promise<void>>();
		/** The work in flight per trace id and message id: a note waits for its own conversation. */
		const busy = new Map<string, Promise<void>>();
		let failure: unknown = null;
		for (const [i, note] of notes.entries()) {
			if (failure !== null || !(await this.keepLease())) break;
			note.read ??= readRawMessage(note.text, note.path);
			const keys = conversationKeys(note);
			const blockers = keys.map((k) => busy.get(k)).filter((p): p is Promise<void> => p !== undefined);
			if (blockers.length > 0) await Promise.all(blockers);
			while (running.size >= this.concurrency) await Promise.race(running);
			if (failure !== null) break;
			// Decided only now, so that the index holds the outcome of every earlier note of the trace.
			const verdict = decideOutboxNote(note, this.context(), this.graceMs);
			if (verdict.action === "wait") {
				report.waiting.push(note.path);
				continue;
			}
			const task: Promise<void> = this.carryOut(note, verdict).then(
				(decision) => {
					results[i] = decision;
				},
				(error: unknown) => {
					failure ??= error;
				},
			);
			const tracked = task.finally(() => {
				running.delete(tracked);
				for (const k of keys) if (busy.get(k) === tracked) busy.delete(k);
			});
			running.add(tracked);
			for (const k of keys) busy.set(k, tracked);
		}
		// Every step in flight finishes (or fails) before the pass ends and the lease is released.
		await Promise.all(running);
		report.decisions.push(...results.filter((d): d is RoutingDecision => d !== null && d !== undefined));
		if (failure !== null) throw failure instanceof Error ? failure : new Error("a routing step failed with a value that is not an Error");
	}

	private async carryOut(note: OutboxNote, verdict: Verdict): Promise<RoutingDecision | null> {
		switch (verdict.action) {
			case "ignore":
				return { outcome: "ignored", path: note.path, reason: verdict.reason, time: this.clock() };
			case "wait":
				return null;
			case "deliver":
				return this.deliver(note, verdict.raw, verdict.target);
			case "answer":
				return this.answer(note, verdict.raw, verdict.target, verdict.request);
			case "duplicate":
				return this.reject(note, "DUPLICATE", `message_id was already delivered (${verdict.existing.path})`, verdict.raw, false);
			case "reject":
				return this.reject(note, verdict.code, verdict.reason, verdict.raw, true);
		}
	}

	/** Moves a file into a folder under a free name; null when the source vanished (another router took it). */
	private async moveInto(from: string, folder: string, name: string): Promise<string | null> {
		if (!this.ensured.has(folder)) {
			await this.port.ensureFolder(folder);
			this.ensured.add(folder);
		}
		const base = stem(name);
		for (let attempt = 0; attempt < 50; attempt++) {
			const suffix = attempt === 0 ? "" : attempt === 1 ? `-${newId().slice(0, 8)}` : `-${newId()}`;
			// A file name is at most 255 bytes: a long name that is taken, or that gains `.md`, is
			// shortened to make room (moving it under a name too long threw, at every pass, for ever).
			const to = joinPath(folder, `${fitBytes(base, MAX_NAME_BYTES - utf8Length(`${suffix}.md`))}${suffix}.md`);
			// Notes routed side by side may want the same name: the move's own "exists" check cannot
			// see a name another move of this router is about to take, so names are reserved here.
			if (this.reserved.has(to)) continue;
			this.reserved.add(to);
			try {
				const result = await this.port.move(from, to);
				if (result === "moved") return to;
				if (result === "missing") return null;
			} finally {
				this.reserved.delete(to);
			}
		}
		throw new Error(`no free name for ${name} in ${folder}`);
	}

	/**
	 * Applies a stamp; notes in the seed's wrapper or YAML are rewritten into the flat form first.
	 * The index is updated from the stamped fields, without reading the note again.
	 */
	private async stamp(path: string, format: RawMessage["format"] | undefined, edit: (fm: Record<string, unknown>) => void, known?: KnownContent): Promise<void> {
		let stamped: Record<string, unknown> | undefined;
		const capture = (fm: Record<string, unknown>) => {
			edit(fm);
			stamped = fm;
		};
		const done =
			format === "flat"
				? await this.port.updateFrontmatter(path, capture, known)
				: await this.port.process(path, (text) => flattenMessageText(text, path, capture) ?? updateFrontmatterText(text, capture), known);
		const location = this.layout.locate(path);
		if (done && stamped && (location.area === "box" || location.area === "dead-letter")) {
			this.index.set(entryFromRaw(path, location, { fields: stamped, payload: {}, format: "flat", frontmatterBytes: 0 }));
		} else {
			await this.indexFile(path);
		}
	}

	private decision(outcome: RoutingDecision["outcome"], path: string, from: string, entry: IndexEntry | undefined, extra: Partial<RoutingDecision> = {}): RoutingDecision {
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

	private async deliver(note: OutboxNote, raw: RawMessage, target: string): Promise<RoutingDecision | null> {
		const trace = typeof raw.fields.trace_id === "string" ? raw.fields.trace_id : "";
		const source = typeof raw.fields.source_group === "string" ? raw.fields.source_group : "";
		const inherited = routeInto(this.index, trace, source);
		const dest = await this.moveInto(note.path, this.layout.box(target, "inbox") as string, basename(note.path));
		if (!dest) return null;
		this.index.remove(note.path);
		const now = this.clock();
		await this.stamp(dest, raw.format, (fm) => stampDeliveredRequest(fm, target, now, this.registry.communication, inherited), known(note));
		return this.decision("delivered", dest, note.path, this.index.get(dest));
	}

	private async answer(note: OutboxNote, raw: RawMessage, target: string, request?: IndexEntry): Promise<RoutingDecision | null> {
		const dest = await this.moveInto(note.path, this.layout.box(target, "inbox") as string, basename(note.path));
		if (!dest) return null;
		this.index.remove(note.path);
		const now = this.clock();
		await this.stamp(dest, raw.format, (fm) => stampDeliveredResponse(fm, target, now, request), known(note));
		if (request) await this.archive(request);
		return this.decision("answered", dest, note.path, this.index.get(dest));
	}

	/** Moves an answered request from its inbox to the same group's archive. */
	private async archive(request: IndexEntry): Promise<void> {
		const current = this.index.get(request.path);
		if (!current || current.location.area !== "box" || current.location.box !== "inbox") return;
		const folder = this.layout.box(current.location.group, "archive");
		if (!folder) return;
		const dest = await this.moveInto(current.path, folder, basename(current.path));
		this.index.remove(current.path);
		if (!dest) return;
		const now = this.clock();
		await this.stamp(dest, "flat", (fm) => stampAnswered(fm, now));
	}

	private async reject(note: OutboxNote, code: ErrorCode, reason: string, raw: RawMessage | undefined, notify: boolean): Promise<RoutingDecision | null> {
		if (!raw) {
			// A note that cannot be read is wrapped before it moves, so that the sender (known only from
			// the outbox it sits in) survives a crash between the move and the stamp.
			const fields: Record<string, unknown> = { source_group: note.group };
			stampDead(fields, code, reason, this.clock());
			if (!(await this.port.process(note.path, (text) => (quarantinedState(text) ? text : quarantineText(text, fields))))) return null;
		}
		const dest = await this.moveInto(note.path, this.layout.deadLetterFolder, basename(note.path));
		if (!dest) return null;
		this.index.remove(note.path);
		await this.stampRejection(dest, code, reason, raw, note.group);
		const entry = this.index.get(dest);
		if (notify) await this.sendRouterResponse("error", entry, code, reason, note.group);
		return this.decision(code === "DUPLICATE" ? "duplicate" : "rejected", dest, note.path, entry, { error_code: code, reason });
	}

	private async stampRejection(path: string, code: string, reason: string, raw: RawMessage | undefined, sender: string | undefined): Promise<void> {
		const now = this.clock();
		if (raw) {
			try {
				await this.stamp(path, raw.format, (fm) => stampDead(fm, code, reason, now));
				return;
			} catch (error) {
				if (!(error instanceof YamlError)) throw error;
			}
		}
		const fields: Record<string, unknown> = { message_id: newId() };
		if (sender) fields.source_group = sender;
		stampDead(fields, code, reason, now);
		await this.port.process(path, (text) => (quarantinedState(text) ? text : quarantineText(text, fields)));
		await this.indexFile(path);
	}

	/** Writes the error or timeout response into the sender's inbox, once (its name is derived from the dead message). */
	private async sendRouterResponse(kind: "error" | "timeout", entry: IndexEntry | undefined, code: string, reason: string, sender: string | undefined): Promise<void> {
		if (!entry?.messageId || !sender || !this.layout.hasGroup(sender)) return;
		const inbox = this.layout.box(sender, "inbox") as string;
		const about = entry.targetGroup && this.layout.hasGroup(entry.targetGroup) && entry.targetGroup !== sender ? entry.targetGroup : ROUTER_SENDER;
		const response = routerResponse({
			kind,
			deadMessageId: entry.messageId,
			traceId: isUuidShaped(entry.traceId) ? entry.traceId : newId(),
			sender,
			about,
			code,
			reason,
			deadLetterPath: entry.path,
			now: this.clock(),
		});
		await this.port.ensureFolder(inbox);
		const path = joinPath(inbox, response.fileName);
		await this.port.create(path, response.text);
		await this.indexFile(path);
	}

	/** Rule 8: retries with backoff, then TIMEOUT; also archives requests whose answer already arrived. */
	private async handleTimeouts(decisions: RoutingDecision[]): Promise<void> {
		const now = this.clock();
		for (const entry of [...this.index.all()]) {
			if (entry.location.area !== "box" || entry.location.box !== "inbox" || entry.kind !== "request") continue;
			if (!(await this.keepLease())) return;
			if (this.hasAnswer(entry)) {
				await this.archive(entry);
				continue;
			}
			const step = timeoutStep(entry, now, this.registry.communication);
			if (!step) continue;
			if (step.action === "retry") {
				await this.port.updateFrontmatter(entry.path, (fm) => stampRetry(fm, step.attempt, step.expiresAt));
				const updated = await this.indexFile(entry.path);
				decisions.push(this.decision("retried", entry.path, entry.path, updated));
			} else {
				const dest = await this.moveInto(entry.path, this.layout.deadLetterFolder, basename(entry.path));
				this.index.remove(entry.path);
				if (!dest) continue;
				const decision = await this.finishTimeout(dest, entry);
				decisions.push({ ...decision, from: entry.path });
			}
		}
	}

	private async finishTimeout(path: string, before = this.index.get(path)): Promise<RoutingDecision> {
		const now = this.clock();
		const reason = `no response after ${before?.attempt ?? 1} attempt(s); the last one expired at ${before?.expiresAt ?? iso(now)}`;
		await this.stamp(path, "flat", (fm) => stampDead(fm, "TIMEOUT", reason, now, "timed_out"));
		const entry = this.index.get(path);
		await this.sendRouterResponse("timeout", entry, "TIMEOUT", reason, entry?.sourceGroup);
		return this.decision("timed_out", path, path, entry, { error_code: "TIMEOUT", reason });
	}

	private hasAnswer(request: IndexEntry): boolean {
		if (!request.messageId) return false;
		// Only an answer from the group the request was delivered to counts (see requestAnswered).
		return this.index
			.repliesTo(request.messageId)
			.some((r) => r.kind === "response" && wasDelivered(r) && !r.routerWritten && r.sourceGroup !== ROUTER_SENDER && r.sourceGroup === request.targetGroup);
	}

	/** Finishes what an interrupted pass left half done (see docs/protocol.md, "Crash safety"). */
	private async recover(decisions: RoutingDecision[]): Promise<void> {
		for (const entry of [...this.index.all()]) {
			if (!(await this.keepLease())) return;
			const loc: Location = entry.location;
			if (loc.area === "box" && loc.box === "inbox" && entry.kind !== null && entry.deliveredAt === undefined) {
				await this.finishDelivery(entry, loc.group, decisions);
			} else if (loc.area === "box" && loc.box === "archive" && entry.kind === "request" && entry.state !== "answered") {
				const now = this.clock();
				await this.stamp(entry.path, "flat", (fm) => stampAnswered(fm, now));
			} else if (loc.area === "dead-letter" && entry.deadAt === undefined && entry.state !== "dead") {
				await this.finishDeadLetter(entry, decisions);
			} else if (loc.area === "dead-letter" && entry.errorCode && entry.errorCode !== "DUPLICATE" && entry.messageId && this.index.repliesTo(entry.messageId).length === 0) {
				const kind = entry.errorCode === "TIMEOUT" ? "timeout" : "error";
				await this.sendRouterResponse(kind, entry, entry.errorCode, entry.errorMessage ?? "see the dead letter", entry.sourceGroup);
			}
		}
	}

	private async finishDelivery(entry: IndexEntry, group: string, decisions: RoutingDecision[]): Promise<void> {
		const now = this.clock();
		// The index may be behind the vault (another router finished this note, or moved it on, after
		// the index was read): look at the note as it is now before finishing anything twice.
		const text = await this.port.read(entry.path);
		if (text === null) {
			this.index.remove(entry.path);
			return;
		}
		if ((await this.indexFile(entry.path, text))?.deliveredAt !== undefined) return;
		const read = readRawMessage(text, entry.path);
		const format = read.ok ? read.raw.format : "flat";
		if (entry.kind === "request") {
			await this.stamp(entry.path, format, (fm) => stampDeliveredRequest(fm, group, now, this.registry.communication));
			decisions.push(this.decision("delivered", entry.path, entry.path, this.index.get(entry.path), { reason: "finished after an interruption" }));
		} else {
			const request = entry.traceId ? requestAnswered(this.index, { kind: "response", trace_id: entry.traceId, source_group: entry.sourceGroup ?? "", status: "success", in_reply_to: entry.inReplyTo }) : undefined;
			await this.stamp(entry.path, format, (fm) => stampDeliveredResponse(fm, group, now, request));
			if (request) await this.archive(request);
			decisions.push(this.decision("answered", entry.path, entry.path, this.index.get(entry.path), { reason: "finished after an interruption" }));
		}
	}

	private async finishDeadLetter(stale: IndexEntry, decisions: RoutingDecision[]): Promise<void> {
		// As in finishDelivery: act on the dead letter as it is now, not as the index last saw it.
		const text = await this.port.read(stale.path);
		if (text === null) {
			this.index.remove(stale.path);
			return;
		}
		const entry = await this.indexFile(stale.path, text);
		if (!entry || entry.deadAt !== undefined || entry.state === "dead") return;
		if (entry.kind === "request" && (entry.state === "delivered" || entry.state === "retrying")) {
			decisions.push(await this.finishTimeout(entry.path));
			return;
		}
		const sender = entry.sourceGroup && this.layout.hasGroup(entry.sourceGroup) ? entry.sourceGroup : undefined;
		const verdict = decideOutboxNote({ path: entry.path, text, mtime: 0, group: sender ?? "" }, this.context(), 0);
		const code: ErrorCode = verdict.action === "reject" ? verdict.code : verdict.action === "duplicate" ? "DUPLICATE" : "INVALID_MESSAGE";
		const reason = verdict.action === "reject" ? verdict.reason : verdict.action === "duplicate" ? "message_id was already delivered" : "rejected; the reason was lost when routing was interrupted";
		const raw = verdict.action === "reject" || verdict.action === "duplicate" ? verdict.raw : readOk(text, entry.path);
		await this.stampRejection(entry.path, code, reason, raw, sender);
		const after = this.index.get(entry.path);
		if (code !== "DUPLICATE") await this.sendRouterResponse("error", after, code, reason, sender);
		decisions.push(this.decision(code === "DUPLICATE" ? "duplicate" : "rejected", entry.path, entry.path, after, { error_code: code, reason }));
	}

	private async writeLog(decisions: RoutingDecision[]): Promise<void> {
		const logged = decisions.filter((d) => this.layout.mayWrite(d.path));
		if (logged.length === 0) return;
		const byDay = new Map<string, RoutingDecision[]>();
		for (const d of logged) {
			const path = this.layout.logPath(new Date(d.time));
			const list = byDay.get(path);
			if (list) list.push(d);
			else byDay.set(path, [d]);
		}
		for (const [path, list] of byDay) {
			await this.port.ensureFolder(this.layout.logFolder);
			await this.port.append(path, list.map(logLine).join(""), logHeader(stem(path)));
		}
	}
}

/** The longest file name most file systems allow, in bytes. */
const MAX_NAME_BYTES = 255;

/** `text` cut to at most `max` bytes of UTF-8, between two characters. */
function fitBytes(text: string, max: number): string {
	if (utf8Length(text) <= max) return text;
	let out = "";
	let bytes = 0;
	for (const char of text) {
		bytes += utf8Length(char);
		if (bytes > max) break;
		out += char;
	}
	return out;
}

/**
 * What a note's routing depends on and changes: its trace and message ids, and its file name (two
 * notes of one name, from two outboxes, get their destination names in priority order).
 */
function conversationKeys(note: OutboxNote): string[] {
	const keys = [`name:${stem(note.path).toLowerCase()}`];
	if (!note.read?.ok) return keys;
	const f = note.read.raw.fields;
	if (typeof f.trace_id === "string") keys.push(`trace:${f.trace_id}`);
	if (typeof f.message_id === "string") keys.push(`id:${f.message_id}`);
	if (typeof f.in_reply_to === "string") keys.push(`id:${f.in_reply_to}`);
	return keys;
}

/** What the router read of an outbox note, for the adapter to skip reading it again after the move. */
function known(note: OutboxNote): KnownContent | undefined {
	return note.size === undefined ? undefined : { text: note.text, size: note.size, mtime: note.mtime, id: note.fileId };
}

function readOk(text: string, path: string): RawMessage | undefined {
	const read = readRawMessage(text, path);
	return read.ok ? read.raw : undefined;
}

/** "dead" for a dead letter the router quarantined (its own block over the original text). */
function quarantinedState(text: string): string | undefined {
	try {
		const fm = readFrontmatter(text);
		return fm?.quarantined === true && typeof fm.state === "string" ? fm.state : undefined;
	} catch {
		return undefined;
	}
}
