import type { VaultLayout } from "../../src/core/layout";
import { entryFromRaw } from "../../src/core/message-index";
import type { Payload } from "../../src/core/message";
import type { IndexEntry } from "../../src/core/message-index";
import { isMessagePath, readRawMessage } from "../../src/core/message-parse";
import type { RawMessage, ReadResult } from "../../src/core/message-parse";
import { ignoreReason } from "../../src/core/ignore";
import type { FileInfo, ReadFile, VaultPort } from "../../src/router/vault-port";

// The gateway group's outbox, read: the requests `a2a serve` wrote that the router has not taken
// yet. The router's index only counts outbox notes (it reads them when it routes them), so the
// gateway keeps this small map itself: message_id -> the note. It is read at start, updated on each
// write, and refreshed for every outbox change the watcher reports.

export interface PendingNote {
	path: string;
	entry: IndexEntry;
	/** The note as read when it was written (or found): the router never edits an outbox note. */
	payload: Payload;
	fields: Record<string, unknown>;
	/** The file's identity on disk (a name is reused once the router moved a note away, an inode number once freed). */
	fileId?: string;
}

const identity = (info: FileInfo): string => `${info.id ?? ""}:${info.mtime}:${info.size}`;

export class GatewayOutbox {
	private readonly byId = new Map<string, PendingNote>();
	private readonly idByPath = new Map<string, string>();

	constructor(
		private readonly port: VaultPort,
		private readonly layout: () => VaultLayout,
		private readonly gateway: () => string,
		/** Reads a note whole; null when it is gone or cannot be read (said once: IndexSync.readWhole). */
		private readonly readWhole: (path: string) => Promise<ReadFile | null>,
	) {}

	folder(): string | null {
		return this.layout().box(this.gateway(), "outbox");
	}

	/** Reads the whole outbox again (at start, after a registry change, on the slow check). */
	async load(): Promise<string[]> {
		const folder = this.folder();
		const listed = new Set(folder ? await this.port.list(folder) : []);
		const touched: string[] = [];
		for (const path of [...this.idByPath.keys()]) {
			if (!listed.has(path)) touched.push(...this.forget(path));
		}
		for (const path of listed) if (!this.idByPath.has(path)) touched.push(...(await this.refresh(path)));
		return touched;
	}

	/** Brings one outbox path up to date; returns the message ids it touched. */
	async refresh(path: string): Promise<string[]> {
		// A note the gateway wrote is never edited in the outbox (the router moves it whole): while it
		// is there, what was read stays true.
		const known = this.byPath(path);
		const now = known ? await this.port.stat(path) : null;
		if (known && now && (known.fileId === undefined || known.fileId === identity(now))) {
			known.fileId = identity(now);
			return [known.entry.messageId as string];
		}
		const touched = this.forget(path);
		if (ignoreReason(path) || !isMessagePath(path)) return touched;
		const read = await this.readWhole(path);
		if (!read) return touched;
		this.add(path, read.text, identity(read.info));
		const id = this.idByPath.get(path);
		return id ? [...touched, id] : touched;
	}

	/**
	 * Records a note just written (or read) at `path`; `fileId` is its identity on disk when known.
	 * `raw`: `text` as readRawMessage reads it (with its body), when the writer has it already.
	 */
	add(path: string, text: string, fileId?: string, raw?: RawMessage): void {
		this.forget(path);
		const location = this.layout().locate(path);
		const parsed: ReadResult = raw ? { ok: true, raw } : readRawMessage(text, path, true);
		if (!parsed.ok) return;
		const entry = entryFromRaw(path, location, parsed.raw);
		if (entry.kind !== "request" || !entry.messageId || entry.sourceGroup !== this.gateway()) return;
		this.byId.set(entry.messageId, { path, entry, payload: parsed.raw.payload, fields: parsed.raw.fields, fileId });
		this.idByPath.set(path, entry.messageId);
	}

	private forget(path: string): string[] {
		const id = this.idByPath.get(path);
		if (id === undefined) return [];
		this.idByPath.delete(path);
		if (this.byId.get(id)?.path === path) this.byId.delete(id);
		return [id];
	}

	get(id: string): PendingNote | undefined {
		return this.byId.get(id);
	}

	/** The pending note at `path`, if the outbox holds one there. */
	byPath(path: string): PendingNote | undefined {
		const id = this.idByPath.get(path);
		const note = id === undefined ? undefined : this.byId.get(id);
		return note?.path === path ? note : undefined;
	}

	all(): PendingNote[] {
		return [...this.byId.values()];
	}

	clear(): void {
		this.byId.clear();
		this.idByPath.clear();
	}
}
