import { promises as fs } from "node:fs";
import * as path from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, RequestMalformedError } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { A_GROUP, GATEWAY, clientFor, notesWithId, send, textOfParts, until, useHarness, userMessage } from "./harness";
import type { Served } from "./harness";
import type { TempVault } from "../helpers/temp-vault";

// What `a2a serve` does with input it must not trust (issue 15, point 4): each malformed call gets
// the specification's error and writes nothing; hostile text becomes a safe note or a clear
// error; nothing is ever written outside the A2A root, and the server answers afterwards.

const h = useHarness();

async function rpc(url: string, body: string | Uint8Array, headers: Record<string, string> = { "A2A-Version": "1.0" }, method = "POST") {
	const res = await fetch(url, { method, headers: { "Content-Type": "application/json", ...headers }, body: method === "GET" ? undefined : (body as BodyInit) });
	const text = await res.text();
	let json: { error?: { code: number; message: string } } = {};
	try {
		json = JSON.parse(text) as typeof json;
	} catch {
		// not JSON: the status says enough
	}
	return { status: res.status, code: json.error?.code, message: json.error?.message ?? "", headers: res.headers };
}

const sendBody = (id: string, textValue: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: id, role: "ROLE_USER", parts: [{ text: textValue }] } } });

async function nothingWritten(v: TempVault): Promise<void> {
	expect(await v.files(`A2A/groups/${GATEWAY}/outbox`)).toEqual([]);
	expect(await v.files("A2A/dead-letter")).toEqual([]);
}

async function stillAnswers(served: Served): Promise<void> {
	expect(served.child.exitCode).toBeNull();
	expect((await fetch(served.url)).status).toBe(200);
}

describe("a2a serve refuses what it must not take", () => {
	it("any address but loopback needs a token: it refuses to start without one", async () => {
		const v = await h.vault();
		const result = await h.run(["serve", "--vault", v.dir, "--host", "0.0.0.0", "--port", "0"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("refusing to serve on 0.0.0.0 without a token");
	});

	it("with a token, the card declares the bearer scheme and a call without it gets 401 and writes nothing", async () => {
		const v = await h.vault();
		const tokenFile = path.join(v.dir, "..", `${path.basename(v.dir)}.token`);
		await fs.writeFile(tokenFile, "s3cret-token-of-the-test\n");
		try {
			const served = await h.serve(v.dir, ["--token-file", tokenFile]);
			const card = (await (await fetch(`${served.groupUrl(A_GROUP)}.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json()) as Record<string, unknown>;
			expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: "Bearer", description: "the token of a2a serve --token-file" } } });
			// The v0.3 card (no header) declares it the v0.3 way.
			const v03 = (await (await fetch(`${served.groupUrl(A_GROUP)}.well-known/agent-card.json`)).json()) as Record<string, unknown>;
			expect(v03.securitySchemes).toEqual({ bearer: { type: "http", scheme: "Bearer", description: "the token of a2a serve --token-file" } });
			expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
			const anonymous = await clientFor(served.groupUrl(A_GROUP));
			await expect(send(anonymous, userMessage("no-token", "let me in"), true)).rejects.toThrow(/401/);
			const wrong = await rpc(served.groupUrl(A_GROUP), sendBody("bad-token", "let me in"), { "A2A-Version": "1.0", Authorization: "Bearer not-the-token" });
			expect(wrong.status).toBe(401);
			expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
			await nothingWritten(v);
			const allowed = await clientFor(served.groupUrl(A_GROUP), "s3cret-token-of-the-test");
			expect((await send(allowed, userMessage("with-token", "hello"), true)).id).toBe("with-token");
			expect(await notesWithId(v, "with-token")).toHaveLength(1);
		} finally {
			await fs.rm(tokenFile, { force: true });
		}
	});

	it("a body over 1 MB, bad JSON, bad UTF-8, a bad request, an unknown method, a wrong A2A-Version, an unknown group: the spec's errors, nothing written", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const url = served.groupUrl(A_GROUP);
		const big = await rpc(url, sendBody("big", "x".repeat(1024 * 1024 + 10)));
		expect(big.status).toBe(413);
		expect((await rpc(url, '{"jsonrpc": "2.0", "method": ')).code).toBe(-32700);
		const badUtf8 = Buffer.concat([Buffer.from(sendBody("utf", "ok").slice(0, -5)), Buffer.from([0xff, 0xfe, 0x22, 0x7d, 0x5d, 0x7d, 0x7d, 0x7d])]);
		expect((await rpc(url, badUtf8)).code).toBe(-32700);
		expect((await rpc(url, JSON.stringify({ id: 1, method: "SendMessage", params: {} }))).code).toBe(-32600);
		expect((await rpc(url, JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }]))).code).toBe(-32600);
		expect((await rpc(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "DeleteEverything", params: {} }))).code).toBe(-32601);
		// A version the server does not speak is -32009; a v1.0 method under the 0.3 header is no v0.3 method.
		// (Without a header a v1.0 method is served as v1.0: serve-interop.test.ts.)
		const v2 = await rpc(url, sendBody("v-2.0", "hello"), { "A2A-Version": "2.0" });
		const v03 = await rpc(url, sendBody("v-0.3", "hello"), { "A2A-Version": "0.3" });
		expect([v2.status, v2.code, v03.status, v03.code]).toEqual([200, -32009, 200, -32601]);
		const unknown = await rpc(`${served.url}groups/nobody/`, sendBody("lost", "hello"));
		expect([unknown.status, unknown.code]).toEqual([404, -32601]);
		expect(unknown.message).toContain("10-backend-group");
		expect((await rpc(`${served.url}groups/${GATEWAY}/`, sendBody("gw", "hello"))).status).toBe(404);
		expect((await rpc(url, "", {}, "GET")).status).toBe(405);
		await nothingWritten(v);
		await stillAnswers(served);
	});

	it("hostile text parts become a safe note or a clear error, never a write outside the A2A root", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		const html = `<script>alert("x")</script><img src=x onerror=alert(1)> [[../../secret]] | pipe`;
		const task = await send(client, userMessage("../../../escape-1", html), true);
		expect(task.id).toBe("../../../escape-1");
		const [note] = await notesWithId(v, "../../../escape-1");
		expect(note.path).toMatch(new RegExp(`^A2A/groups/${GATEWAY}/outbox/[^/]+\\.md$`));
		expect(await v.read(note.path)).toContain(`## Question\n\n${html}\n`);
		expect(textOfParts((await send(client, userMessage("../../../escape-1", html), true)).history[0]?.parts)).toBe(html);

		const traversal = await send(client, userMessage("trav-1", "../../etc/passwd\n..\\..\\windows"), true);
		expect(traversal.status?.state).toBe(TaskState.TASK_STATE_WORKING);

		const broken = await send(client, userMessage("utf-1", "lone \ud800 surrogate and a \u0000 NUL"), true);
		expect(textOfParts(broken.history[0]?.parts)).toBe("lone \uFFFD surrogate and a \uFFFD NUL");

		const huge = await send(client, userMessage("huge-1", "y".repeat(1000 * 1000)), true).catch((e: unknown) => e);
		expect(huge).toBeInstanceOf(RequestMalformedError);
		expect((huge as Error).message).toMatch(/INVALID_MESSAGE.*limit is 102400/);
		const bytes = await send(client, userMessage("raw-1", [{ content: { $case: "raw", value: Buffer.from("MZ") }, metadata: undefined, filename: "a.exe", mediaType: "application/octet-stream" }]), true).catch((e: unknown) => e);
		expect(bytes).toBeInstanceOf(ContentTypeNotSupportedError);
		await expect(send(client, userMessage("line\nbreak", "hello"), true)).rejects.toThrow(/messageId must be 1 to 128 printable characters/);
		await expect(send(client, userMessage("empty-1", []), true)).rejects.toThrow(/says nothing/);

		const files = await v.files();
		expect(files.filter((f) => !f.startsWith("A2A/"))).toEqual([]);
		expect((await fs.readdir(path.dirname(v.dir))).filter((n) => n.includes("escape") || n === "etc")).toEqual([]);
		expect((await notesWithId(v, "huge-1")).length + (await notesWithId(v, "raw-1")).length).toBe(0);
		await stillAnswers(served);
	});

	it("logs one line per request to stderr, and stops cleanly on SIGTERM and on Ctrl+C, also with a stream open", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		await send(client, userMessage("log-1", "one"), true);
		await client.getTask({ tenant: "", id: "log-1", historyLength: undefined });
		const requestLines = () => served.stderr.filter((l) => /^\d{4}-\d\d-\d\dT\S+ (GET|POST) /.test(l));
		const requests = await until("three log lines", async () => (requestLines().length >= 3 ? requestLines() : null));
		expect(requests.map((l) => l.split(" ").slice(1, 5).join(" "))).toEqual([
			`GET /groups/${A_GROUP}/.well-known/agent-card.json 200 -`,
			`POST /groups/${A_GROUP}/ 200 SendMessage`,
			`POST /groups/${A_GROUP}/ 200 GetTask`,
		]);
		const stream = client.sendMessageStream({ tenant: "", message: userMessage("open-stream", "no router: it stays open"), configuration: undefined, metadata: undefined });
		const firstEvent = await stream.next();
		expect(firstEvent.value?.payload?.$case).toBe("task");
		const drained = (async () => {
			try {
				// the stream ends when the server stops
				while (!(await stream.next()).done);
			} catch {
				// a dropped connection is an acceptable end too
			}
		})();
		expect(await served.stop("SIGTERM")).toBe(0);
		await drained;
		expect(served.stderr).toContain("a2a serve: stopped.");

		const again = await h.serve(v.dir);
		expect(await again.stop("SIGINT")).toBe(0);
	});
});
