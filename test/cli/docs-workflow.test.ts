import { describe, expect, it } from "vitest";
import { blockLabel, until, useDocRunner, whereEverythingIs, workflowBlocks } from "../helpers/doc-examples";
import type { Background, NoteOnDisk, RunResult } from "../helpers/doc-examples";
import { a2a } from "../helpers/temp-vault";

// The agents of docs/agents.md, run as the page shows them, together: its `a2a route --watch` routes;
// answer.sh answers for 40-security-group and answer.py for 20-frontend-group, both in the
// background; ask.py (10-backend-group asks 20-frontend-group, which asks 40-security-group on the
// same trace with --parent before it answers) and ask.sh (30-devops-group asks 40-security-group)
// run to their end. Then every note must be where the page says: each request in its target's
// archive (answered), each response in its asker's archive (taken), nothing left anywhere else.
// The blocks are read from the Markdown itself: what is tested is what a reader copies.

const runner = useDocRunner();
const GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"] as const;

function expectClean(run: RunResult, label: string): void {
	expect({ label, code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ label, code: 0, signal: null, stderr: "" });
}

describe("the agents of docs/agents.md, end to end", () => {
	it("a question answered with a delegated review (Python) and a review (shell): every note ends in its archive", async () => {
		const { router, agents } = workflowBlocks();
		const [answerSh, answerPy, askPy, askSh] = agents;
		const h = await runner.home();
		expect((await a2a(h.vault, "init")).code).toBe(0);

		const background: Background[] = [runner.start(router, h), runner.start(answerSh, h), runner.start(answerPy, h)];
		const diagnose = () => background.map((b) => `--- ${blockLabel(b.block)}:\n${b.output()}`).join("\n");

		const [python, shell] = await Promise.all([runner.run(askPy, h, 90_000), runner.run(askSh, h, 90_000)]);
		expect(python.code, `${python.stdout}${python.stderr}\n${diagnose()}`).toBe(0);
		expect(shell.code, `${shell.stdout}${shell.stderr}\n${diagnose()}`).toBe(0);
		expectClean(python, blockLabel(askPy));
		expectClean(shell, blockLabel(askSh));

		// What each asker printed: its ids, and the answer it read.
		const backend = /^asked (\S+) on trace (\S+)$/m.exec(python.stdout);
		expect(backend, python.stdout).not.toBeNull();
		const [, backendId, backendTrace] = backend as RegExpExecArray;
		expect(python.stdout).toMatch(/^answer: name, email and password are mandatory\. Reviewed by 40-security-group: no finding\.$/m);
		const devopsId = /^asked (\S+)$/m.exec(shell.stdout)?.[1];
		expect(devopsId, shell.stdout).toMatch(/^[0-9a-f-]{36}$/);
		expect(shell.stdout).toContain("## Answer\nReviewed by 40-security-group: no finding.");

		// The answering agents run until stopped, as the page says; they end on SIGTERM.
		for (const b of background.slice(1)) await runner.stop(b);
		const stoppedAgents = background.slice(1).map((b) => b.output());
		expect(stoppedAgents.join("\n")).not.toMatch(/Traceback|a2a [a-z]+: /);

		// Everything is settled: every outbox and inbox empty, two notes in each of three archives, one in the fourth.
		let places: Record<string, NoteOnDisk[]> = {};
		const counts = () => Object.fromEntries(Object.entries(places).map(([p, notes]) => [p, notes.length]).filter(([, n]) => n !== 0));
		await until(
			async () => {
				places = await whereEverythingIs(h.vault, GROUPS);
				return JSON.stringify(counts()) === JSON.stringify({ "10-backend-group/archive": 1, "20-frontend-group/archive": 2, "30-devops-group/archive": 1, "40-security-group/archive": 2 });
			},
			() => `${JSON.stringify(counts())}\n${diagnose()}`,
		);
		await runner.stop(background[0]);

		const one = (place: string, match: (n: NoteOnDisk) => boolean): NoteOnDisk => {
			const found = places[place].filter(match);
			expect(found, `${place}: ${places[place].map((n) => n.path).join(", ")}`).toHaveLength(1);
			return found[0];
		};
		// ask.py's question: answered by 20-frontend-group, its answer taken by 10-backend-group.
		const question = one("20-frontend-group/archive", (n) => n.fm.message_id === backendId);
		expect(question.fm).toMatchObject({ kind: "request", trace_id: backendTrace, source_group: "10-backend-group", target_group: "20-frontend-group", hop_count: 0, state: "answered" });
		const answer = one("10-backend-group/archive", (n) => n.fm.in_reply_to === backendId);
		expect(answer.fm).toMatchObject({ trace_id: backendTrace, source_group: "20-frontend-group", status: "success", state: "taken" });

		// answer.py's review request continues that trace (--parent): hop 1, on 40-security-group's archive.
		const review = one("40-security-group/archive", (n) => n.fm.parent_id === backendId);
		expect(review.fm).toMatchObject({ trace_id: backendTrace, hop_count: 1, source_group: "20-frontend-group", request_type: "task", state: "answered" });
		expect(review.fm.route).toEqual(["10-backend-group", "20-frontend-group", "40-security-group"]);
		const reviewAnswer = one("20-frontend-group/archive", (n) => n.fm.in_reply_to === review.fm.message_id);
		expect(reviewAnswer.fm).toMatchObject({ trace_id: backendTrace, source_group: "40-security-group", status: "success", state: "taken" });

		// ask.sh's review: answered by answer.sh, taken by 30-devops-group.
		const devops = one("40-security-group/archive", (n) => n.fm.message_id === devopsId);
		expect(devops.fm).toMatchObject({ source_group: "30-devops-group", request_type: "task", hop_count: 0, state: "answered" });
		expect(devops.text).toContain("- skills/30-devops-group/manifests/deployment.yaml");
		const devopsAnswer = one("30-devops-group/archive", (n) => n.fm.in_reply_to === devopsId);
		expect(devopsAnswer.fm).toMatchObject({ source_group: "40-security-group", status: "success", state: "taken" });

		// The conversation as `a2a trace` tells it: three messages before the answer, in order.
		const trace = await a2a(h.vault, "trace", backendTrace, "--json");
		expect(trace.json.map((m) => `${String(m.source_group)}->${String(m.target_group)} ${String(m.where)}`)).toEqual([
			"10-backend-group->20-frontend-group archive",
			"20-frontend-group->40-security-group archive",
			"40-security-group->20-frontend-group archive",
			"20-frontend-group->10-backend-group archive",
		]);
	}, 120_000);
});
