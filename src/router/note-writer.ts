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

/** How many transfers share one write of their log rows (see `finishKept`). */
export const TRANSFERS_PER_LOG_WRITE = 64;

export class NoteWriter {
	private readonly folders = new Set<string>();
	/** Transfers whose last step waits for their log rows (see `transfer`'s option keepRow). */
	private readonly unfinished: { path: string; finish: () => Promise<void> }[] = [];

	constructor(private readonly ctx: Pick<PassContext, "port" | "indexSync" | "log" | "decision">) {}

	/**
	 * Moves `note` into `folder` as `stamped` (the router's copy of what it read), under a free name,
	 * and logs `outcome` before the transfer's last step. Null when the note changed since it was
	 * read: it stays, to be decided again as what it now is. With `keepRow` (and an adapter that can
	 * leave a transfer's last step), the row is kept in memory and the note's removal waits with it
	 * until `finishKept`: many transfers then share one write of the log.
	 */
	async transfer(
		note: { path: string; read: ReadFile },
		folder: string,
		messageId: string,
		stamped: { text: string; fields?: Record<string, unknown> },
		outcome: RoutingDecision["outcome"],
		extra: Partial<RoutingDecision> = {},
		keepRow = false,
	): Promise<RoutingDecision | null> {
		const keep = keepRow && this.ctx.port.canLeaveLastStep === true;
		let decision: RoutingDecision | null = null;
		// A note that already bears the router's stamps was part way through a transfer when a pass stopped.
		const resumed = hasRouterStamps(note.read.text);
		const result = await this.ctx.port.transfer(note.read, folder, candidateNames(basename(note.path), messageId), stamped.text, {
			isEarlierCopy: (text) => sameApartFromTimes(text, stamped.text, note.path),
			beforeFinish: async (path, existed) => {
				const entry = stamped.fields && !existed ? this.ctx.indexSync.indexFields(path, stamped.fields) : this.ctx.indexSync.indexText(path, stamped.text);
				decision = this.ctx.decision(outcome, path, note.path, entry, extra);
				if (existed || resumed ? await this.ctx.log.hasRow(decision) : false) return;
				if (keep) this.ctx.log.keep(decision);
				else await this.ctx.log.write(decision);
			},
			leaveLastStep: keep,
		});
		if (result === "changed" || result === "missing") {
			if (decision) this.ctx.indexSync.remove((decision as RoutingDecision).path);
			return null;
		}
		if (result.finish) this.unfinished.push({ path: note.path, finish: result.finish });
		this.ctx.indexSync.remove(note.path);
		return decision;
	}

	/** Transfers kept unfinished (see `transfer`'s option keepRow). */
	get unfinishedCount(): number {
		return this.unfinished.length;
	}

	/** Writes the rows kept, then takes each kept transfer's last step (each through `guarded`). */
	async finishKept(guarded: (path: string, step: () => Promise<void>) => Promise<void>): Promise<void> {
		await this.ctx.log.release();
		for (const transfer of this.unfinished.splice(0)) await guarded(transfer.path, transfer.finish);
	}

	/** Leaves the kept transfers half done, for the router that holds the lease (see Deliveries.finishInterrupted, src/router/deliveries.ts). */
	abandonKept(): void {
		this.ctx.log.dropKept();
		this.unfinished.length = 0;
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
