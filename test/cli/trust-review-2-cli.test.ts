import fsModule from "node:fs";
import { promises as fs } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { serialQueue } from "../../servers/mcp/context";
import { buildMcpServer } from "../../servers/mcp/server";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { readFrontmatter } from "../../src/core/frontmatter";
import { useCliBundle, watching } from "../helpers/cli-process";
import type { Watcher } from "../helpers/cli-process";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The second adversarial review (after the router's rewrite), the items found through the CLI: one
// named test per break, on a real folder; `a2a route --watch` runs as a real child process.

const A = "10-backend-group";
const B = "20-frontend-group";

const cli = useCliBundle();

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-review2-cli-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (without asserting on time) until `check` holds; fails with `what` after a generous deadline. */
async function until(what: string, check: () => boolean | Promise<boolean>, watcher?: Watcher): Promise<void> {
	const deadline = Date.now() + 20_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${watcher ? `\nstderr:\n${watcher.errors.join("\n")}\nstdout:\n${watcher.lines.join("\n")}` : ""}`);
		await sleep(20);
	}
}

/** `a2a route --watch --json` on the test vault with `args`, collecting what it prints (stopped after the test). */
function watch(...args: string[]): Watcher {
	return watching(cli.spawn(["route", "--watch", "--json", "--vault", v.dir, ...args]));
}

async function stop(watcher: Watcher): Promise<void> {
	watcher.child.kill("SIGTERM");
	await watcher.closed;
}

describe("review 2, item 3: a2a route --watch waits for a note still being written", () => {
	it("a first part cut inside its frontmatter, then the rest appended: the delivered note is whole, and the note was looked at a few times, not polled", async () => {
		const w = watch("--grace", "2", "--interval", "60000");
		const rel = `${BOX(A, "outbox")}/ask.md`;
		const whole = requestNote({ message_id: "half-written-1", target_group: B }, "## Question\n\nWhat fields are mandatory?\n\n## Context\n\nThe second half, written a moment later.\n");
		const cut = whole.indexOf("target_group");
		await v.write(rel, whole.slice(0, cut));
		// The first part does not parse yet: the watcher sees it and lets it wait for its writer (rule 2).
		const looks = () => w.errors.filter((l) => l.startsWith(`waiting for its writer: ${rel} `));
		await until("the watcher to see the first part", () => looks().length > 0, w);
		expect(await v.files(BOX(B, "inbox"))).toEqual([]);
		await fs.appendFile(path.join(v.dir, rel), whole.slice(cut));
		await until("the delivery", async () => (await v.files(BOX(B, "inbox"))).length > 0, w);
		const inbox = await v.files(BOX(B, "inbox"));
		expect(inbox).toEqual([`${BOX(B, "inbox")}/ask.md`]);
		const body = await v.body(inbox[0]);
		expect(body).toContain("What fields are mandatory?");
		expect(body).toContain("The second half, written a moment later.");
		expect(await v.frontmatter(inbox[0])).toMatchObject({ message_id: "half-written-1", state: "delivered" });
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		// Looked at on each change and once more when quiet: a timer, not a loop (2 s of polling would be dozens of looks).
		expect(looks().length).toBeGreaterThanOrEqual(1);
		expect(looks().length).toBeLessThanOrEqual(4);
		// The watcher prints a pass's decisions once the pass is over, a moment after the note moved.
		const delivered = () => w.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((d) => d.outcome === "delivered");
		await until("the delivery's line", () => delivered().length > 0, w);
		expect(delivered()).toHaveLength(1);
		await stop(w);
	});

	it("a valid note is routed at once by the watcher (rule 2 holds back only notes that do not parse or are invalid)", async () => {
		const w = watch("--grace", "60", "--interval", "60000");
		await v.write(`${BOX(A, "outbox")}/valid.md`, requestNote({ message_id: "valid-at-once", target_group: B }));
		await until("the delivery", async () => (await v.files(BOX(B, "inbox"))).length > 0, w);
		expect(w.errors.filter((l) => l.startsWith("waiting for its writer"))).toEqual([]);
		await stop(w);
	});

	it("a one-off a2a route still routes a note at once, however fresh", async () => {
		await v.write(`${BOX(A, "outbox")}/now.md`, requestNote({ message_id: "at-once-1", target_group: B }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.json.map((d) => d.outcome)).toEqual(["delivered"]);
		expect(readFrontmatter(await v.read(`${BOX(B, "inbox")}/now.md`))).toMatchObject({ message_id: "at-once-1" });
	});
});

describe("review 2, item 11: a timeout_seconds beyond 30 days is refused, never an endless failure", () => {
	it("a2a route rejects a note with timeout_seconds 1e20 as INVALID_MESSAGE naming the maximum, once, and the next pass has nothing to say", async () => {
		await v.write(`${BOX(A, "outbox")}/forever.md`, requestNote({ message_id: "forever-1", target_group: B, timeout_seconds: 1e20 }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.stderr.join("\n")).not.toMatch(/Invalid time value|could not route/);
		expect(run.json).toMatchObject([{ outcome: "rejected", message_id: "forever-1", error_code: "INVALID_MESSAGE" }]);
		const dead = await v.files("A2A/dead-letter");
		expect(dead).toHaveLength(1);
		expect(String((await v.frontmatter(dead[0])).error_message)).toContain("timeout_seconds must be a whole number of seconds from 1 to 2592000 (30 days)");
		const again = await a2a(v.dir, "route", "--json");
		expect(again.stderr.join("\n")).not.toMatch(/Invalid time value|could not route/);
		expect(again.json).toEqual([]);
		// At the largest timeout allowed the request is delivered, with an expiry 30 days on.
		await v.write(`${BOX(A, "outbox")}/month.md`, requestNote({ message_id: "month-1", target_group: B, timeout_seconds: 2592000 }));
		expect((await a2a(v.dir, "route", "--json")).json).toMatchObject([{ outcome: "delivered", message_id: "month-1" }]);
		const fm = await v.frontmatter(`${BOX(B, "inbox")}/month.md`);
		expect(Date.parse(String(fm.expires_at)) - Date.parse(String(fm.delivered_at))).toBe(2592000 * 1000);
	});

	it("a2a send --timeout 1e20 is refused with the same words, and writes nothing", async () => {
		const run = await a2a(v.dir, "send", "--from", A, "--to", B, "--type", "query", "--question", "q?", "--timeout", "100000000000000000000");
		expect(run.code).toBe(1);
		expect(run.stderr.join("\n")).toContain("--timeout: must be a whole number of seconds from 1 to 2592000 (30 days)");
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
	});

	it("MCP send_request with timeout_seconds 1e20 is an error naming the maximum, and writes nothing", async () => {
		const vault = new NodeVault(v.dir);
		const router = new Router(vault);
		await router.loadRegistry();
		const server = buildMcpServer({ vault, router, group: A, serial: serialQueue(), log: () => undefined }, "test");
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const client = new Client({ name: "review-2", version: "0" });
		await client.connect(clientSide);
		try {
			const result = await client.callTool({ name: "send_request", arguments: { to: B, type: "query", question: "q?", timeout_seconds: 1e20 } });
			expect(result.isError).toBe(true);
			expect(JSON.stringify(result.content)).toContain("from 1 to 2592000 (30 days)");
		} finally {
			await client.close();
			await server.close();
		}
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
	});

	it("a registry timeout_seconds beyond 30 days is a registry error, and the default is used", async () => {
		await v.write("A2A/registry.yaml", REGISTRY.replace(/timeout_seconds: \d+/, "timeout_seconds: 100000000000000000000"));
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "reg-1", target_group: B }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.stderr.join("\n")).toContain("communication.timeout_seconds: must be at most 2592000 (30 days)");
		expect(run.json).toMatchObject([{ outcome: "delivered" }]);
		const fm = await v.frontmatter(`${BOX(B, "inbox")}/ask.md`);
		expect(Date.parse(String(fm.expires_at)) - Date.parse(String(fm.delivered_at))).toBe(30_000);
	});
});

describe("review 2, item 9: however many notes share a name in a folder, a note always finds a free name", () => {
	it("60 requests all named ask.md, with ids that share their first letters, are all delivered into one inbox; nothing is overwritten", async () => {
		const senders = [A, "30-devops-group", "40-security-group"];
		const ids: string[] = [];
		for (let round = 0; round < 20; round++) {
			for (const [i, from] of senders.entries()) {
				const id = `message-${String(round * 3 + i).padStart(4, "0")}`;
				ids.push(id);
				await v.write(`${BOX(from, "outbox")}/ask.md`, requestNote({ message_id: id, source_group: from, target_group: B }, `## Question\n\nQuestion ${id}?\n`));
			}
			const run = await a2a(v.dir, "route", "--json");
			expect(run.stderr.join("\n")).not.toMatch(/could not route|no free name/);
			expect(run.json.map((d) => d.outcome)).toEqual(["delivered", "delivered", "delivered"]);
		}
		const inbox = await v.files(BOX(B, "inbox"));
		expect(inbox).toHaveLength(60);
		expect(new Set(inbox).size).toBe(60);
		// Each delivered note is its own message, whole: nothing was written over another.
		const delivered = await Promise.all(inbox.map(async (p) => ({ id: String((await v.frontmatter(p)).message_id), body: await v.body(p) })));
		expect(delivered.map((d) => d.id).sort()).toEqual([...ids].sort());
		for (const d of delivered) expect(d.body).toContain(`Question ${d.id}?`);
		for (const from of senders) expect(await v.files(BOX(from, "outbox"))).toEqual([]);
	});
});

describe("review 2, item 5: a2a route --watch routes on while the registry is briefly unusable", () => {
	const send = async (id: string) => {
		await v.write(`${BOX(A, "outbox")}/${id}.md`, requestNote({ message_id: id, target_group: B }));
		await until(`${id} to be delivered`, () => v.exists(`${BOX(B, "inbox")}/${id}.md`), w);
	};
	let w: Watcher;
	const warnings = () => w.errors.filter((l) => l.startsWith("warning: the registry cannot be used now"));

	it("with the registry removed, then not YAML, it keeps routing with the last good one, warns once, and uses the registry again when it is good", async () => {
		w = watch("--grace", "0");
		await send("before-1");
		await fs.rm(path.join(v.dir, "A2A/registry.yaml"));
		await until("the warning", () => warnings().length > 0, w);
		expect(warnings()[0]).toContain("is missing");
		await send("while-missing-1");
		await v.write("A2A/registry.yaml", "groups: [unclosed\n");
		await send("while-broken-1");
		expect(warnings()).toHaveLength(1);
		expect(w.child.exitCode).toBeNull();
		// Good again, with a group more: the router follows it.
		await v.write("A2A/registry.yaml", `${REGISTRY}  50-qa-group:\n    description: Tests\n`);
		await until("the registry to be used again", () => w.errors.some((l) => l.startsWith("The registry can be used again")), w);
		await v.write(`${BOX(A, "outbox")}/to-qa.md`, requestNote({ message_id: "to-qa-1", target_group: "50-qa-group" }));
		await until("the delivery to the new group", () => v.exists(`${BOX("50-qa-group", "inbox")}/to-qa.md`), w);
		await stop(w);
		expect(await w.closed).toBe(0);
	});

	it("a registry that is unusable when it starts is still exit 2", async () => {
		await v.write("A2A/registry.yaml", "groups: [unclosed\n");
		const run = await a2a(v.dir, "route", "--watch", "--json");
		expect(run.code).toBe(2);
		expect(run.stderr.join("\n")).toContain("no usable registry");
	});
});

describe("review 2, item 13: a box or the log folder that links outside the vault is never written to", () => {
	let outside: string;
	beforeEach(async () => {
		outside = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-outside-"));
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		syncBuiltinESMExports();
		await fs.rm(outside, { recursive: true, force: true });
	});

	it("an inbox linked to a folder elsewhere: the note stays in its outbox with a clear failure, nothing is written there, and the pass goes on", async () => {
		await fs.rm(path.join(v.dir, BOX(B, "inbox")), { recursive: true });
		await fs.symlink(outside, path.join(v.dir, BOX(B, "inbox")));
		await v.write(`${BOX(A, "outbox")}/to-b.md`, requestNote({ message_id: "linked-1", target_group: B }));
		await v.write(`${BOX(A, "outbox")}/to-c.md`, requestNote({ message_id: "plain-1", target_group: "30-devops-group", trace_id: "22222222-2222-4222-8222-222222222222" }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.stderr.join("\n")).toContain(`could not route ${BOX(A, "outbox")}/to-b.md: ${BOX(B, "inbox")} leads to`);
		expect(run.stderr.join("\n")).toContain("outside the vault");
		expect(await fs.readdir(outside)).toEqual([]);
		expect(await v.files(BOX(A, "outbox"))).toEqual([`${BOX(A, "outbox")}/to-b.md`]);
		expect(run.json).toMatchObject([{ outcome: "delivered", message_id: "plain-1" }]);
		// Made a folder of the vault again, the note is delivered.
		await fs.rm(path.join(v.dir, BOX(B, "inbox")));
		await fs.mkdir(path.join(v.dir, BOX(B, "inbox")));
		expect((await a2a(v.dir, "route", "--json")).json).toMatchObject([{ outcome: "delivered", message_id: "linked-1" }]);
	});

	it("a log folder linked elsewhere: the note is delivered, the log row is a warning, nothing is written there", async () => {
		await fs.rm(path.join(v.dir, "A2A/log"), { recursive: true, force: true });
		await fs.symlink(outside, path.join(v.dir, "A2A/log"));
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "log-linked-1", target_group: B }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.json).toMatchObject([{ outcome: "delivered", message_id: "log-linked-1" }]);
		expect(run.stderr.join("\n")).toMatch(/warning: .*outside the vault/);
		expect(await fs.readdir(outside)).toEqual([]);
	});

	it("issue 27: checks each folder at every write, with one realpath per folder per write", async () => {
		const count = async (notes: number): Promise<number> => {
			for (let i = 0; i < notes; i++) {
				await v.write(`${BOX(A, "outbox")}/n-${notes}-${i}.md`, requestNote({ message_id: `count-${notes}-${i}`, target_group: B, trace_id: `${String(i).padStart(8, "0")}-2222-4222-8222-22222222222${notes % 10}` }));
			}
			let calls = 0;
			const native = fsModule.realpathSync.native;
			const spy = vi.spyOn(fsModule.realpathSync, "native").mockImplementation(((...args: Parameters<typeof native>) => {
				calls++;
				return native(...args);
			}) as never);
			try {
				const run = await a2a(v.dir, "route", "--json");
				expect(run.json.filter((d) => d.outcome === "delivered")).toHaveLength(notes);
			} finally {
				spy.mockRestore();
			}
			return calls;
		};
		const few = await count(2);
		const many = await count(30);
		// A delivery is checked three times, once per folder per write, no more: the outbox before the copy
		// (a refused delivery leaves the note alone), the inbox as the copy is written, the outbox as the note leaves it.
		const perNote = (many - few) / 28;
		expect(perNote).toBeGreaterThanOrEqual(2);
		expect(perNote).toBeLessThanOrEqual(3);
	});
});

describe("review 2, item 12: a note far over the size limit is quarantined without being read", () => {
	const SIZE = 600 * 1024 * 1024;
	/** A 600 MB note whose first bytes are a valid request: a sparse file, no disk used. */
	async function hugeNote(name: string, id: string): Promise<string> {
		const rel = `${BOX(A, "outbox")}/${name}`;
		await v.write(rel, requestNote({ message_id: id, target_group: B }));
		await fs.truncate(path.join(v.dir, rel), SIZE);
		return rel;
	}

	it("the note is moved as it is into dead-letter/ with a small stamped dead letter beside it; the sender gets its error response", async () => {
		await hugeNote("huge.md", "huge-1");
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.json).toMatchObject([{ outcome: "rejected", message_id: "huge-1", error_code: "INVALID_MESSAGE", path: "A2A/dead-letter/huge.dead.md" }]);
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		expect(await v.files("A2A/dead-letter")).toEqual(["A2A/dead-letter/huge.dead.md", "A2A/dead-letter/huge.md.oversize"]);
		expect((await fs.stat(path.join(v.dir, "A2A/dead-letter/huge.md.oversize"))).size).toBe(SIZE);
		expect(await v.frontmatter("A2A/dead-letter/huge.dead.md")).toMatchObject({
			message_id: "huge-1",
			source_group: A,
			target_group: B,
			state: "dead",
			error_code: "INVALID_MESSAGE",
			error_message: `the note is ${SIZE} bytes; the limit is 102400 (100 KB)`,
			original_file: "A2A/dead-letter/huge.md.oversize",
		});
		const responses = await v.files(BOX(A, "inbox"));
		expect(responses).toHaveLength(1);
		expect(await v.frontmatter(responses[0])).toMatchObject({ status: "error", error_code: "INVALID_MESSAGE", in_reply_to: "huge-1", source_group: "a2a-relay" });
		// Nothing left to do, and nothing is overwritten when the same name comes again.
		expect((await a2a(v.dir, "route", "--json")).json).toEqual([]);
		await hugeNote("huge.md", "huge-2");
		expect((await a2a(v.dir, "route", "--json")).json).toMatchObject([{ outcome: "rejected", message_id: "huge-2" }]);
		expect(await v.files("A2A/dead-letter")).toHaveLength(4);
		expect((await fs.stat(path.join(v.dir, "A2A/dead-letter/huge.md.oversize"))).size).toBe(SIZE);
	});

	it("the router reads no more than the note's head: bytes read through the port are counted", async () => {
		await hugeNote("huge.md", "huge-3");
		const inner = new NodeVault(v.dir);
		let bytesRead = 0;
		const reads: string[] = [];
		const port = new Proxy(inner, {
			get(target, prop, receiver) {
				const value = Reflect.get(target, prop, receiver) as unknown;
				if (prop !== "read" || typeof value !== "function") return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
				return async (...args: unknown[]) => {
					const got = (await (value as (...a: unknown[]) => Promise<{ text: string } | null>).apply(target, args)) as { text: string } | null;
					if (got) {
						bytesRead += Buffer.byteLength(got.text, "utf8");
						reads.push(String(args[0]));
					}
					return got;
				};
			},
		});
		const router = new Router(port);
		await router.loadRegistry();
		const report = await router.pass();
		await router.stop();
		expect(report.failures).toEqual([]);
		expect(report.decisions).toMatchObject([{ outcome: "rejected", message_id: "huge-3", error_code: "INVALID_MESSAGE" }]);
		expect(reads.filter((p) => p.endsWith("huge.md"))).toHaveLength(1);
		expect(bytesRead).toBeLessThan(1024 * 1024);
	});
});
