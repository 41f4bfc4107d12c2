import { TaskState } from "@a2a-js/sdk";
import type { Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { startScriptedAgent } from "../../test-support/scripted-agent";
import { A_GROUP, GATEWAY, clientFor, getTask, send, textOfParts, until, useHarness, userMessage } from "./harness";

// Many clients at once (the 200 of issue 15, which `npm run bench` times): every message becomes
// its own note and its own task, and every task ends COMPLETED with its own answer. Work is counted,
// not timed.

const h = useHarness();
const COUNT = 200;
const STREAMS = 30;

describe("a2a serve under load", () => {
	it(`${COUNT} concurrent SendMessage calls (returnImmediately): ${COUNT} notes, ${COUNT} tasks COMPLETED, each with its own answer`, async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const agent = startScriptedAgent(v.dir, A_GROUP, (id) => `answer to ${id}`);
		try {
			const client = await clientFor(served.groupUrl(A_GROUP));
			const ids = Array.from({ length: COUNT }, (_, i) => `load-${i}`);
			const accepted = await Promise.all(ids.map((id) => send(client, userMessage(id, `question ${id}`), true)));
			expect(accepted.map((t) => t.id)).toEqual(ids);
			expect(accepted.every((t) => t.status?.state === TaskState.TASK_STATE_WORKING)).toBe(true);

			const listCompleted = (pageToken: string) =>
				client.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_COMPLETED, pageSize: 100, pageToken, historyLength: 0, statusTimestampAfter: undefined, includeArtifacts: true });
			await until("every task to complete", async () => (await listCompleted("")).totalSize === COUNT, 50_000);
			const completed: Task[] = [];
			for (let token = ""; ; ) {
				const page = await listCompleted(token);
				completed.push(...page.tasks);
				token = page.nextPageToken;
				if (token === "") break;
			}
			expect(completed.map((t) => t.id).sort()).toEqual([...ids].sort());
			for (const task of completed) expect(textOfParts(task.artifacts[0]?.parts)).toBe(`answer to ${task.id}`);
			const one = await getTask(client, "load-7");
			expect(textOfParts(one.artifacts[0]?.parts)).toBe("answer to load-7");
			expect(await v.files(`A2A/groups/${A_GROUP}/archive`)).toHaveLength(COUNT);
			expect(await v.files(`A2A/groups/${GATEWAY}/inbox`)).toHaveLength(COUNT);
			expect(await v.files("A2A/dead-letter")).toEqual([]);
			expect(agent.answered.size).toBe(COUNT);
		} finally {
			await agent.stop();
		}
	});

	it(`${STREAMS} streams at once each follow their note to the end: COMPLETED, with their own answer`, async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const agent = startScriptedAgent(v.dir, A_GROUP, (id) => `streamed answer to ${id}`);
		try {
			const client = await clientFor(served.groupUrl(A_GROUP));
			const ends = await Promise.all(
				Array.from({ length: STREAMS }, async (_, i) => {
					let state: TaskState | undefined;
					let answer = "";
					for await (const event of client.sendMessageStream({ tenant: "", message: userMessage(`stream-${i}`, "follow me"), configuration: undefined, metadata: undefined })) {
						const p = event.payload;
						if (p?.$case === "statusUpdate") state = p.value.status?.state;
						if (p?.$case === "artifactUpdate") answer = textOfParts(p.value.artifact?.parts);
					}
					return [state, answer];
				}),
			);
			expect(ends).toEqual(Array.from({ length: STREAMS }, (_, i) => [TaskState.TASK_STATE_COMPLETED, `streamed answer to stream-${i}`]));
		} finally {
			await agent.stop();
		}
	});
});
