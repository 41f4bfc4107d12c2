import { hasRouterStamps, sameApartFromTimes } from "../core/copies";
import type { RoutingDecision } from "../core/decision";
import { candidateNames } from "../core/file-names";
import { basename } from "../core/paths";
import { moveUnderFreeName } from "./free-names";
import type { PassContext } from "./pass-context";
import type { ReadFile } from "./vault-port";

// How the router's notes move, always under the first free name of the fixed sequence of
// src/core/file-names.ts, never over another note: an outbox note carried on as its stamped copy
// (transfer), and a note the router already stamped moved on (an answered request to its archive).

export class NoteWriter {
	private readonly folders = new Set<string>();

	constructor(private readonly ctx: Pick<PassContext, "port" | "indexSync" | "log" | "decision">) {}

	/**
	 * Moves `note` into `folder` as `stamped` (the router's copy of what it read), under a free name,
	 * and logs `outcome` before the transfer's last step. Null when the note changed since it was
	 * read: it stays, to be decided again as what it now is.
	 */
	async transfer(
		note: { path: string; read: ReadFile },
		folder: string,
		messageId: string,
		stamped: { text: string; fields?: Record<string, unknown> },
		outcome: RoutingDecision["outcome"],
		extra: Partial<RoutingDecision> = {},
	): Promise<RoutingDecision | null> {
		let decision: RoutingDecision | null = null;
		// A note that already bears the router's stamps was part way through a transfer when a pass stopped.
		const resumed = hasRouterStamps(note.read.text);
		const result = await this.ctx.port.transfer(note.read, folder, candidateNames(basename(note.path), messageId), stamped.text, {
			isEarlierCopy: (text) => sameApartFromTimes(text, stamped.text, note.path),
			beforeFinish: async (path, existed) => {
				const entry = stamped.fields && !existed ? this.ctx.indexSync.indexFields(path, stamped.fields) : this.ctx.indexSync.indexText(path, stamped.text);
				decision = this.ctx.decision(outcome, path, note.path, entry, extra);
				if (!(existed || resumed) || !(await this.ctx.log.hasRow(decision))) await this.ctx.log.write(decision);
			},
		});
		if (result === "changed" || result === "missing") {
			if (decision) this.ctx.indexSync.remove((decision as RoutingDecision).path);
			return null;
		}
		this.ctx.indexSync.remove(note.path);
		return decision;
	}

	/** Moves a note into `folder` under the first free name; null when the note is gone. */
	async move(from: string, folder: string, fileName: string, messageId: string): Promise<string | null> {
		if (!this.folders.has(folder)) {
			await this.ctx.port.ensureFolder(folder);
			this.folders.add(folder);
		}
		return moveUnderFreeName(this.ctx.port, from, folder, fileName, messageId);
	}
}
