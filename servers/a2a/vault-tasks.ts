import type { Task } from "@a2a-js/sdk";
import { firstCandidateNames } from "../../src/core/file-names";
import type { Payload } from "../../src/core/message";
import type { IndexEntry } from "../../src/core/message-index";
import { readRawMessage } from "../../src/core/message-parse";
import { basename, joinPath } from "../../src/core/paths";
import type { Router } from "../../src/router/router";
import type { GatewayOutbox } from "./gateway-outbox";
import { CONTEXT_ID_FIELD } from "./mapping/message-to-request";
import { noteToTask } from "./mapping/note-to-task";
import type { TaskFacts } from "./mapping/note-to-task";

// The task store of `a2a serve` is the vault: a task is the gateway's request note with that
// message_id, wherever the router has put it (the gateway's outbox, the target's inbox or archive,
// the dead letters), plus the target's answer in the gateway's inbox or archive. Nothing about a
// task is kept in memory that the notes do not say, so tasks survive a restart of the server. The
// router's message index finds the notes; the notes are read for what the index does not hold
// (the payload, the client's contextId).

/** Which copy of a message id stands for its task when there are several (a duplicate, a race). */
function rank(entry: IndexEntry): number {
	const where = entry.location;
	if (where.area === "box" && where.box === "archive") return 0;
	if (where.area === "box" && where.box === "inbox") return 1;
	if (where.area === "dead-letter") return entry.errorCode === "DUPLICATE" ? 4 : 2;
	return 3;
}

/** Which of a request's copies stands for its task: by rank, then (an id archived twice) by path, never by the index's order. */
function taskCopyOrder(a: IndexEntry, b: IndexEntry): number {
	return rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

export class VaultTasks {
	/**
	 * Where each request was last seen. The index can lose a note for a moment while the router
	 * moves it (its create and remove reach the watcher in either order, and a slow check may list
	 * one folder before the other): a task is then looked for from where it was last seen.
	 */
	private readonly lastSeen = new Map<string, IndexEntry>();

	constructor(
		private readonly router: Router,
		readonly outbox: GatewayOutbox,
		private readonly gateway: () => string,
	) {}

	private isGatewayRequest(entry: IndexEntry): boolean {
		return entry.kind === "request" && entry.sourceGroup === this.gateway() && !(entry.location.area === "box" && entry.location.box === "outbox");
	}

	/** Every copy of the request `id` the gateway sent. */
	private copies(id: string): IndexEntry[] {
		const copies = this.router.index.withId(id).filter((e) => this.isGatewayRequest(e));
		const pending = this.outbox.get(id);
		if (pending) copies.push(pending.entry);
		return copies;
	}

	/** Where task `id`'s request is now, or null when the gateway never sent it. */
	locate(id: string): IndexEntry | null {
		const copies = this.copies(id);
		if (copies.length === 0) return this.lastSeen.get(id) ?? null;
		copies.sort(taskCopyOrder);
		this.lastSeen.set(id, copies[0]);
		return copies[0];
	}

	/** True when `id` is the message_id of some other message of the vault (not a gateway request). */
	usedElsewhere(id: string): boolean {
		return this.router.index.withId(id).some((e) => e.kind !== null && !this.isGatewayRequest(e));
	}

	/** The target's answer to a request, once the router delivered it to the gateway. */
	response(request: IndexEntry): IndexEntry | undefined {
		if (!request.messageId) return undefined;
		const gateway = this.gateway();
		const answers = this.router.index
			.repliesTo(request.messageId)
			.filter((e) => e.kind === "response" && !e.routerWritten && e.sourceGroup === request.targetGroup && e.location.area === "box" && e.location.group === gateway && e.location.box !== "outbox");
		answers.sort((a, b) => ((a.deliveredAt ?? "") < (b.deliveredAt ?? "") ? -1 : 1));
		return answers.find((e) => !e.late) ?? answers[0];
	}

	/** Every request the gateway sent, one copy per message id. */
	requests(): IndexEntry[] {
		const best = new Map<string, IndexEntry>();
		const consider = (entry: IndexEntry) => {
			if (!entry.messageId) return;
			const held = best.get(entry.messageId);
			if (!held || taskCopyOrder(entry, held) < 0) best.set(entry.messageId, entry);
		};
		for (const entry of this.router.index.withField("sourceGroup", this.gateway())) if (this.isGatewayRequest(entry)) consider(entry);
		for (const pending of this.outbox.all()) consider(pending.entry);
		for (const [id, entry] of this.lastSeen) if (!best.has(id)) best.set(id, entry);
		return [...best.values()];
	}

	private async readNote(path: string): Promise<{ payload: Payload; fields: Record<string, unknown> } | null> {
		const pending = this.outbox.byPath(path);
		if (pending) return pending;
		// A note that cannot be read fails the call (the client may ask again): a task built without its
		// answer would look finished with nothing in it.
		const read = await this.router.port.read(path);
		if (!read) return null;
		const parsed = readRawMessage(read.text, path);
		return parsed.ok ? { payload: parsed.raw.payload, fields: parsed.raw.fields } : null;
	}

	/** What the notes say about a request: its payload, the client's contextId, the answer. */
	async facts(request: IndexEntry): Promise<TaskFacts> {
		const note = await this.readNote(request.path);
		let response = this.response(request);
		const answered = request.state === "answered" || (request.location.area === "box" && request.location.box === "archive");
		if (!response && answered) {
			// The router delivers the answer before it archives the request, but the watcher may hear
			// of the archive first: the answer is already in the gateway's inbox, not yet indexed.
			await this.router.indexSync.rescan(true, false);
			response = this.response(request);
		}
		const answer = response ? await this.readNote(response.path) : null;
		const contextId = note?.fields[CONTEXT_ID_FIELD];
		return {
			request,
			requestPayload: note?.payload,
			contextId: typeof contextId === "string" && contextId !== "" ? contextId : undefined,
			response,
			responsePayload: answer?.payload,
		};
	}

	/** Task `id` as the vault shows it now, or null when the gateway never sent such a request (to `group`, when given). */
	async load(id: string, group?: string): Promise<Task | null> {
		let request = this.locate(id);
		if (!request || (group !== undefined && request.targetGroup !== group)) return null;
		if (!(await this.router.port.stat(request.path))) {
			request = await this.followMove(request, id);
			if (!request) return null;
		}
		return noteToTask(await this.facts(request));
	}

	/**
	 * The note moved since the index last heard of it (the watcher's event is still on its way):
	 * look where the router puts it next, under the names it would give it, then everywhere.
	 */
	private async followMove(request: IndexEntry, id: string): Promise<IndexEntry | null> {
		await this.refresh([request.path]);
		const { layout, port, indexSync } = this.router;
		const target = request.targetGroup ?? "";
		// The archive's month folder of now, and the flat archive of a router that predates month folders.
		const archived = [layout.archiveFolder(target, new Date(this.router.now())), layout.box(target, "archive")];
		const folders = [layout.box(target, "inbox"), ...archived, layout.deadLetterFolder].filter((f): f is string => f !== null);
		const names = firstCandidateNames(basename(request.path), id, 3);
		for (const folder of folders) {
			for (const name of names) {
				const path = joinPath(folder, name);
				if (await port.stat(path)) await indexSync.refresh(path);
			}
		}
		const found = this.locate(id);
		if (found) return found;
		await indexSync.rescan(true, true);
		await this.outbox.load();
		return this.locate(id);
	}

	/**
	 * Brings paths up to date in the index (or the outbox map); returns the task ids they touch:
	 * a request's own id, or the id a response answers.
	 */
	async refresh(paths: Iterable<string>): Promise<string[]> {
		const touched: string[] = [];
		const { layout, indexSync, index } = this.router;
		const gateway = this.gateway();
		for (const path of paths) {
			const location = layout.locate(path);
			if (location.area === "box" && location.box === "outbox" && location.group === gateway) {
				touched.push(...(await this.outbox.refresh(path)));
				continue;
			}
			const before = index.get(path);
			const after = await indexSync.refresh(path);
			for (const entry of [before, after]) {
				if (entry?.messageId) touched.push(entry.messageId);
				if (entry?.inReplyTo) touched.push(entry.inReplyTo);
			}
		}
		return touched;
	}
}
