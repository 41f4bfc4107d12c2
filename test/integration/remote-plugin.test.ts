import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { FAILING_REASON, INPUT_QUESTION, SENT_FILE, SENT_PHOTO, startRemoteAgents } from "../../test-support/a2a-remote-agents";
import type { RemoteAgentServer } from "../../test-support/a2a-remote-agents";
import { ARCHIVED, BOX, REGISTRY, requestNote } from "../helpers/temp-vault";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";

// The plugin forwards requests to remote groups (issue 16) through Obsidian's requestUrl (no SDK in
// main.js): the real plugin on the fake host, whose requestUrl goes over HTTP to remote agents
// built with @a2a-js/sdk's server on 127.0.0.1.

let b: Booted | undefined;
let remote: RemoteAgentServer;
beforeEach(async () => {
	remote = await startRemoteAgents();
});
afterEach(async () => {
	await b?.host.cleanup();
	b = undefined;
	await remote.close();
});

const OUT = BOX("10-backend-group", "outbox");
const IN = BOX("10-backend-group", "inbox");
const withRemotes = () =>
	REGISTRY.replace("groups:\n", `groups:\n  remote-echo:\n    url: ${remote.url("echo")}\n  remote-failing:\n    url: ${remote.url("failing")}\n  remote-slow:\n    url: ${remote.url("slow")}\n  remote-input:\n    url: ${remote.url("input")}\n  remote-held:\n    url: ${remote.url("held")}\n`);

/** Waits (checking every 25 ms, at most 15 s) until the requester's inbox holds `count` notes. */
async function inboxHolds(count: number): Promise<string[]> {
	for (let i = 0; i < 600; i++) {
		await b?.quiet();
		const files = b?.files(IN) ?? [];
		if (files.length >= count) return files;
		await new Promise((r) => setTimeout(r, 25));
	}
	throw new Error(`the inbox never held ${count} note(s)`);
}

/** Waits (checking every 25 ms, at most 15 s) until `probe` holds. */
async function until(what: string, probe: () => Promise<boolean> | boolean): Promise<void> {
	for (let i = 0; i < 600; i++) {
		await b?.quiet();
		if (await probe()) return;
		await new Promise((r) => setTimeout(r, 25));
	}
	throw new Error(`gave up waiting for ${what}`);
}

describe("the plugin forwards to remote A2A agents through requestUrl", () => {
	it("a request to a url: group is answered by the remote agent, its answer in the requester's inbox and the request archived", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes() });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-1", target_group: "remote-echo" }));
		const [answer] = await inboxHolds(1);
		expect(await b.frontmatter(answer)).toMatchObject({ in_reply_to: "p-1", source_group: "remote-echo", status: "success", state: "delivered" });
		expect(await b.body(answer)).toContain("echo: What fields are mandatory?");
		await b.quiet();
		expect(await b.frontmatter(ARCHIVED("remote-echo") + "/ask.md")).toMatchObject({ message_id: "p-1", state: "answered", remote_task_id: expect.any(String) });
		expect(remote.executions.map((e) => e.messageId)).toEqual(["p-1"]);
		expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
	});

	it("a failing remote's reason reaches the requester as an error response", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes() });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-2", target_group: "remote-failing" }));
		const [answer] = await inboxHolds(1);
		const fm = await b.frontmatter(answer);
		expect(fm).toMatchObject({ in_reply_to: "p-2", status: "error", error_code: "REMOTE_FAILED" });
		expect(String(fm.error_message)).toContain(FAILING_REASON);
	});

	it("a card that names another address gets no token from the plugin either: the request is refused with the reason", async () => {
		await remote.close();
		const token = "plugin-token-0123456789abcdef";
		remote = await startRemoteAgents({ token });
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY.replace("groups:\n", `groups:\n  remote-elsewhere:\n    url: ${remote.url("elsewhere")}\n    token_secret: elsewhere-token\n`) }, { secrets: { "elsewhere-token": token }, approved: { "elsewhere-token": remote.url("elsewhere") } });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-9", target_group: "remote-elsewhere" }));
		const [answer] = await inboxHolds(1);
		const fm = await b.frontmatter(answer);
		expect(fm).toMatchObject({ in_reply_to: "p-9", status: "error", error_code: "REMOTE_ERROR" });
		expect(String(fm.error_message)).toContain("on another address than its registry url");
		expect(remote.calls.filter((c) => c.elsewhere)).toEqual([]);
	});

	it("the secret token_secret names is read from Obsidian's secret storage and sent; a missing one is an error response and nothing is called", async () => {
		await remote.close();
		const token = "plugin-token-0123456789abcdef";
		remote = await startRemoteAgents({ token });
		const registry = REGISTRY.replace("groups:\n", `groups:\n  remote-echo:\n    url: ${remote.url("echo")}\n    token_secret: echo-token\n  remote-unset:\n    url: ${remote.url("echo")}\n    token_secret: unset-token\n`);
		b = await bootPlugin({ "A2A/registry.yaml": registry }, { secrets: { "echo-token": token }, approved: { "echo-token": remote.url("echo"), "unset-token": remote.url("echo") } });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-20", target_group: "remote-echo" }));
		await b.host.externalWrite(`${OUT}/ask2.md`, requestNote({ message_id: "p-21", target_group: "remote-unset" }));
		const answers = await inboxHolds(2);
		const fms = await Promise.all(answers.map((a) => b?.frontmatter(a)));
		expect(fms.find((fm) => fm?.in_reply_to === "p-20")).toMatchObject({ status: "success" });
		const unset = fms.find((fm) => fm?.in_reply_to === "p-21");
		expect(unset).toMatchObject({ status: "error" });
		expect(String(unset?.error_message)).toContain("secret unset-token of remote-unset is not set");
		expect(remote.executions.map((e) => e.messageId)).toEqual(["p-20"]);
	});

	it("a registry edited elsewhere cannot send this device's secrets to a new address: a secret goes only where the user chose it for", async () => {
		const heard: string[] = [];
		const server = createServer((req, res) => {
			heard.push(req.headers.authorization ?? "");
			res.writeHead(404).end();
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		try {
			const evil = `http://127.0.0.1:${(server.address() as { port: number }).port}/agents/x/`;
			// The user chose partner-token for the remote's address; the synced registry now points the group (and names another plugin's key) elsewhere.
			const registry = REGISTRY.replace("groups:\n", `groups:\n  remote-echo:\n    url: ${evil}\n    token_secret: partner-token\n  remote-key:\n    url: ${evil}\n    token_secret: openai-api-key\n`);
			b = await bootPlugin({ "A2A/registry.yaml": registry }, { secrets: { "partner-token": "partner-0123456789", "openai-api-key": "sk-other-plugin-0123456789" }, approved: { "partner-token": remote.url("echo") } });
			await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-23", target_group: "remote-echo" }));
			await b.host.externalWrite(`${OUT}/ask2.md`, requestNote({ message_id: "p-24", target_group: "remote-key" }));
			const answers = await inboxHolds(2);
			for (const answer of answers) {
				const fm = await b.frontmatter(answer);
				expect(fm).toMatchObject({ status: "error" });
				expect(String(fm.error_message)).toContain("was not chosen for");
			}
			expect(heard).toEqual([]);
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it("a registry's token_file is never read from the vault nor sent: the entry is a registry error", async () => {
		const server = createServer((req, res) => {
			heard.push(req.headers.authorization ?? "");
			res.writeHead(404).end();
		});
		const heard: string[] = [];
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		try {
			const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/agents/x/`;
			b = await bootPlugin({ "A2A/registry.yaml": REGISTRY.replace("groups:\n", `groups:\n  remote-x:\n    url: ${url}\n    token_file: secrets/x.token\n`), "secrets/x.token": "vault-token-0123456789\n" });
			await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-22", target_group: "remote-x" }));
			await b.quiet();
			expect(b.plugin.parts.relay.router.registry.errors.map((e) => e.message).join("\n")).toContain("token_file is no longer read");
			expect(heard).toEqual([]);
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it("file bytes in the answer are saved as they came under the requester's artifacts/ folder, a binary file too", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY.replace("groups:\n", `groups:\n  remote-files:\n    url: ${remote.url("files")}\n`) });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-10", target_group: "remote-files" }));
		const [answer] = await inboxHolds(1);
		expect(await b.frontmatter(answer)).toMatchObject({ in_reply_to: "p-10", status: "success" });
		const artifacts = "A2A/groups/10-backend-group/artifacts";
		expect(await b.body(answer)).toContain(`- ${artifacts}/report.csv\n- ${artifacts}/photo.jpg\n`);
		expect(readFileSync(join(b.host.dir, artifacts, "report.csv"), "utf8")).toBe(SENT_FILE.text);
		expect([...readFileSync(join(b.host.dir, artifacts, "photo.jpg"))]).toEqual([...SENT_PHOTO]);
	});

	it("the sidebar's message flow shows a remote group with its URL and the request forwarded to it while it is in flight", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes() });
		expect(b.host.executeCommand("a2a-relay:open-agent-status")).toBe(true);
		await b.quiet();
		const el = b.host.app.workspace.getLeavesOfType("a2a-agent-status")[0].view.containerEl;
		const rowOf = (group: string) => el.querySelector<HTMLElement>(`.a2a-queue-table tr[data-group="${group}"]`);
		const cell = (group: string, count: string) => rowOf(group)?.querySelector(`[data-count="${count}"]`)?.textContent;
		expect(rowOf("remote-slow")?.querySelector(".a2a-queue-url")?.textContent).toBe(remote.url("slow"));
		expect(rowOf("10-backend-group")?.querySelector(".a2a-queue-url")).toBeNull();

		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-3", target_group: "remote-slow" }));
		await until("the request forwarded", async () => (await b?.frontmatter(BOX("remote-slow", "inbox") + "/ask.md").catch(() => ({}) as Record<string, unknown>))?.state === "forwarded");
		await until("the view showing it in flight", () => cell("remote-slow", "inbox") === "1" && cell("10-backend-group", "in-flight") === "1");

		remote.releaseSlow();
		await inboxHolds(1);
		await until("the view showing it answered", () => cell("remote-slow", "inbox") === "0" && cell("10-backend-group", "in-flight") === "0");
	});

	it("an agent that asks for input: an error response says a person must answer", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes() });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-4", target_group: "remote-input" }));
		const [answer] = await inboxHolds(1);
		const fm = await b.frontmatter(answer);
		expect(fm).toMatchObject({ in_reply_to: "p-4", status: "error", error_code: "INPUT_REQUIRED" });
		expect(String(fm.error_message)).toContain(INPUT_QUESTION);
	});

	it("a task not finished in time: retried once (no second send), then TIMEOUT reaches the requester and the agent is asked to cancel", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes().replace("retry_attempts: 3", "retry_attempts: 1") });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-5", target_group: "remote-slow", timeout_seconds: 1 }));
		const [timeout] = await inboxHolds(1);
		expect(await b.frontmatter(timeout)).toMatchObject({ in_reply_to: "p-5", status: "timeout", error_code: "TIMEOUT" });
		expect(await b.frontmatter("A2A/dead-letter/ask.md")).toMatchObject({ state: "timed_out", attempt: 2 });
		expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
		// Nobody waits for the task any more: the agent is asked to cancel it.
		await until("the cancel", () => remote.calls.some((c) => c.method === "CancelTask"));
	});

	it("the plugin stopped after the send and started again: it asks GetTask, sends nothing twice, and the answer arrives", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes() });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-6", target_group: "remote-slow" }));
		await until("the request forwarded", async () => (await b?.frontmatter(BOX("remote-slow", "inbox") + "/ask.md").catch(() => ({}) as Record<string, unknown>))?.state === "forwarded");
		await b.host.unloadPlugin(b.plugin);
		remote.releaseSlow();
		const plugin = await b.host.loadPlugin(A2ARelayPlugin, manifest);
		const quiet = async () => {
			for (let i = 0; i < 3; i++) {
				await b?.host.settled();
				await plugin.parts.relay.whenIdle();
			}
		};
		b = { ...b, plugin, quiet };
		const [answer] = await inboxHolds(1);
		expect(await b.frontmatter(answer)).toMatchObject({ in_reply_to: "p-6", status: "success" });
		expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
		expect(remote.calls.filter((c) => c.method === "GetTask").length).toBeGreaterThan(0);
		expect(remote.executions).toHaveLength(1);
	});

	it("the plugin stopped after its send but before it learnt the task: started again, it finds the task (ListTasks) and sends nothing twice", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": withRemotes() });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "p-7", target_group: "remote-held" }));
		await until("the send received", () => remote.executions.some((e) => e.messageId === "p-7"));
		await b.host.unloadPlugin(b.plugin);
		expect(await b.frontmatter(BOX("remote-held", "inbox") + "/ask.md")).toMatchObject({ state: "delivered" });
		remote.releaseSlow();
		const plugin = await b.host.loadPlugin(A2ARelayPlugin, manifest);
		const quiet = async () => {
			for (let i = 0; i < 3; i++) {
				await b?.host.settled();
				await plugin.parts.relay.whenIdle();
			}
		};
		b = { ...b, plugin, quiet };
		const [answer] = await inboxHolds(1);
		expect(await b.frontmatter(answer)).toMatchObject({ in_reply_to: "p-7", status: "success" });
		expect(remote.calls.filter((c) => c.method === "SendMessage")).toHaveLength(1);
		expect(remote.calls.filter((c) => c.method === "ListTasks")).toHaveLength(1);
		expect(remote.executions).toHaveLength(1);
	});
});
