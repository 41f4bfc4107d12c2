import { parseTime } from "../src/core/time";
import type { McpAgent } from "./mcp-agents";

// A load of request/response pairs through MCP agent processes and one router, shared by the load
// test (small) and `npm run bench` (500 pairs). Each agent asks the other agents in turn (a few
// requests in flight at once), waits for each answer with wait_for_response, and takes it; at the
// same time it answers what lands in its own inbox (list_inbox, then reply).

export interface LoadOptions {
	agents: McpAgent[];
	/** Requests each agent sends. */
	pairsPerAgent: number;
	/** Requests one agent has in flight at once. */
	inFlight?: number;
	/** Pause of an answering loop that found its inbox empty (ms). */
	idleMs?: number;
}

export interface LoadResult {
	/** Request id -> the id of the response its sender took. */
	answers: Map<string, string>;
	/** Responses taken, counted per response id (each must be 1). */
	takenCounts: Map<string, number>;
	/** Replies written, per request id (each must be 1). */
	replyCounts: Map<string, number>;
	/** For each wait that was already waiting when its answer was delivered: ms from delivered_at to the wait's return. */
	waitLatenciesMs: number[];
	/** wait_for_response calls that returned pending (then called again). */
	pendingReturns: number;
	/** Replies refused because the request was answered already (listed just before the router archived it). */
	alreadyAnswered: number;
	/** Outcomes other than answered (must be none). */
	failures: string[];
	durationMs: number;
}

interface WaitOutcome {
	state: string;
	response?: { message_id: string; delivered_at?: string };
}

async function ask(agent: McpAgent, to: string, n: number, result: LoadResult): Promise<void> {
	const sent = await agent.ok<{ message_id: string }>("send_request", { to, type: "query", question: `Question ${n} from ${agent.group}?` });
	for (;;) {
		const started = Date.now();
		const outcome = await agent.ok<WaitOutcome>("wait_for_response", { message_id: sent.message_id, timeout_seconds: 45 });
		const returned = Date.now();
		if (outcome.state === "pending") {
			result.pendingReturns++;
			continue;
		}
		if (outcome.state !== "answered" || !outcome.response) {
			result.failures.push(`${sent.message_id}: ${outcome.state}`);
			return;
		}
		const delivered = parseTime(outcome.response.delivered_at);
		if (!Number.isNaN(delivered) && delivered >= started) result.waitLatenciesMs.push(returned - delivered);
		result.answers.set(sent.message_id, outcome.response.message_id);
		const taken = await agent.ok<{ taken: { message_id: string }[] }>("take_response", { message_id: outcome.response.message_id });
		for (const t of taken.taken) result.takenCounts.set(t.message_id, (result.takenCounts.get(t.message_id) ?? 0) + 1);
		return;
	}
}

async function askAll(agent: McpAgent, targets: string[], options: LoadOptions, result: LoadResult): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < options.pairsPerAgent) {
			const n = next++;
			await ask(agent, targets[n % targets.length], n, result);
		}
	};
	await Promise.all(Array.from({ length: options.inFlight ?? 2 }, worker));
}

async function answerUntil(agent: McpAgent, done: () => boolean, options: LoadOptions, result: LoadResult): Promise<void> {
	while (!done()) {
		const inbox = await agent.ok<{ messages: { message_id: string; summary: string }[] }>("list_inbox", { kind: "requests" });
		for (const request of inbox.messages) {
			const reply = await agent.call("reply", { message_id: request.message_id, status: "success", answer: `Answer to: ${request.summary}` });
			const text = JSON.stringify(reply.content);
			// Listed in the moment between the router delivering the answer and archiving the request: refused, nothing written.
			if (reply.isError && /already answered/.test(text)) {
				result.alreadyAnswered++;
				continue;
			}
			if (reply.isError) throw new Error(`reply failed: ${text}`);
			result.replyCounts.set(request.message_id, (result.replyCounts.get(request.message_id) ?? 0) + 1);
		}
		if (inbox.messages.length === 0) await new Promise((r) => setTimeout(r, options.idleMs ?? 40));
	}
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
	const result: LoadResult = { answers: new Map(), takenCounts: new Map(), replyCounts: new Map(), waitLatenciesMs: [], pendingReturns: 0, alreadyAnswered: 0, failures: [], durationMs: 0 };
	const groups = options.agents.map((a) => a.group);
	const start = Date.now();
	let asking = options.agents.length;
	const askers = options.agents.map((agent) =>
		askAll(agent, groups.filter((g) => g !== agent.group), options, result).finally(() => {
			asking--;
		}),
	);
	const answerers = options.agents.map((agent) => answerUntil(agent, () => asking === 0, options, result));
	await Promise.all([...askers, ...answerers]);
	result.durationMs = Date.now() - start;
	return result;
}

/** The p-th percentile (0-100) of `values` (nearest rank). */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
