import { TaskState } from "@a2a-js/sdk";
import type { StreamResponse } from "@a2a-js/sdk";
import { TaskNotCancelableError } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { A_GROUP, B_GROUP, GATEWAY, ROUTING_EXTENSION, clientFor, getTask, notesWithId, send, textOfParts, until, useHarness, userMessage } from "./harness";

// The tasks of `a2a serve` seen by an ordinary A2A client (@a2a-js/sdk): a message becomes a
// request note from the gateway, the router delivers it, an agent answers with `a2a reply`, and the
// task follows the note (contract v2, section 8).

const h = useHarness();

const inInbox = (group: string) => (n: { path: string }) => n.path.startsWith(`A2A/groups/${group}/inbox/`);

describe("a2a serve: a message's task follows its note", () => {
	it("a sent message is answered: COMPLETED, the answer as an artifact, the note archived with the gateway as sender", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const pending = send(client, userMessage("ask-1", "Which fields are mandatory?"));
		await until("the delivery to the group's inbox", async () => (await notesWithId(v, "ask-1")).find(inInbox(A_GROUP)));
		expect(await h.reply(v.dir, "ask-1", "id and name")).toBe(0);

		const task = await pending;
		expect(task.id).toBe("ask-1");
		expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
		expect(task.artifacts).toHaveLength(1);
		expect(textOfParts(task.artifacts[0].parts)).toBe("id and name");
		const [note, ...others] = await notesWithId(v, "ask-1");
		expect(others).toEqual([]);
		expect(note.path).toMatch(new RegExp(`^A2A/groups/${A_GROUP}/archive/`));
		expect(note.fm).toMatchObject({ source_group: GATEWAY, target_group: A_GROUP, state: "answered", trace_id: task.contextId, hop_count: 0, request_type: "query" });
		expect(await v.read(note.path)).toContain("## Question\n\nWhich fields are mandatory?\n");
	});

	it("a stream shows the task, then WORKING steps, the answer as an artifact update, then COMPLETED", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const events: StreamResponse[] = [];
		for await (const event of client.sendMessageStream({ tenant: "", message: userMessage("ask-s", "Stream it"), configuration: undefined, metadata: undefined })) {
			events.push(event);
			const p = event.payload;
			if (p?.$case === "statusUpdate" && textOfParts(p.value.status?.message?.parts).startsWith("delivered to")) expect(await h.reply(v.dir, "ask-s", "streamed answer")).toBe(0);
		}
		const kinds = events.map((e) => e.payload?.$case);
		expect(kinds[0]).toBe("task");
		const first = events[0].payload;
		expect(first?.$case === "task" && first.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
		const states = events.flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value.status?.state] : []));
		expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
		expect(states[states.length - 1]).toBe(TaskState.TASK_STATE_COMPLETED);
		expect(states.filter((s) => s === TaskState.TASK_STATE_COMPLETED)).toHaveLength(1);
		const artifactAt = kinds.indexOf("artifactUpdate");
		expect(artifactAt).toBe(kinds.length - 2);
		const update = events[artifactAt].payload;
		expect(update?.$case === "artifactUpdate" && textOfParts(update.value.artifact?.parts)).toBe("streamed answer");
	});

	it("GetTask reads tasks from the vault: they survive a restart of the server", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const first = await h.serve(v.dir);
		let client = await clientFor(first.groupUrl(A_GROUP));
		await send(client, userMessage("done-1", "Answered before the restart"), true);
		await send(client, userMessage("open-1", "Still open at the restart"), true);
		await until("the delivery", async () => (await notesWithId(v, "done-1")).find(inInbox(A_GROUP)));
		expect(await h.reply(v.dir, "done-1", "answered")).toBe(0);
		await until("the answer", async () => (await getTask(client, "done-1")).status?.state === TaskState.TASK_STATE_COMPLETED);
		expect(await first.stop()).toBe(0);

		const second = await h.serve(v.dir);
		client = await clientFor(second.groupUrl(A_GROUP));
		const done = await getTask(client, "done-1");
		expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
		expect(textOfParts(done.artifacts[0]?.parts)).toBe("answered");
		expect(done.history.map((m) => textOfParts(m.parts))).toEqual(["Answered before the restart"]);
		expect((await getTask(client, "open-1")).status?.state).toBe(TaskState.TASK_STATE_WORKING);
		await expect(getTask(client, "never-sent")).rejects.toThrow(/Task not found/);
	});

	it("SubscribeToTask follows a task sent before a restart of the server to its end; a finished task cannot be subscribed to", async () => {
		const v = await h.vault();
		const first = await h.serve(v.dir);
		await send(await clientFor(first.groupUrl(A_GROUP)), userMessage("sub-1", "Follow me after the restart"), true);
		expect(await first.stop()).toBe(0);

		const second = await h.serve(v.dir);
		const client = await clientFor(second.groupUrl(A_GROUP));
		const events: StreamResponse[] = [];
		for await (const event of client.resubscribeTask({ tenant: "", id: "sub-1" })) {
			events.push(event);
			const p = event.payload;
			// The router starts once the stream has shown the task waiting in the outbox.
			if (p?.$case === "task") h.router(v.dir);
			if (p?.$case === "statusUpdate" && textOfParts(p.value.status?.message?.parts).startsWith("delivered to")) expect(await h.reply(v.dir, "sub-1", "followed to the end")).toBe(0);
		}
		const firstEvent = events[0]?.payload;
		expect(firstEvent?.$case === "task" && [firstEvent.value.id, firstEvent.value.status?.state]).toEqual(["sub-1", TaskState.TASK_STATE_WORKING]);
		const last = events[events.length - 1]?.payload;
		expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
		const artifact = events.map((e) => e.payload).find((p) => p?.$case === "artifactUpdate");
		expect(artifact?.$case === "artifactUpdate" && textOfParts(artifact.value.artifact?.parts)).toBe("followed to the end");

		const again = client.resubscribeTask({ tenant: "", id: "sub-1" });
		await expect(again.next()).rejects.toThrow(/terminal state/);
	});

	it("ListTasks lists one group's tasks, pages them, and filters by contextId and state", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const a = await clientFor(served.groupUrl(A_GROUP));
		const b = await clientFor(served.groupUrl(B_GROUP));
		for (const id of ["l-1", "l-2", "l-3"]) await send(a, userMessage(id, `question ${id}`), true);
		await send(a, userMessage("l-4", "in a conversation", { contextId: "conversation-7" }), true);
		await send(b, userMessage("l-b", "for the other group"), true);
		await until("the delivery", async () => (await notesWithId(v, "l-1")).find(inInbox(A_GROUP)));
		expect(await h.reply(v.dir, "l-1", "first answer")).toBe(0);
		await until("the answer", async () => (await getTask(a, "l-1")).status?.state === TaskState.TASK_STATE_COMPLETED);

		const list = (params: { contextId?: string; status?: TaskState; pageSize?: number; pageToken?: string }) =>
			a.listTasks({ tenant: "", contextId: params.contextId ?? "", status: params.status ?? TaskState.TASK_STATE_UNSPECIFIED, pageSize: params.pageSize, pageToken: params.pageToken ?? "", historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: true });
		const all = await list({});
		expect(all.totalSize).toBe(4);
		expect(all.tasks.map((t) => t.id).sort()).toEqual(["l-1", "l-2", "l-3", "l-4"]);
		const page1 = await list({ pageSize: 3 });
		expect(page1.tasks).toHaveLength(3);
		expect(page1.nextPageToken).not.toBe("");
		const page2 = await list({ pageSize: 3, pageToken: page1.nextPageToken });
		expect([...page1.tasks, ...page2.tasks].map((t) => t.id).sort()).toEqual(["l-1", "l-2", "l-3", "l-4"]);
		expect(page2.nextPageToken).toBe("");
		const inContext = await list({ contextId: "conversation-7" });
		expect(inContext.tasks.map((t) => [t.id, t.contextId])).toEqual([["l-4", "conversation-7"]]);
		const completed = await list({ status: TaskState.TASK_STATE_COMPLETED });
		expect(completed.tasks.map((t) => t.id)).toEqual(["l-1"]);
		expect(textOfParts(completed.tasks[0].artifacts[0]?.parts)).toBe("first answer");
	});

	it("CancelTask moves a request not yet answered to the dead letters (CANCELED); an answered one cannot be cancelled", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		// No router yet: the note waits in the gateway's outbox.
		await send(client, userMessage("c-1", "Cancel me before delivery"), true);
		const cancelled = await client.cancelTask({ tenant: "", id: "c-1", metadata: undefined });
		expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
		expect((await client.cancelTask({ tenant: "", id: "c-1", metadata: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
		const [dead, ...more] = await notesWithId(v, "c-1");
		expect(more).toEqual([]);
		expect(dead.path).toMatch(/^A2A\/dead-letter\//);
		expect(dead.fm).toMatchObject({ state: "dead", error_code: "CANCELED" });

		h.router(v.dir);
		await send(client, userMessage("c-2", "Cancel me after delivery"), true);
		await send(client, userMessage("c-3", "Answer me"), true);
		await until("the delivery", async () => (await notesWithId(v, "c-3")).find(inInbox(A_GROUP)) && (await notesWithId(v, "c-2")).find(inInbox(A_GROUP)));
		expect((await client.cancelTask({ tenant: "", id: "c-2", metadata: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
		const c2 = await notesWithId(v, "c-2");
		expect(c2.map((n) => [n.path.split("/")[1], n.fm.error_code, n.fm.state])).toEqual([["dead-letter", "CANCELED", "dead"]]);
		expect(await h.reply(v.dir, "c-2", "too late")).toBe(1);

		expect(await h.reply(v.dir, "c-3", "answered")).toBe(0);
		await until("the answer", async () => (await getTask(client, "c-3")).status?.state === TaskState.TASK_STATE_COMPLETED);
		const refused = await client.cancelTask({ tenant: "", id: "c-3", metadata: undefined }).catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(TaskNotCancelableError);
		expect((await getTask(client, "c-3")).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
		const log = await v.read(`A2A/log/${new Date().toISOString().slice(0, 10)}.md`);
		expect(log.split("\n").filter((l) => l.includes("CANCELED")).length).toBe(2);
	});

	it("a request nobody answers in time is FAILED with the timeout reason", async () => {
		const v = await h.vault((r) => r.replace("timeout_seconds: 30", "timeout_seconds: 1").replace("retry_attempts: 3", "retry_attempts: 0"));
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const task = await send(client, userMessage("slow-1", "Nobody will answer"));
		expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
		expect(textOfParts(task.status?.message?.parts)).toMatch(/^TIMEOUT: no response after 1 attempt/);
		expect((await notesWithId(v, "slow-1")).map((n) => [n.path.split("/")[1], n.fm.state])).toEqual([["dead-letter", "timed_out"]]);
	});

	it("routing metadata that puts the group on its own chain is REJECTED as a cycle: the router dead-letters the note, and the task stays REJECTED after a restart", async () => {
		const v = await h.vault();
		h.router(v.dir);
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const trace = "0b0c0d0e-1f20-4122-8324-252627282930";
		const metadata = { [ROUTING_EXTENSION]: { trace_id: trace, hop_count: 2, route: [A_GROUP, B_GROUP] } };
		// A blocking call: it returns once the router has dead-lettered the note.
		const task = await send(client, userMessage("loop-1", "Back to where it came from", { metadata }));
		expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
		expect(textOfParts(task.status?.message?.parts)).toMatch(/^CYCLE_DETECTED: 10-backend-group is already on this request's chain/);
		expect(task.contextId).toBe(trace);
		const [dead, ...more] = await notesWithId(v, "loop-1");
		expect(more).toEqual([]);
		expect(dead.path).toMatch(/^A2A\/dead-letter\//);
		expect(dead.fm).toMatchObject({ state: "dead", error_code: "CYCLE_DETECTED", source_group: GATEWAY, target_group: A_GROUP, trace_id: trace });
		const errorResponse = await until("the router's error response to the gateway", async () => {
			for (const file of await v.files(`A2A/groups/${GATEWAY}/inbox`)) {
				const fm = readFrontmatter(await v.read(file)) ?? {};
				if (fm.in_reply_to === "loop-1") return fm;
			}
			return null;
		});
		expect(errorResponse).toMatchObject({ status: "error", error_code: "CYCLE_DETECTED", source_group: "a2a-relay", trace_id: trace });
		const logPath = `A2A/log/${new Date().toISOString().slice(0, 10)}.md`;
		const logRows = (await v.read(logPath)).split("\n").filter((l) => l.includes("loop-1") && l.includes("CYCLE_DETECTED"));
		expect(logRows).toHaveLength(1);
		expect((await getTask(client, "loop-1")).status?.state).toBe(TaskState.TASK_STATE_REJECTED);

		const hops = await send(client, userMessage("hops-1", "Too far", { metadata: { [ROUTING_EXTENSION]: { hop_count: 5 } } }));
		expect(hops.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
		expect(textOfParts(hops.status?.message?.parts)).toMatch(/^MAX_HOPS_EXCEEDED: /);
		expect((await notesWithId(v, "hops-1")).map((n) => [n.path.split("/")[1], n.fm.error_code])).toEqual([["dead-letter", "MAX_HOPS_EXCEEDED"]]);
		expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
		expect(await v.files(`A2A/groups/${A_GROUP}/inbox`)).toEqual([]);

		expect(await served.stop()).toBe(0);
		const again = await h.serve(v.dir);
		const after = await getTask(await clientFor(again.groupUrl(A_GROUP)), "loop-1");
		expect(after.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
		expect(textOfParts(after.status?.message?.parts)).toMatch(/^CYCLE_DETECTED: /);
	});

	it("the same messageId, sent again or at once, is the same task and one note", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const message = userMessage("twice-1", "Only once, please");
		const tasks = await Promise.all([1, 2, 3, 4, 5].map(() => send(client, message, true)));
		tasks.push(await send(client, message, true));
		expect(new Set(tasks.map((t) => t.id))).toEqual(new Set(["twice-1"]));
		expect(new Set(tasks.map((t) => t.contextId)).size).toBe(1);
		expect(await notesWithId(v, "twice-1")).toHaveLength(1);
		const other = await clientFor(served.groupUrl(B_GROUP));
		await expect(send(other, message, true)).rejects.toThrow(/already a task of group 10-backend-group/);
		expect(await notesWithId(v, "twice-1")).toHaveLength(1);
	});
});
