import { ignoreReason } from "../core/ignore";
import { isMessagePath } from "../core/message-parse";
import { basename } from "../core/paths";
import { orderFields, sortForRouting } from "../core/priority";
import { MAX_NOTE_BYTES } from "../core/protocol";
import { TEMP_NAME } from "./housekeeping";
import { UnreadableNotes, isUnreadable, readNote } from "./unreadable-notes";
import type { PassContext, PassReport, QueuedNote } from "./pass-context";

// The first step of a pass: which outbox notes there are (all of them, or the paths an event named),
// each read once, in routing order (priority, then oldest). Files rule 1 ignores are listed once by
// each router and never read; a note over the size limit is handed on unread beyond its head.

export class OutboxReader {
	private readonly reportedIgnores = new Set<string>();
	/** Outbox notes that are there but cannot be read: each stays where it is, said once while it stays so. */
	private readonly unreadable = new UnreadableNotes((path, why) => ({ path, error: `it cannot be read (${why}): it stays in its outbox, and is routed once it can be read` }));

	constructor(
		private readonly router: PassContext,
		private readonly oversize: (note: QueuedNote, report: PassReport) => Promise<void>,
	) {}

	async read(paths: string[] | undefined, report: PassReport): Promise<QueuedNote[]> {
		const { layout, port } = this.router;
		const files: { path: string; group: string }[] = [];
		if (paths) {
			for (const path of paths) {
				const location = layout.locate(path);
				if (location.area === "box" && location.box === "outbox") files.push({ path, group: location.group });
			}
		} else {
			for (const group of layout.groupIds()) {
				for (const path of await port.list(layout.box(group, "outbox") as string)) files.push({ path, group });
			}
		}
		const queue: QueuedNote[] = [];
		for (const { path, group } of files) {
			const ignored = ignoreReason(path) ?? (isMessagePath(path) ? null : "not a note (.md) or YAML file");
			if (ignored) {
				this.reportIgnored(path, ignored, report);
				continue;
			}
			const read = await readNote(port, path, { maxBytes: MAX_NOTE_BYTES + 1 });
			if (!read) {
				this.unreadable.readable(path);
				this.router.indexSync.remove(path);
				continue;
			}
			if (isUnreadable(read)) {
				this.unreadable.problem(path, read.unreadable);
				continue;
			}
			this.unreadable.readable(path);
			if (read.truncated) {
				await this.router.guarded(path, report, () => this.oversize({ path, group, read }, report));
				continue;
			}
			queue.push({ path, group, read, ...orderFields(read.text) });
		}
		report.failures.push(...this.unreadable.take());
		return sortForRouting(queue);
	}

	/**
	 * Rule 1: an ignored file is listed once by each router, never written to the log. The temporary
	 * files of a writer of this project (they live for a moment) are not listed at all.
	 */
	reportIgnored(path: string, reason: string, report: PassReport): void {
		if (this.reportedIgnores.has(path) || TEMP_NAME.test(basename(path))) return;
		this.reportedIgnores.add(path);
		report.decisions.push({ outcome: "ignored", path, reason, time: this.router.now() });
	}
}
