import { terminalText } from "../../src/core/terminal-text";
import { findRequest } from "../../src/router/message-lookup";
import { describeOutcome } from "../../src/router/request-state";
import type { RequestState } from "../../src/router/request-state";
import { UsageError, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { messageText } from "../message-text";
import { waitForOutcome } from "../../node/response-waiter";
import { checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const WAIT_HELP = `Usage: a2a wait --message ID [--timeout S] [--json] [--vault DIR] [--root NAME]

Waits for the outcome of the request whose message_id is ID, as its sender sees it:
  answered   its target's response is in the sender's inbox          exit 0, the response printed
  timed_out  the router gave up waiting (its timeout response)         exit 0, that response printed
  rejected   the router refused the request (its error response)       exit 0, that response printed
  pending    S seconds passed with nothing changed                     exit 3
It sleeps until the file arrives (the inbox and the dead-letter folder are watched; no busy
polling) and returns within moments of the delivery. Without --timeout it waits until the outcome.
With --json, one object: {"state", "message_id", "trace_id", "target_group", "request", "response",
"dead_letter"}. Take the response out of the inbox afterwards with a2a take ID.
The sender is the group the request's note names: only what the router carried into its inbox in
reply to ID (its target's answer, or the router's own response) settles it, never another group's
note that reuses the id.`;

/** Exit code of `a2a wait` when the time given passed with nothing changed. */
export const EXIT_PENDING = 3;

function seconds(args: ParsedArgs): number | null {
	const raw = one(args, "timeout");
	if (raw === undefined) return null;
	const value = Number(raw);
	if (raw.trim() === "" || !Number.isFinite(value) || value < 0) throw new UsageError(`--timeout must be a number of seconds >= 0, got "${raw}"`);
	return value;
}

function print(io: Pick<Session, "out">, json: boolean, view: RequestState): void {
	if (json) {
		io.out(JSON.stringify(view));
		return;
	}
	io.out(`state: ${view.state}`);
	if (view.dead_letter) io.out(terminalText(`dead letter: ${view.dead_letter.path}`));
	if (view.response) for (const line of messageText(view.response)) io.out(line);
}

export async function runWait(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const id = required(args, "message", "the message_id of the request to wait for (what a2a send printed)");
	const timeout = seconds(args);
	const session = await openSession(args, io);
	checkRegistry(session);
	const { router, vault } = session;
	const request = await findRequest(router, id);
	const { outcome } = await waitForOutcome(router, request, { timeoutMs: timeout === null ? null : timeout * 1000, abs: (p) => vault.abs(p) });
	const view = await describeOutcome(router, request, outcome);
	if (view.state === "pending") {
		if (session.json) io.out(JSON.stringify(view));
		else io.err(terminalText(`No outcome for ${id} after ${timeout ?? 0} s: it is still pending (the request is in the ${view.request.where} of ${view.request.group ?? "?"}).`));
		return EXIT_PENDING;
	}
	print(io, session.json, view);
	return 0;
}
