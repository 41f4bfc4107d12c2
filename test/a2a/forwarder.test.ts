import { afterEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { NODE_TIMERS } from "../../servers/a2a/sdk-remote-agents";
import type { WireSendParams } from "../../src/core/a2a-wire";
import type { GroupEntry } from "../../src/core/registry";
import type { RemoteAgents, RemoteCall } from "../../src/router/remote-agents";
import { Router } from "../../src/router/router";
import { a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The router's forwarder (src/router/forwarder.ts) with a scripted RemoteAgents port in place of
// the network: what it does when the remote is slow to take calls (at most eight at once), when it
// forgot a task, and when it cannot be reached. The router and the vault are the real ones; what is
// checked is the notes on disk and the calls the remote received.

const REQUESTER = "10-backend-group";
const vaults: TempVault[] = [];
const routers: Router[] = [];
afterEach(async () => {
	for (const r of routers.splice(0)) await r.stop();
	for (const v of vaults.splice(0)) await v.cleanup();
});

/** A remote whose answers the test scripts; every call is recorded. */
class ScriptedRemote implements RemoteAgents {
	sends: string[] = [];
	gets: string[] = [];
	finds: string[] = [];
	open = 0;
	mostOpen = 0;
	constructor(readonly script: { send: (id: string) => Promise<RemoteCall>; getTask?: (taskId: string) => Promise<RemoteCall>; findTask?: (messageId: string) => Promise<RemoteCall> }) {}

	async send(_group: GroupEntry, params: WireSendParams): Promise<RemoteCall> {
		this.sends.push(params.message.messageId);
		this.open++;
		this.mostOpen = Math.max(this.mostOpen, this.open);
		try {
			return await this.script.send(params.message.messageId);
		} finally {
			this.open--;
		}
	}

	findTask(_group: GroupEntry, _contextId: string, messageId: string): Promise<RemoteCall> {
		this.finds.push(messageId);
		return this.script.findTask ? this.script.findTask(messageId) : Promise.resolve({ ok: false, kind: "not_found", reason: "no such task" });
	}

	cancelTask(_group: GroupEntry, taskId: string): Promise<RemoteCall> {
		return Promise.resolve({ ok: true, result: { task: { id: taskId, status: { state: "TASK_STATE_CANCELED" } } }, bytes: 10 });
	}

	getTask(_group: GroupEntry, taskId: string): Promise<RemoteCall> {
		this.gets.push(taskId);
		return this.script.getTask ? this.script.getTask(taskId) : Promise.resolve({ ok: false, kind: "not_found", reason: "unknown task" });
	}
}

const completed = (id: string, text: string): RemoteCall => ({ ok: true, result: { task: { id, status: { state: "TASK_STATE_COMPLETED" }, artifacts: [{ parts: [{ text }] }] } }, bytes: 100 });
const working = (id: string): RemoteCall => ({ ok: true, result: { task: { id, status: { state: "TASK_STATE_WORKING" } } }, bytes: 50 });

async function vaultWithRemote(): Promise<TempVault> {
	const v = await makeTempVault("a2a-forwarder-");
	vaults.push(v);
	await a2a(v.dir, "init");
	await v.write("A2A/registry.yaml", (await v.read("A2A/registry.yaml")).replace("groups:\n", "groups:\n  remote-x:\n    url: http://127.0.0.1:9/agents/x/\n"));
	return v;
}

async function router(v: TempVault, remote: RemoteAgents, maxInFlight?: number): Promise<Router> {
	const r = new Router(new NodeVault(v.dir), { remotes: { remotes: remote, timers: NODE_TIMERS, pollMs: { first: 1, max: 5 }, maxInFlight } });
	routers.push(r);
	await r.loadRegistry();
	return r;
}

async function routerWithClock(v: TempVault, remote: RemoteAgents, clock: () => number): Promise<Router> {
	const r = new Router(new NodeVault(v.dir), { clock, remotes: { remotes: remote, timers: NODE_TIMERS, pollMs: { first: 1, max: 5 } } });
	routers.push(r);
	await r.loadRegistry();
	return r;
}

async function send(v: TempVault, question: string, priority = "medium"): Promise<string> {
	const sent = await a2a(v.dir, "send", "--from", REQUESTER, "--to", "remote-x", "--type", "query", "--question", question, "--priority", priority, "--json");
	return String(sent.json[0].message_id);
}

/** The notes below a folder, by their frontmatter. */
async function fms(v: TempVault, folder: string): Promise<Record<string, unknown>[]> {
	return Promise.all((await v.files(folder)).filter((p) => p.endsWith(".md")).map((p) => v.frontmatter(p)));
}

async function until(what: string, probe: () => boolean): Promise<void> {
	for (let i = 0; i < 2000 && !probe(); i++) await new Promise((r) => setTimeout(r, 5));
	if (!probe()) throw new Error(`gave up waiting for ${what}`);
}

describe("the forwarder", () => {
	it("sends at most eight requests at once, and the others when a slot frees; every one is answered", async () => {
		const v = await vaultWithRemote();
		const ids: string[] = [];
		for (let i = 0; i < 20; i++) ids.push(await send(v, `question ${i}`));
		const held: (() => void)[] = [];
		const remote = new ScriptedRemote({ send: (id) => new Promise((resolve) => held.push(() => resolve(completed(`t-${id}`, `answer ${id}`)))) });
		const r = await router(v, remote);
		await r.pass();
		await until("eight sends", () => remote.sends.length === 8);
		expect(r.forwarder?.inFlight()).toBe(8);
		// Nothing more goes out while the eight are open.
		await r.pass();
		expect(remote.sends).toHaveLength(8);
		const releaseAll = setInterval(() => held.splice(0).forEach((go) => go()), 2);
		try {
			expect(await r.forwarder?.settled(10_000)).toBe(true);
		} finally {
			clearInterval(releaseAll);
		}
		expect(remote.mostOpen).toBe(8);
		expect([...remote.sends].sort()).toEqual([...ids].sort());
		const answers = await fms(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answers.map((a) => a.in_reply_to).sort()).toEqual([...ids].sort());
		expect((await fms(v, "A2A/groups/remote-x/archive")).every((f) => f.state === "answered")).toBe(true);
	});

	it("when more wait than may go at once, they are sent in routing order: high priority first, then the oldest", async () => {
		const v = await vaultWithRemote();
		const low = await send(v, "low", "low");
		const medium = await send(v, "medium", "medium");
		const high = await send(v, "high", "high");
		const remote = new ScriptedRemote({ send: (m) => Promise.resolve(completed(`t-${m}`, "ok")) });
		const r = await router(v, remote, 1);
		await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		expect(remote.sends).toEqual([high, medium, low]);
		expect(remote.mostOpen).toBe(1);
	});

	it("a remote that forgot the task (GetTask: not found) gets the same message again, and its answer arrives", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Remember me?");
		const first = new ScriptedRemote({ send: (m) => Promise.resolve(working(`t-${m}`)), getTask: (t) => Promise.resolve(working(t)) });
		const r1 = await router(v, first);
		await r1.pass();
		await until("the forward recorded", () => first.gets.length > 0);
		await r1.stop();
		const [recorded] = await fms(v, "A2A/groups/remote-x/inbox");
		expect(recorded).toMatchObject({ state: "forwarded", remote_task_id: `t-${id}` });

		const second = new ScriptedRemote({ send: (m) => Promise.resolve(completed(`t2-${m}`, "answered again")) });
		const r2 = await router(v, second);
		await r2.pass();
		expect(await r2.forwarder?.settled(10_000)).toBe(true);
		expect(second.gets).toEqual([`t-${id}`]);
		expect(second.sends).toEqual([id]);
		const [answer] = await fms(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer).toMatchObject({ in_reply_to: id, status: "success", remote_task_id: `t2-${id}` });
	});

	it("a remote that forgets every task is sent the message again once per attempt, not on every poll, and the pass says why", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Do you keep tasks?");
		const remote = new ScriptedRemote({ send: (m) => Promise.resolve(working(`t-${m}`)), getTask: () => Promise.resolve({ ok: false, kind: "not_found", reason: "unknown task" }) });
		const r = await router(v, remote);
		await r.pass();
		await until("the second GetTask", () => remote.gets.length >= 2);
		// Polls are 1 to 5 ms apart here: a forwarder that re-sent on every "not found" would have sent dozens of times by now.
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(remote.sends).toEqual([id, id]);
		expect(remote.gets).toHaveLength(2);
		const report = await r.pass();
		expect(report.failures.map((f) => f.error).join("\n")).toContain("does not know its task");
		const [request] = await fms(v, "A2A/groups/remote-x/inbox");
		expect(request).toMatchObject({ message_id: id, state: "forwarded", attempt: 1, resent_attempt: 1 });
	});

	it("the once-per-attempt re-send holds across router restarts: four routers in a row send the message twice in all", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Do you keep tasks now?");
		let tasks = 0;
		const remote = new ScriptedRemote({ send: (m) => Promise.resolve(working(`t-${m}-${++tasks}`)), getTask: () => Promise.resolve({ ok: false, kind: "not_found", reason: "unknown task" }) });
		for (let run = 0; run < 4; run++) {
			const r = await router(v, remote);
			await r.pass();
			await until(`router ${run + 1} to ask the remote`, () => remote.gets.length > run);
			await new Promise((resolve) => setTimeout(resolve, 100));
			await r.stop();
		}
		expect(remote.sends).toEqual([id, id]);
		const [request] = await fms(v, "A2A/groups/remote-x/inbox");
		// The re-sent task's id is the one recorded, so a router that starts asks about that one.
		expect(request).toMatchObject({ state: "forwarded", attempt: 1, resent_attempt: 1 });
		expect(request.remote_task_id).toBe(`t-${id}-2`);
	});

	it("a router stopped between its send and its record: the next one finds the task by the message, sends nothing again, and the answer arrives", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Did you get it?");
		// The remote takes the message, but its answer never reaches the first router.
		const first = new ScriptedRemote({ send: () => new Promise<RemoteCall>(() => undefined) });
		const r1 = await router(v, first);
		await r1.pass();
		await until("the send", () => first.sends.length === 1);
		await r1.stop();
		const [unrecorded] = await fms(v, "A2A/groups/remote-x/inbox");
		expect(unrecorded).toMatchObject({ state: "delivered" });

		const second = new ScriptedRemote({ send: (m) => Promise.resolve(completed(`again-${m}`, "done twice")), findTask: (m) => Promise.resolve(completed(`t-${m}`, "done once")) });
		const r2 = await router(v, second);
		await r2.pass();
		expect(await r2.forwarder?.settled(10_000)).toBe(true);
		expect(second.finds).toEqual([id]);
		expect(second.sends).toEqual([]);
		const [answer] = await fms(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer).toMatchObject({ in_reply_to: id, status: "success", remote_task_id: `t-${id}` });
		expect((await fms(v, "A2A/groups/remote-x/archive"))[0]).toMatchObject({ state: "answered", remote_task_id: `t-${id}` });
	});

	it("a request this router delivered itself is sent at once, without asking the remote first", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Fresh");
		const remote = new ScriptedRemote({ send: (m) => Promise.resolve(completed(`t-${m}`, "ok")) });
		const r = await router(v, remote);
		await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		expect(remote.finds).toEqual([]);
		expect(remote.sends).toEqual([id]);
	});

	it("a send lost on its way back (the remote took the message, the relay saw a transport error): the next attempt asks the remote first and does not send it again", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Did it arrive?");
		let now = Date.now();
		const remote = new ScriptedRemote({
			send: () => Promise.resolve({ ok: false, kind: "transport", reason: "502 Bad Gateway from a proxy" }),
			findTask: (m) => Promise.resolve(completed(`t-${m}`, "done once")),
		});
		const r = await routerWithClock(v, remote, () => now);
		await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		expect(remote.sends).toEqual([id]);
		// Rule 8: past expires_at the request gets its next attempt.
		const [waiting] = await fms(v, "A2A/groups/remote-x/inbox");
		now = Date.parse(String(waiting.expires_at)) + 1000;
		await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		expect(remote.finds).toEqual([id]);
		expect(remote.sends).toEqual([id]);
		const [answer] = await fms(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer).toMatchObject({ in_reply_to: id, status: "success", remote_task_id: `t-${id}` });
	});

	it("a remote that cannot be reached: the request stays delivered, is not sent again in the same attempt, and the pass reports why", async () => {
		const v = await vaultWithRemote();
		const id = await send(v, "Hello?");
		const remote = new ScriptedRemote({ send: () => Promise.resolve({ ok: false, kind: "transport", reason: "connect ECONNREFUSED 127.0.0.1:9" }) });
		const r = await router(v, remote);
		await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		const report = await r.pass();
		expect(await r.forwarder?.settled(10_000)).toBe(true);
		expect(remote.sends).toEqual([id]);
		expect(report.failures.map((f) => f.error).join("\n")).toContain("ECONNREFUSED");
		const [request] = await fms(v, "A2A/groups/remote-x/inbox");
		expect(request).toMatchObject({ message_id: id, state: "delivered", attempt: 1 });
		expect(await v.files(`A2A/groups/${REQUESTER}/inbox`)).toEqual([]);
	});
});
