import type { RoutingDecision } from "../core/decision";
import type { VaultLayout } from "../core/layout";
import { logHeader, logLine, parseLogLines } from "../core/routing-log";
import { basename, stem } from "../core/paths";
import type { VaultPort } from "./vault-port";

// Writes the routing log: one row per decision, appended as soon as the decision is carried out, so
// that a crash loses no row of a move already made. Recovery asks `hasRow` before writing a row
// again, and rows of a log's sync-conflict copies are merged into the log.

export class LogWriter {
	private readonly folders = new Set<string>();

	constructor(
		private readonly port: VaultPort,
		private readonly layout: () => VaultLayout,
	) {}

	/** Appends the row of one decision to the log of its day. */
	async write(decision: RoutingDecision): Promise<void> {
		const layout = this.layout();
		if (!layout.mayWrite(decision.path)) return;
		const path = layout.logPath(new Date(decision.time));
		if (!this.folders.has(layout.logFolder)) {
			await this.port.ensureFolder(layout.logFolder);
			this.folders.add(layout.logFolder);
		}
		await this.port.append(path, logLine(decision), logHeader(stem(path)));
	}

	/** True when the log of `time`'s day already has a row of this outcome for this message. */
	async hasRow(decision: Pick<RoutingDecision, "outcome" | "message_id" | "time">): Promise<boolean> {
		if (!decision.message_id) return false;
		const read = await this.port.read(this.layout().logPath(new Date(decision.time)));
		if (!read) return false;
		return parseLogLines(read.text).some((row) => row.messageId === decision.message_id && row.outcome === decision.outcome);
	}

	/**
	 * Rows of a log's conflict copies (two devices wrote the log of one day) that the log lacks are
	 * appended to it, and the copy is removed. Returns the copies merged.
	 */
	async mergeConflictCopies(): Promise<string[]> {
		const layout = this.layout();
		const merged: string[] = [];
		for (const path of await this.port.list(layout.logFolder)) {
			const day = /^(\d{4}-\d{2}-\d{2})[ .].*(?:sync-conflict|conflicted copy|\(conflict)/i.exec(basename(path))?.[1];
			if (!day) continue;
			const copy = await this.port.read(path);
			if (!copy) continue;
			const mainPath = layout.logPath(new Date(`${day}T00:00:00Z`));
			const main = await this.port.read(mainPath);
			const have = new Set((main?.text ?? "").split("\n"));
			const missing = copy.text.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| Time") && !line.startsWith("| ---") && !have.has(line));
			if (missing.length > 0) await this.port.append(mainPath, `${missing.join("\n")}\n`, logHeader(day));
			if ((await this.port.remove(path, copy)) === "done") merged.push(path);
		}
		return merged;
	}
}
