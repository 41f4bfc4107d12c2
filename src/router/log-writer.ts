import type { RoutingDecision } from "../core/decision";
import type { VaultLayout } from "../core/layout";
import { logHeader, logLine, parseLogLines, rowLine } from "../core/routing-log";
import { basename, stem } from "../core/paths";
import type { VaultPort } from "./vault-port";

// Writes the routing log: one row per decision, appended before the last step of the move it logs, so
// that a crash loses no row of a move already made. Rows are appended one by one (`write`) or, for a
// run of deliveries whose last steps wait for them, kept and appended in one write (`keep`, then
// `release`). Recovery asks `hasRow` before writing a row again, and rows of a log's sync-conflict
// copies are merged into the log.

/** A log conflict copy's name: `<day> … sync-conflict …`, `<day> (conflicted copy …)`, `<day> (… conflict …)`. */
const CONFLICT_COPY = /^(\d{4}-\d{2}-\d{2})[ .].*(?:sync-conflict|conflicted copy|\(conflict)/i;

/** A calendar day written as YYYY-MM-DD (2026-02-30 is not one). */
function isDay(day: string): boolean {
	const time = Date.parse(`${day}T00:00:00Z`);
	return Number.isFinite(time) && new Date(time).toISOString().startsWith(day);
}

/** True when every line is one a log note holds: its title, the table's head, rows, blank lines. */
function onlyLogLines(text: string): boolean {
	return text.split("\n").every((line) => line.trim() === "" || line.startsWith("| ") || /^# Routing log \d{4}-\d{2}-\d{2}\s*$/.test(line));
}

/** A message id and an outcome, as `writtenRows` holds them. */
function outcomeKey(decision: Pick<RoutingDecision, "outcome" | "message_id">): string {
	return `${decision.message_id}\n${decision.outcome}`;
}

/** A row on its way to a log: the log's path, the row's line, its key for `written`. */
interface LogRowToWrite {
	path: string;
	line: string;
	key: string;
	decision: RoutingDecision;
}

export class LogWriter {
	private readonly folders = new Set<string>();
	/** The rows this router wrote to the log of `writtenDay`, as lines and as message id and outcome. */
	private readonly written = new Set<string>();
	private readonly writtenRows = new Set<string>();
	private writtenDay = "";
	/** Rows kept by `keep` until `release`. */
	private kept: LogRowToWrite[] = [];
	/** Notes named like conflict copies that are not, already reported. */
	private readonly keptCopies = new Set<string>();
	/** What could not be written or merged since the last look: warnings for the pass report. */
	private problems: string[] = [];

	constructor(
		private readonly port: VaultPort,
		private readonly layout: () => VaultLayout,
	) {}

	/**
	 * Appends the row of one decision to the log of its day. Never throws: a log that cannot be
	 * written (a folder, a link or a locked file where the note should be) must not stop a move
	 * half way; the row is reported instead.
	 */
	async write(decision: RoutingDecision): Promise<void> {
		const row = this.rowOf(decision);
		if (!row) return;
		const error = await this.appendRows([row]);
		if (error === null) this.remember(row.key, row.path, row.decision);
		else this.report(row, error);
	}

	/**
	 * Keeps the row of one decision until `release`, which appends the rows kept in one write per
	 * log. The caller leaves the step the row logs undone until then (a crash before it leaves a
	 * transfer to finish, which logs the row then).
	 */
	keep(decision: RoutingDecision): void {
		const row = this.rowOf(decision);
		if (!row) return;
		this.kept.push(row);
		this.remember(row.key, row.path, row.decision);
	}

	/** Drops the rows kept: their steps are left to whoever finishes them (the router that holds the lease). */
	dropKept(): void {
		for (const row of this.kept) this.forget(row);
		this.kept = [];
	}

	/**
	 * Appends the rows kept since the last release, one write per log; when that write fails, row by
	 * row, as `write` would have (a log that cannot be written at all loses the rows, each reported).
	 * Never throws.
	 */
	async release(): Promise<void> {
		while (this.kept.length > 0) {
			const path = this.kept[0].path;
			const rows = this.kept.filter((row) => row.path === path);
			this.kept = this.kept.filter((row) => row.path !== path);
			if ((await this.appendRows(rows)) === null) continue;
			for (const row of rows) {
				const error = await this.appendRows([row]);
				if (error === null) continue;
				this.forget(row);
				this.report(row, error);
			}
		}
	}

	/** The row of a decision for its day's log, or null when it is not written (outside the router's folders, or written already). */
	private rowOf(decision: RoutingDecision): LogRowToWrite | null {
		const layout = this.layout();
		if (!layout.mayWrite(decision.path)) return null;
		const path = this.logPathOf(layout, decision.time);
		const line = logLine(decision);
		const key = `${path}\n${line}`;
		// The same row twice is one event written twice: a step finished again after a sync replaced the
		// log, or finished by two devices (the port does not append a row another device's log brought).
		if (this.written.has(key)) return null;
		return { path, line, key, decision };
	}

	/** Appends rows of one log in one write; the error when it could not, else null. */
	private async appendRows(rows: LogRowToWrite[]): Promise<unknown> {
		const layout = this.layout();
		try {
			if (!this.folders.has(layout.logFolder)) {
				await this.port.ensureFolder(layout.logFolder);
				this.folders.add(layout.logFolder);
			}
			await this.port.append(rows[0].path, rows.map((row) => row.line).join(""), logHeader(stem(rows[0].path)));
			return null;
		} catch (error) {
			return error ?? new Error("unknown error");
		}
	}

	private report(row: LogRowToWrite, error: unknown): void {
		this.problem(`the log ${row.path} could not be written (${error instanceof Error ? error.message : String(error)}); its row: ${row.line.trim()}`);
	}

	private day: { layout: VaultLayout; number: number; path: string } | null = null;

	/** The log of the UTC day of `time` (the last one is kept: a pass logs one day, row after row). */
	private logPathOf(layout: VaultLayout, time: number): string {
		const number = Math.floor(time / 86_400_000);
		if (this.day?.layout !== layout || this.day.number !== number) this.day = { layout, number, path: layout.logPath(new Date(time)) };
		return this.day.path;
	}

	/** Called after each problem met (see warnings-out.ts). */
	onProblem: () => void = () => undefined;

	private problem(text: string): void {
		this.problems.push(text);
		this.onProblem();
	}

	/** The problems met since the last call, once each. */
	takeProblems(): string[] {
		const problems = this.problems;
		this.problems = [];
		return problems;
	}

	/** Rows this router wrote, kept for the day (a log a sync engine just replaced may not show them yet). */
	private remember(key: string, path: string, decision: RoutingDecision): void {
		if (this.writtenDay !== path) {
			this.written.clear();
			this.writtenRows.clear();
			this.writtenDay = path;
		}
		this.written.add(key);
		if (decision.message_id) this.writtenRows.add(outcomeKey(decision));
	}

	private forget(row: LogRowToWrite): void {
		this.written.delete(row.key);
		if (row.decision.message_id) this.writtenRows.delete(outcomeKey(row.decision));
	}

	/** True when the log of `time`'s day already has a row of this outcome for this message. */
	async hasRow(decision: Pick<RoutingDecision, "outcome" | "message_id" | "time">): Promise<boolean> {
		if (!decision.message_id) return false;
		if (this.writtenDay === this.layout().logPath(new Date(decision.time)) && this.writtenRows.has(outcomeKey(decision))) return true;
		const read = await this.port.read(this.layout().logPath(new Date(decision.time))).catch(() => null);
		if (!read) return false;
		return parseLogLines(read.text).some((row) => row.messageId === decision.message_id && row.outcome === decision.outcome);
	}

	/**
	 * Rows of a log's conflict copies (two devices wrote the log of one day) that the log lacks join
	 * it, each written anew as the router writes rows (so a copy cannot bring HTML or links in), and
	 * the copy is removed. The log is rewritten only if unchanged since it was read (a sync engine may
	 * replace it meanwhile; then the next pass merges again), so a row is never there twice. Returns
	 * the copies merged.
	 */
	async mergeConflictCopies(): Promise<string[]> {
		const layout = this.layout();
		const merged: string[] = [];
		for (const path of await this.port.list(layout.logFolder)) {
			const day = CONFLICT_COPY.exec(basename(path))?.[1];
			if (!day || !isDay(day)) continue;
			try {
				if (await this.mergeCopy(path, layout.logPath(new Date(`${day}T00:00:00Z`)), day)) merged.push(path);
			} catch (error) {
				this.problem(`the log's conflict copy ${path} could not be merged (${error instanceof Error ? error.message : String(error)})`);
			}
		}
		return merged;
	}

	private async mergeCopy(path: string, mainPath: string, day: string): Promise<boolean> {
		const copy = await this.port.read(path);
		if (!copy) return false;
		const main = await this.port.read(mainPath);
		const have = new Set(parseLogLines(main?.text ?? "").map(rowLine));
		const missing: string[] = [];
		for (const row of parseLogLines(copy.text)) {
			const line = rowLine(row);
			if (line === null || have.has(line)) continue;
			have.add(line);
			missing.push(line);
		}
		if (missing.length > 0) {
			if (!main) await this.port.append(mainPath, missing.join(""), logHeader(day));
			else {
				const text = main.text.endsWith("\n") || main.text === "" ? main.text : `${main.text}\n`;
				if ((await this.port.replace(mainPath, text + missing.join(""), main)) !== "done") return false;
			}
		}
		// A note named like a conflict copy that holds more than log lines (prose) is kept, and said once.
		if (!onlyLogLines(copy.text)) {
			if (!this.keptCopies.has(path)) this.problem(`${path} is named like a conflict copy of the log but holds more than log rows: its rows are in the log, the note is kept`);
			this.keptCopies.add(path);
			return false;
		}
		return (await this.port.remove(path, copy)) === "done";
	}
}
