import { decisionJson } from "../../src/core/decision";
import type { RoutingDecision } from "../../src/core/decision";
import type { ParsedArgs } from "../args";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const ROUTE_HELP = `Usage: a2a route [--watch] [--json] [--vault DIR] [--root NAME] [--grace SECONDS] [--interval MS]

Routes every pending outbox note and handles due timeouts, once, then exits. With --watch it keeps
routing as files change until interrupted (Ctrl+C). With --json it prints one JSON object per
decision: {"outcome", "message_id", "trace_id", "path", "error_code"}.

Rejected messages are normal work: the exit code is 0 unless the vault or registry is unusable (2).
--grace   with --watch, seconds a note that does not parse may wait to be completed (default 5)
--interval with --watch, how often to look for new notes, in milliseconds (default 250)`;

function describe(d: RoutingDecision): string {
	const route = d.source_group || d.target_group ? ` ${d.source_group ?? "?"} -> ${d.target_group ?? "?"}` : "";
	const code = d.error_code ? ` ${d.error_code}:` : "";
	const why = d.reason ? ` ${d.reason}` : "";
	return `${d.outcome.padEnd(9)} ${d.message_id ?? "-"}${route}${code}${why} (${d.path})`;
}

export async function runRoute(args: ParsedArgs, io: Pick<Session, "out" | "err">, signal?: AbortSignal): Promise<number> {
	const watch = args.booleans.has("watch");
	const graceSeconds = Number(args.values.get("grace")?.[0] ?? 5);
	const interval = Number(args.values.get("interval")?.[0] ?? 250);
	const session = await openSession(args, io, { graceMs: watch ? graceSeconds * 1000 : 0 });
	const registryErrors = checkRegistry(session);
	const { router } = session;
	const print = (decisions: RoutingDecision[]) => {
		for (const d of decisions) io.out(session.json ? decisionJson(d) : describe(d));
	};
	await router.buildIndex();
	if (!watch) {
		let report = await router.pass();
		// Another router holds the vault: wait for it (up to its lease) rather than doing nothing.
		for (let waited = 0; report.busy && waited < 20000; waited += 200) {
			await new Promise((r) => setTimeout(r, 200));
			// The other router changed the vault meanwhile: an index read before would be behind it
			// (it would miss what was just delivered, the basis of duplicate and cycle checks).
			await router.refreshIndex();
			report = await router.pass();
		}
		if (report.busy) throw new Error("another router is routing this vault; try again when it has finished");
		print(report.decisions);
		if (!session.json) io.err(`${report.decisions.length} decision(s).`);
		return registryErrors ? 2 : 0;
	}
	if (!session.json) io.err(`Watching ${session.vault.dir} (${router.layout.root}); press Ctrl+C to stop.`);
	const stopped = new Promise<void>((resolve) => {
		const stop = () => resolve();
		process.once("SIGINT", stop);
		process.once("SIGTERM", stop);
		signal?.addEventListener("abort", stop);
	});
	let running = true;
	void stopped.then(() => (running = false));
	while (running) {
		if (await router.loadRegistry()) {
			checkRegistry(session);
			await router.buildIndex();
		} else {
			await router.refreshIndex();
		}
		const report = await router.pass();
		print(report.decisions);
		await Promise.race([new Promise((r) => setTimeout(r, interval)), stopped]);
	}
	return 0;
}
