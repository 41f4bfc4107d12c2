import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { spanIdOf } from "../../src/core/trace-context";
import { FAILING_REASON, INPUT_QUESTION, SENT_FILE, SENT_PHOTO, startRemoteAgents } from "../../test-support/a2a-remote-agents";
import type { AgentKind, RemoteAgentServer } from "../../test-support/a2a-remote-agents";
import { a2a } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { exited, notesWithId, until, useHarness } from "./harness";

// Remote groups (contract v2 section 8, issue 16): a registry group with `url:` is an A2A agent
// built with @a2a-js/sdk's server on 127.0.0.1; `a2a route` forwards requests to it and brings its
// answer back as a response note in the requester's inbox. What is checked is what a user sees:
// the notes, their frontmatter and folders, the CLI's output, and how often the remote was called.

const h = useHarness();
const TOKEN = "remote-token-0123456789abcdef";
const REQUESTER = "10-backend-group";
let remote: RemoteAgentServer;

let configHome = "";
const savedConfigHome = process.env.XDG_CONFIG_HOME;
beforeEach(async () => {
	remote = await startRemoteAgents();
	// The CLI pins each secret to the address it first goes to, in the user's configuration folder: a temporary one here.
	configHome = await mkdtemp(join(tmpdir(), "a2a-config-"));
	process.env.XDG_CONFIG_HOME = configHome;
});
afterEach(async () => {
	for (const key of Object.keys(process.env)) if (key.startsWith("A2A_SECRET_")) delete process.env[key];
	if (savedConfigHome === undefined) delete process.env.XDG_CONFIG_HOME;
	else process.env.XDG_CONFIG_HOME = savedConfigHome;
	await rm(configHome, { recursive: true, force: true });
	await remote.close();
});

const withRemote = (kind: AgentKind, extra = "") => (text: string) => text.replace("groups:\n", `groups:\n  remote-${kind}:\n    url: ${remote.url(kind)}\n${extra}`);

async function send(v: TempVault, to: string, question: string, extra: string[] = []): Promise<string> {
	const sent = await a2a(v.dir, "send", "--from", REQUESTER, "--to", to, "--type", "query", "--question", question, "--json", ...extra);
	expect(sent.code, sent.stderr.join("\n")).toBe(0);
	return sent.json[0].message_id as string;
}

/** The notes in a folder, with their frontmatter. */
async function notesIn(v: TempVault, folder: string): Promise<{ path: string; fm: Record<string, unknown>; text: string }[]> {
	const out = [];
	for (const path of await v.files(folder)) {
		if (!path.endsWith(".md")) continue;
		// A note the router moves on between the listing and the read is not there any more.
		const text = await v.read(path).catch(() => null);
		if (text !== null) out.push({ path, fm: readFrontmatter(text) ?? {}, text });
	}
	return out;
}

describe("a2a route forwards a request to a remote A2A agent", () => {
	it("the echo agent's answer arrives in the requester's inbox, in the trace; the request is archived, forwarded then answered", async () => {
		const v = await h.vault(withRemote("echo"));
		const id = await send(v, "remote-echo", "What fields are mandatory?");
		const routed = await a2a(v.dir, "route", "--json");
		expect(routed.code, routed.stderr.join("\n")).toBe(0);
		expect(routed.json.map((d) => d.outcome)).toEqual(["delivered", "forwarded", "answered"]);

		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ kind: "response", in_reply_to: id, source_group: "remote-echo", target_group: REQUESTER, status: "success", state: "delivered" });
		expect(answer.fm.remote_task_id).toEqual(expect.any(String));
		expect(answer.text).toContain("## Answer\n\necho: What fields are mandatory?\n");
		const [request] = await notesIn(v, "A2A/groups/remote-echo/archive");
		expect(request.fm).toMatchObject({ message_id: id, state: "answered", remote_task_id: answer.fm.remote_task_id });
		expect(request.fm.forwarded_at).toEqual(expect.any(String));
		expect(answer.fm.trace_id).toBe(request.fm.trace_id);
		expect(await v.files("A2A/groups/remote-echo/inbox")).toEqual([]);

		// The remote saw the note's message_id, its trace as the context, its routing state (the chain before the remote).
		expect(remote.executions).toHaveLength(1);
		expect(remote.executions[0]).toMatchObject({ kind: "echo", messageId: id, contextId: request.fm.trace_id, text: "What fields are mandatory?" });
		expect(remote.executions[0].metadata?.["urn:a2a-relay:ext:routing:v1"]).toMatchObject({ trace_id: request.fm.trace_id, hop_count: 0, route: [REQUESTER], request_type: "query" });
		// It continues the relay's trace: the request's span (trace id = trace_id, span id from message_id) is its parent.
		const traceparent = `00-${String(request.fm.trace_id).replace(/-/g, "")}-${spanIdOf(id)}-01`;
		expect(remote.calls.find((c) => c.method === "SendMessage")?.traceparent).toBe(traceparent);
		expect(remote.executions[0].metadata?.["urn:a2a-relay:ext:routing:v1"]).toMatchObject({ traceparent });

		// `a2a wait` sees it answered, like a local answer.
		const waited = await a2a(v.dir, "wait", "--message", id, "--json", "--timeout", "1");
		expect(waited.json[0]).toMatchObject({ state: "answered" });
	});

	it("a failing agent's FAILED task becomes an error response with the remote's reason", async () => {
		const v = await h.vault(withRemote("failing"));
		const id = await send(v, "remote-failing", "Please fail");
		await a2a(v.dir, "route");
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, source_group: "remote-failing", status: "error", error_code: "REMOTE_FAILED" });
		expect(answer.fm.error_message).toContain(FAILING_REASON);
		expect(await notesIn(v, "A2A/groups/remote-failing/archive")).toHaveLength(1);
	});

	it("an agent that asks for input gets an error response saying a person must answer", async () => {
		const v = await h.vault(withRemote("input"));
		const id = await send(v, "remote-input", "Design the schema");
		await a2a(v.dir, "route");
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, status: "error", error_code: "INPUT_REQUIRED" });
		expect(answer.fm.error_message).toContain(INPUT_QUESTION);
		expect(answer.fm.error_message).toContain("a person must give it");
	});

	it("file bytes in the answer are saved as they came under the requester's artifacts/ folder with safe names, text and binary alike", async () => {
		const v = await h.vault(withRemote("files"));
		const id = await send(v, "remote-files", "Send me the report");
		await a2a(v.dir, "route");
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, status: "success" });
		expect(answer.text).toContain(`## Artifacts\n\n- A2A/groups/${REQUESTER}/artifacts/report.csv\n- A2A/groups/${REQUESTER}/artifacts/photo.jpg\n`);
		expect(await v.read(`A2A/groups/${REQUESTER}/artifacts/report.csv`)).toBe(SENT_FILE.text);
		expect([...(await readFile(join(v.dir, `A2A/groups/${REQUESTER}/artifacts/photo.jpg`)))]).toEqual([...SENT_PHOTO]);
		expect(answer.text).not.toContain("not saved");
		expect((await v.files()).filter((f) => f.includes("etc/"))).toEqual([]);
	});

	it("an answer over 1 MB is refused: an error response says so, nothing of it is written", async () => {
		const v = await h.vault(withRemote("big"));
		const id = await send(v, "remote-big", "Say a lot");
		await a2a(v.dir, "route");
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, status: "error", error_code: "RESPONSE_TOO_LARGE" });
		expect(answer.text.length).toBeLessThan(5000);
	});

	it("an answer that never ends is read up to 1 MB and no further: an error response says so", async () => {
		const v = await h.vault(withRemote("endless"));
		const id = await send(v, "remote-endless", "Talk forever");
		const routed = await a2a(v.dir, "route");
		expect(routed.code, routed.stderr.join("\n")).toBe(0);
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, status: "error", error_code: "RESPONSE_TOO_LARGE" });
		expect(String(answer.fm.error_message)).toContain("reads no further");
		// The relay hung up soon after 1 MB: the agent did not get to write its 64 MB.
		expect(remote.endlessBytes()).toBeGreaterThan(0);
		expect(remote.endlessBytes()).toBeLessThan(16 * 1024 * 1024);
	});

	it("a card that names another address gets no token: the request is refused with the reason, nothing goes there", async () => {
		await remote.close();
		remote = await startRemoteAgents({ token: TOKEN });
		process.env.A2A_SECRET_ELSEWHERE_TOKEN = TOKEN;
		const v = await h.vault((text) => text.replace("groups:\n", `groups:\n  remote-elsewhere:\n    url: ${remote.url("elsewhere")}\n    token_secret: elsewhere-token\n`));
		const id = await send(v, "remote-elsewhere", "Where does my token go?");
		await a2a(v.dir, "route");
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, status: "error", error_code: "REMOTE_ERROR" });
		expect(String(answer.fm.error_message)).toContain("on another address than its registry url");
		expect(remote.calls.filter((c) => c.elsewhere)).toEqual([]);
		expect(remote.executions).toEqual([]);
	});

	it("without a token, a card that names another address is followed (the control of the test above)", async () => {
		const v = await h.vault(withRemote("elsewhere"));
		const id = await send(v, "remote-elsewhere", "Follow the card");
		await a2a(v.dir, "route");
		const [answer] = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answer.fm).toMatchObject({ in_reply_to: id, status: "success" });
		expect(remote.calls.filter((c) => c.elsewhere).map((c) => c.method)).toContain("SendMessage");
	});

	it("a group's token_secret is sent as a bearer token; a wrong one is an error response, the token never shown", async () => {
		await remote.close();
		remote = await startRemoteAgents({ token: TOKEN });
		process.env.A2A_SECRET_ECHO_TOKEN = TOKEN;
		process.env.A2A_SECRET_BAD_TOKEN = "not-the-token-at-all-000000";
		const v = await h.vault((text) => text.replace("groups:\n", `groups:\n  remote-echo:\n    url: ${remote.url("echo")}\n    token_secret: echo-token\n  remote-bad:\n    url: ${remote.url("echo")}\n    token_secret: bad-token\n`));
		const good = await send(v, "remote-echo", "With a token");
		const bad = await send(v, "remote-bad", "With a wrong token");
		const routed = await a2a(v.dir, "route");
		const answers = await notesIn(v, `A2A/groups/${REQUESTER}/inbox`);
		expect(answers.find((n) => n.fm.in_reply_to === good)?.fm).toMatchObject({ status: "success" });
		const refused = answers.find((n) => n.fm.in_reply_to === bad);
		expect(refused?.fm).toMatchObject({ status: "error", error_code: "REMOTE_ERROR" });
		expect(String(refused?.fm.error_message)).toContain("HTTP 401 (the token of the group's token_secret was not accepted)");
		expect(remote.executions.map((e) => e.text)).toEqual(["With a token"]);
		for (const text of [...answers.map((n) => n.text), ...routed.stdout, ...routed.stderr]) expect(text).not.toContain("not-the-token-at-all");
	});

	it("an agent that is not there: rule 8 tries again at each expiry, then TIMEOUT reaches the requester", async () => {
		const v = await h.vault((text) => withRemote("echo")(text).replace("retry_attempts: 3", "retry_attempts: 1").replace(`url: ${remote.url("echo")}`, "url: http://127.0.0.1:9/agents/none/"));
		const id = await send(v, "remote-echo", "Anyone there?", ["--timeout", "1"]);
		const router = h.router(v.dir);
		try {
			const timeout = await until("the timeout response", async () => (await notesIn(v, `A2A/groups/${REQUESTER}/inbox`)).find((n) => n.fm.status === "timeout"));
			expect(timeout.fm).toMatchObject({ in_reply_to: id, error_code: "TIMEOUT", source_group: "a2a-relay" });
			// The timeout response is written first, then the request moves to the dead letters.
			const [dead] = await until("the request in the dead letters", async () => {
				const notes = await notesWithId(v, id);
				return notes.length === 1 && notes[0].path.startsWith("A2A/dead-letter/") ? notes : undefined;
			});
			expect(dead.path).toMatch(/^A2A\/dead-letter\//);
			expect(dead.fm).toMatchObject({ state: "timed_out", attempt: 2 });
			await until("the retry in the output", async () => router.lines.some((l) => l.includes('"outcome":"retried"')));
		} finally {
			router.child.kill("SIGTERM");
			await router.closed;
		}
	});

	it("a task not finished by expires_at: retried with backoff (no second send), then TIMEOUT, and the agent is asked to cancel it", async () => {
		const v = await h.vault((text) => withRemote("slow")(text).replace("retry_attempts: 3", "retry_attempts: 1"));
		const id = await send(v, "remote-slow", "Take your time", ["--timeout", "1"]);
		const router = h.router(v.dir);
		try {
			const timeout = await until("the timeout response", async () => (await notesIn(v, `A2A/groups/${REQUESTER}/inbox`)).find((n) => n.fm.status === "timeout"));
			expect(timeout.fm).toMatchObject({ in_reply_to: id, error_code: "TIMEOUT" });
			const [dead] = await notesWithId(v, id);
			expect(dead.fm).toMatchObject({ state: "timed_out", attempt: 2, error_code: "TIMEOUT" });
			expect(dead.fm.remote_task_id).toEqual(expect.any(String));
			expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
			expect(remote.executions).toHaveLength(1);
			await until("the cancel", async () => remote.calls.some((c) => c.method === "CancelTask"));
			expect(remote.calls.filter((c) => c.method === "CancelTask")).toHaveLength(1);
		} finally {
			router.child.kill("SIGTERM");
			await router.closed;
		}
	});

	it("a router killed after its send but before it learnt the task: the next one finds the task by the message (ListTasks), sends nothing again, and the answer arrives", async () => {
		const v = await h.vault(withRemote("held"));
		const id = await send(v, "remote-held", "Lost in the post");
		const first = h.router(v.dir);
		await until("the send received", async () => remote.executions.some((e) => e.messageId === id));
		first.child.kill("SIGKILL");
		await exited(first.child);
		const [unrecorded] = await notesWithId(v, id);
		expect(unrecorded.fm).toMatchObject({ state: "delivered" });
		remote.releaseSlow();
		const second = h.router(v.dir);
		try {
			const answer = await until("the answer", async () => (await notesIn(v, `A2A/groups/${REQUESTER}/inbox`)).find((n) => n.fm.in_reply_to === id));
			expect(answer.fm).toMatchObject({ status: "success" });
			expect(answer.text).toContain("echo: Lost in the post");
			expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
			expect(remote.calls.filter((c) => c.method === "ListTasks")).toHaveLength(1);
			expect(remote.executions).toHaveLength(1);
		} finally {
			second.child.kill("SIGTERM");
			await second.closed;
		}
	});

	it("a router killed after the forward is recorded: the next one asks GetTask, sends nothing again, and the answer arrives", async () => {
		const v = await h.vault(withRemote("slow"));
		const id = await send(v, "remote-slow", "Survive a crash");
		const first = h.router(v.dir);
		const recorded = await until("the forward recorded", async () => (await notesWithId(v, id)).find((n) => n.fm.state === "forwarded" && typeof n.fm.remote_task_id === "string"));
		first.child.kill("SIGKILL");
		await exited(first.child);
		expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
		// `a2a status` shows the remote group with its URL and the request in flight there.
		const status = await a2a(v.dir, "status", "--json");
		expect(status.json.find((r) => r.group === "remote-slow")).toMatchObject({ url: remote.url("slow"), forwarded: 1, inbox: 1 });
		expect(status.json.find((r) => r.group === REQUESTER)).toMatchObject({ in_flight: 1 });
		// The remote finishes while no router runs.
		remote.releaseSlow();
		const second = h.router(v.dir);
		try {
			const answer = await until("the answer", async () => (await notesIn(v, `A2A/groups/${REQUESTER}/inbox`)).find((n) => n.fm.in_reply_to === id));
			expect(answer.fm).toMatchObject({ status: "success", remote_task_id: recorded.fm.remote_task_id });
			expect(answer.text).toContain("slow echo: Survive a crash");
			await until("the request archived", async () => (await notesIn(v, "A2A/groups/remote-slow/archive")).length === 1);
			expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
			expect(remote.calls.filter((c) => c.method === "GetTask").length).toBeGreaterThan(0);
			expect(remote.executions).toHaveLength(1);
		} finally {
			second.child.kill("SIGTERM");
			await second.closed;
		}
	});
});
