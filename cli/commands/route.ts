import type { ParsedArgs } from "../args";
import { UsageError, one } from "../args";
import { cliIdentity, deviceState, fileObservations, routingLock } from "../../node/device";
import { checkRegistry, existingVaultFolder, openSession, rootFolder, vaultFolder } from "../session";
import type { Session } from "../session";
import { printReport } from "../route-report";
import { terminalText } from "../../src/core/terminal-text";
import type { PassReport } from "../../src/router/pass-context";
import { watchRouting } from "../watch-loop";
import { NODE_TIMERS, SdkRemoteAgents } from "../../servers/a2a/sdk-remote-agents";
import { startTelemetry } from "../../node/telemetry/telemetry";

export const ROUTE_HELP = `Usage: a2a route [--watch] [--json] [--vault DIR] [--root NAME] [--grace SECONDS]
                 [--interval MS] [--forward-wait SECONDS] [--margin SECONDS]

Routes every pending outbox note and handles due timeouts, once, then exits. With --watch it keeps
routing as files change until interrupted (Ctrl+C). With --json it prints one JSON object per
decision: {"outcome", "message_id", "trace_id", "path", "error_code"}.

One device routes a vault at a time: the one named in <root>/router.md. When another device (or
another a2a route on this machine) routes, this command says so and does nothing. It takes over
when it has seen no renewal of that note for the sync margin.

Rejected messages are normal work: the exit code is 0 unless the vault or registry is unusable (2).
A note that cannot be read stays where it is and is reported once. With --watch, a round that fails
as a whole (a disk error) is reported and tried again after a pause (1 s, doubling up to 60 s).
--grace    with --watch, seconds a note that does not parse may wait to be completed (default 5)
--interval with --watch, how often to look for changes the file system did not report, in ms (default 2000)
--forward-wait  without --watch, seconds to wait for requests forwarded to remote agents (url:
           groups) to be answered before exiting (default 60); unfinished ones stay forwarded
--margin   the sync margin in seconds (default 120): how long another device's lease must go
           unrenewed before this router takes over ("One router at a time" in docs/protocol.md)
This device's id in router.md is made at random once per user and vault and kept in the user's
private state folder ($XDG_STATE_HOME/a2a-relay, else ~/.local/state/a2a-relay; owner-only), with
the routing lock; the host name is only the name people read.
A2A_DEVICE (environment) names this device in router.md instead.`;

function number(args: ParsedArgs, name: string, fallback: number, min: number): number {
	const raw = one(args, name);
	if (raw === undefined) return fallback;
	const value = Number(raw);
	if (!Number.isFinite(value) || value < min) throw new UsageError(`--${name} must be a number >= ${min}, got "${raw}"`);
	return value;
}


export async function runRoute(args: ParsedArgs, io: Pick<Session, "out" | "err">, signal?: AbortSignal): Promise<number> {
	const watch = args.booleans.has("watch");
	const graceMs = number(args, "grace", 5, 0) * 1000;
	const interval = number(args, "interval", 2000, 10);
	const marginMs = number(args, "margin", 120, 1) * 1000;
	const forwardWaitMs = number(args, "forward-wait", 60, 0) * 1000;
	const role = watch ? "a2a route --watch" : "a2a route";
	const choice = vaultFolder(args);
	const vaultDir = await existingVaultFolder(args, choice);
	// This device's id, lock and lease observations, from the user's private state folder.
	const state = deviceState(vaultDir, rootFolder(args));
	const session = await openSession(args, io, {
		graceMs: watch ? graceMs : 0,
		keepLastGoodRegistry: watch,
		boxesForNewGroups: watch,
		historyAsNeeded: !watch,
		marginMs,
		identity: cliIdentity(role, state),
		observations: fileObservations(state),
		localLock: routingLock(state, role),
		remotes: { remotes: new SdkRemoteAgents(), timers: NODE_TIMERS },
	}, choice);
	const registryErrors = checkRegistry(session);
	const { router } = session;
	const telemetry = await startTelemetry(process.env, io.err);
	const onReport = telemetry ? (report: PassReport) => telemetry.recorder.pass(report, router.index, Date.now()) : undefined;
	if (watch) {
		try {
			await watchRouting(session, { intervalMs: interval, signal, onReport });
		} finally {
			await telemetry?.sink.close();
		}
		return 0;
	}
	try {
		let report = await router.pass();
		// Another one-shot `a2a route` on this machine finishes its pass in moments: wait for it.
		for (let waited = 0; report.busy && /a2a route \(pid/.test(report.standby ?? "") && waited < 20000; waited += 200) {
			await new Promise((r) => setTimeout(r, 200));
			report = await router.pass();
		}
		if (report.busy) io.err(terminalText(`Not routing: ${report.standby ?? "another router routes this vault"}.`));
		// Requests sent to remote agents are followed until they are answered, up to a bound.
		const forwarder = router.forwarder;
		if (forwarder && forwarder.inFlight() > 0) {
			// The lease is renewed while waiting: the forwards are this router's work.
			const end = Date.now() + forwardWaitMs;
			while (forwarder.inFlight() > 0 && Date.now() < end) {
				await forwarder.settled(Math.min(end - Date.now(), router.lease.renewEveryMs));
				if (router.lease.renewalDue() && !(await router.lease.ensure())) break;
			}
			if (forwarder.inFlight() > 0) io.err(`${forwarder.inFlight()} request(s) to remote agents not finished after ${forwardWaitMs / 1000} s: they stay forwarded, and the next a2a route follows them.`);
			forwarder.take(report);
		}
		printReport(session, report);
		onReport?.(report);
		if (!session.json) io.err(`${report.decisions.length} decision(s).`);
	} finally {
		await router.stop();
		await telemetry?.sink.close();
	}
	return registryErrors ? 2 : 0;
}
