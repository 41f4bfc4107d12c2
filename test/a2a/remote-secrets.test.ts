import { promises as fs } from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { startRemoteAgents } from "../../test-support/a2a-remote-agents";
import type { RemoteAgentServer } from "../../test-support/a2a-remote-agents";
import { BOX, a2a, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { useHarness } from "./harness";

// Issue 27, finding 2: a registry names a secret, never a path. What is checked is what leaves the
// machine (every request a loopback server receives, with its headers) and what the user sees (the
// registry error, the response note). The CLI reads a secret from A2A_SECRET_<ID> or from the file
// <id> of $XDG_CONFIG_HOME/a2a-relay/secrets, owner-only.

const h = useHarness();
const TOKEN = "remote-token-0123456789abcdef";
const REQUESTER = "10-backend-group";
const LEAK = "ghp_THE_USERS_GIT_CREDENTIAL_0000";

interface Received {
	method: string;
	url: string;
	authorization: string | undefined;
	body: string;
}

/** A loopback server that records every request it receives; `answer` decides the reply (404 by default). */
async function recorder(answer?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
	const received: Received[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			received.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body: Buffer.concat(chunks).toString("utf8") });
			if (answer) answer(req, res);
			else res.writeHead(404).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as { port: number }).port;
	return {
		url: `http://127.0.0.1:${port}/agents/x/`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const saved = { ...process.env };
let home: string;
let remote: RemoteAgentServer;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
	home = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-secrets-home-"));
	// The CLI runs in this process: its home and configuration folder are the test's.
	process.env.HOME = home;
	process.env.XDG_CONFIG_HOME = path.join(home, ".config");
	remote = await startRemoteAgents({ token: TOKEN });
});
afterEach(async () => {
	for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
	Object.assign(process.env, saved);
	await remote.close();
	for (const close of closers.splice(0)) await close();
	await fs.rm(home, { recursive: true, force: true });
});

async function send(v: TempVault, to: string, question: string): Promise<string> {
	const sent = await a2a(v.dir, "send", "--from", REQUESTER, "--to", to, "--type", "query", "--question", question, "--json");
	expect(sent.code, sent.stderr.join("\n")).toBe(0);
	return sent.json[0].message_id as string;
}

async function answers(v: TempVault): Promise<{ fm: Record<string, unknown>; text: string }[]> {
	const out = [];
	for (const file of await v.files(`A2A/groups/${REQUESTER}/inbox`)) {
		const text = await v.read(file);
		out.push({ fm: readFrontmatter(text) ?? {}, text });
	}
	return out;
}

const entry = (id: string, url: string, extra: string) => (text: string) => text.replace("groups:\n", `groups:\n  ${id}:\n    url: ${url}\n${extra}`);

async function privateSecret(id: string, value: string, folderMode = 0o700, fileMode = 0o600): Promise<string> {
	const folder = path.join(home, ".config", "a2a-relay", "secrets");
	await fs.mkdir(folder, { recursive: true });
	await fs.chmod(folder, folderMode);
	const file = path.join(folder, id);
	await fs.writeFile(file, `${value}\n`);
	await fs.chmod(file, fileMode);
	return file;
}

describe("a registry names a secret, never a path", () => {
	for (const [label, tokenFile] of [
		["~/.git-credentials", "~/.git-credentials"],
		["../x (outside the vault)", "../x"],
		["secrets/x.token (inside the vault)", "secrets/x.token"],
	] as const) {
		it(`token_file: ${label} is a registry error: nothing is read, nothing is sent`, async () => {
			const server = await recorder();
			closers.push(server.close);
			await fs.writeFile(path.join(home, ".git-credentials"), `https://user:${LEAK}@github.com\n`);
			const v = await h.vault(entry("remote-x", server.url, `    token_file: ${tokenFile}\n`));
			// "../x" names a file beside the vault folder (its name made unique to this vault).
			const beside = `${path.basename(v.dir)}-x`;
			await v.write("A2A/registry.yaml", (await v.read("A2A/registry.yaml")).replace("token_file: ../x", `token_file: ../${beside}`));
			await fs.writeFile(path.join(v.dir, "..", beside), `${LEAK}\n`);
			await v.write("secrets/x.token", `${LEAK}\n`);
			closers.push(() => fs.rm(path.join(v.dir, "..", beside), { force: true }));
			// An agent writes the request itself (a2a send refuses a group the registry does not hold).
			await v.write(`${BOX(REQUESTER, "outbox")}/q.md`, requestNote({ target_group: "remote-x" }));
			const routed = await a2a(v.dir, "route");
			const said = [...routed.stdout, ...routed.stderr].join("\n");
			expect(said).toContain("token_file is no longer read");
			expect(said).toContain("token_secret");
			expect(said).toContain("a2a-relay/secrets");
			expect(server.received).toEqual([]);
			expect(said).not.toContain(LEAK);
		});
	}

	it("a token_secret that is a path is a registry error, and nothing is sent", async () => {
		const server = await recorder();
		closers.push(server.close);
		const v = await h.vault(entry("remote-x", server.url, "    token_secret: ../../.git-credentials\n"));
		await v.write(`${BOX(REQUESTER, "outbox")}/q.md`, requestNote({ target_group: "remote-x" }));
		const routed = await a2a(v.dir, "route");
		expect([...routed.stdout, ...routed.stderr].join("\n")).toContain("must be a secret id");
		expect(server.received).toEqual([]);
	});

	it("A2A_SECRET_<ID> is sent as the bearer token", async () => {
		process.env.A2A_SECRET_PARTNER_TOKEN = TOKEN;
		const v = await h.vault(entry("remote-echo", remote.url("echo"), "    token_secret: partner-token\n"));
		const id = await send(v, "remote-echo", "With the variable");
		const routed = await a2a(v.dir, "route");
		expect(routed.code, routed.stderr.join("\n")).toBe(0);
		expect((await answers(v)).find((n) => n.fm.in_reply_to === id)?.fm).toMatchObject({ status: "success" });
		expect(remote.executions.map((e) => e.text)).toEqual([expect.stringContaining("With the")]);
	});

	it("the file <id> of the private configuration folder is sent as the bearer token", async () => {
		await privateSecret("partner-token", TOKEN);
		const v = await h.vault(entry("remote-echo", remote.url("echo"), "    token_secret: partner-token\n"));
		const id = await send(v, "remote-echo", "With the file");
		await a2a(v.dir, "route");
		expect((await answers(v)).find((n) => n.fm.in_reply_to === id)?.fm).toMatchObject({ status: "success" });
		expect(remote.executions.map((e) => e.text)).toEqual([expect.stringContaining("With the")]);
	});

	for (const [label, folderMode, fileMode, words] of [
		["a group-readable secret file", 0o700, 0o640, "chmod 600"],
		["a secrets folder others can enter", 0o755, 0o600, "chmod 700"],
	] as const) {
		it(`${label} is refused with a clear message; no token is sent`, async () => {
			const file = await privateSecret("partner-token", TOKEN, folderMode, fileMode);
			const v = await h.vault(entry("remote-echo", remote.url("echo"), "    token_secret: partner-token\n"));
			const id = await send(v, "remote-echo", "With an open file");
			const routed = await a2a(v.dir, "route");
			const answer = (await answers(v)).find((n) => n.fm.in_reply_to === id);
			expect(answer?.fm).toMatchObject({ status: "error", error_code: "REMOTE_ERROR" });
			expect(String(answer?.fm.error_message)).toContain("can be read or written by others");
			expect(String(answer?.fm.error_message)).toContain(words);
			expect(remote.calls).toEqual([]);
			expect(remote.executions).toEqual([]);
			for (const text of [answer?.text ?? "", ...routed.stdout, ...routed.stderr]) expect(text).not.toContain(TOKEN);
			expect(file).toContain(path.join(".config", "a2a-relay", "secrets"));
		});
	}

	it("a secret file that is a symbolic link is not followed", async () => {
		const target = path.join(home, ".git-credentials");
		await fs.writeFile(target, `${LEAK}\n`, { mode: 0o600 });
		const folder = path.join(home, ".config", "a2a-relay", "secrets");
		await fs.mkdir(folder, { recursive: true, mode: 0o700 });
		await fs.symlink(target, path.join(folder, "partner-token"));
		const server = await recorder();
		closers.push(server.close);
		const v = await h.vault(entry("remote-x", server.url, "    token_secret: partner-token\n"));
		const id = await send(v, "remote-x", "Through a link?");
		await a2a(v.dir, "route");
		const answer = (await answers(v)).find((n) => n.fm.in_reply_to === id);
		expect(String(answer?.fm.error_message)).toContain("not a link");
		expect(server.received).toEqual([]);
	});

	it("a secret goes only to the address it first went to: a registry that moves the group elsewhere gets nothing sent there", async () => {
		process.env.A2A_SECRET_PARTNER_TOKEN = TOKEN;
		const v = await h.vault(entry("remote-echo", remote.url("echo"), "    token_secret: partner-token\n"));
		const first = await send(v, "remote-echo", "First, to the partner");
		await a2a(v.dir, "route");
		expect((await answers(v)).find((n) => n.fm.in_reply_to === first)?.fm).toMatchObject({ status: "success" });
		const pin = path.join(home, ".config", "a2a-relay", "secrets", "partner-token.origin");
		expect((await fs.readFile(pin, "utf8")).trim()).toBe(new URL(remote.url("echo")).origin);
		expect((await fs.stat(pin)).mode & 0o777).toBe(0o600);
		// Someone who can write the registry points the group at their own server.
		const server = await recorder();
		closers.push(server.close);
		await v.write("A2A/registry.yaml", (await v.read("A2A/registry.yaml")).replace(remote.url("echo"), server.url));
		const second = await send(v, "remote-echo", "Second, moved");
		await a2a(v.dir, "route");
		const answer = (await answers(v)).find((n) => n.fm.in_reply_to === second);
		expect(answer?.fm).toMatchObject({ status: "error" });
		expect(String(answer?.fm.error_message)).toContain("is only sent to");
		expect(String(answer?.fm.error_message)).toContain(`delete ${pin}`);
		expect(server.received).toEqual([]);
	});

	it("a redirect to another loopback port receives no token, and the request is refused saying why", async () => {
		process.env.A2A_SECRET_PARTNER_TOKEN = TOKEN;
		const elsewhere = await recorder();
		closers.push(elsewhere.close);
		const redirecting = await recorder((req, res) => res.writeHead(307, { Location: `${elsewhere.url.replace(/agents\/x\/$/, "")}${(req.url ?? "/").slice(1)}` }).end());
		closers.push(redirecting.close);
		const v = await h.vault(entry("remote-x", redirecting.url, "    token_secret: partner-token\n"));
		const id = await send(v, "remote-x", "Follow me");
		await a2a(v.dir, "route");
		expect(redirecting.received.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`]);
		expect(elsewhere.received).toEqual([]);
		const answer = (await answers(v)).find((n) => n.fm.in_reply_to === id);
		expect(answer?.fm).toMatchObject({ status: "error" });
		expect(String(answer?.fm.error_message)).toContain("never sent after a redirect");
	});
});
