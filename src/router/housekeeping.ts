import { ignoreReason } from "../core/ignore";
import { parseLease } from "../core/lease";
import { basename } from "../core/paths";
import type { PassContext, PassReport } from "./pass-context";

/** How a pass's warning says that two devices routed at once (the sidebar looks for it). */
export const TWO_ROUTERS = "two devices both routed this vault for a while";

const isConflictCopy = (name: string): boolean => ignoreReason(name) === "a sync-conflict copy";

// What the router tidies now and then: temporary files a killed writer left behind (hidden
// `.a2a-….tmp` files of this project's writers, removed once they are older than a minute: no
// writer takes that long over one note), and the rows of a routing log's sync-conflict copies,
// merged into the log.

const STALE_TEMP_MS = 60_000;
/** How often a long-running router tidies (a one-shot `a2a route` tidies once). */
const EVERY_MS = 10 * 60_000;

export const TEMP_NAME = /^\.a2a-.*\.tmp$/;

export class Housekeeping {
	private lastRun = Number.NEGATIVE_INFINITY;
	/** Temporary files removed so far (for reports and tests). */
	removedTemps = 0;

	constructor(private readonly router: PassContext) {}

	/** The sync-conflict copies of the log and the lease, at every pass (their folders are short); stale temps now and then. */
	async run(report: PassReport): Promise<void> {
		const merged = await this.router.log.mergeConflictCopies();
		if (merged.length > 0) report.warnings.push(`merged the rows of ${merged.join(", ")} into the log (two devices wrote the log of one day)`);
		await this.settleLeaseConflicts(report);
		const now = this.router.now();
		if (now - this.lastRun < EVERY_MS) return;
		this.lastRun = now;
		await this.removeStaleTemps(now);
	}

	/**
	 * A conflict copy of the lease note means two devices wrote it without seeing each other (both
	 * believed they route, during a sync partition). The note that won stands; the copy is reported
	 * and removed.
	 */
	private async settleLeaseConflicts(report: PassReport): Promise<void> {
		const { port, layout } = this.router;
		const lease = basename(layout.leasePath).replace(/\.md$/, "");
		for (const path of await port.list(layout.root)) {
			const name = basename(path);
			if (!name.startsWith(lease) || !isConflictCopy(name)) continue;
			const copy = parseLease((await port.read(path))?.text ?? null);
			report.warnings.push(`${TWO_ROUTERS} (${copy?.name ?? "another device"} and the one in ${basename(layout.leasePath)}): ${name} removed`);
			await port.remove(path);
		}
	}

	/**
	 * The folders this project's writers create files in (archives only ever receive moves, which
	 * leave no temporary file, so their long listings are not read).
	 */
	private folders(): string[] {
		const layout = this.router.layout;
		const boxes = layout.groupIds().flatMap((g) => [layout.box(g, "inbox") as string, layout.box(g, "outbox") as string]);
		return [layout.root, layout.logFolder, layout.deadLetterFolder, ...boxes];
	}

	private async removeStaleTemps(now: number): Promise<void> {
		const port = this.router.port;
		for (const folder of this.folders()) {
			for (const path of await port.list(folder)) {
				if (!TEMP_NAME.test(basename(path))) continue;
				const info = await port.stat(path);
				if (!info || now - info.mtime < STALE_TEMP_MS) continue;
				if ((await port.remove(path)) === "done") this.removedTemps++;
			}
		}
	}
}
