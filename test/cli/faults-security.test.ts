import * as nodeFs from "node:fs";
import fsModule from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { unquarantineText } from "../../src/core/stamps";
import { Router } from "../../src/router/router";
import type { VaultPort } from "../../src/router/vault-port";
import { BOX, a2a, requestNote } from "../helpers/temp-vault";

// Security: nothing a message, a registry, a file name or a command-line value says can make the
// router read or write outside the A2A root and the registry's legitimate group folders. Every
// test runs in a sandbox `tmp/` holding the vault `tmp/vault` and a canary `tmp/secret.txt`; after
// each one the WHOLE sandbox is listed and compared with what may exist.

const CANARY = "TOP SECRET canary: must never be read, copied, moved or changed\n";
const TRACE = "a1b2c3d4-e5f6-7890-abcd-ef1234567890";

let sandbox: string;
let dir: string;
/** Paths the test expects outside the A2A root (legitimate group folders). */
let legit: string[];

beforeEach(async () => {
	sandbox = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-sec-"));
	dir = path.join(sandbox, "vault");
	await fs.mkdir(dir);
	await fs.writeFile(path.join(sandbox, "secret.txt"), CANARY);
	legit = [];
});

afterEach(async () => {
	vi.restoreAllMocks();
	await fs.rm(sandbox, { recursive: true, force: true });
});

async function tree(root: string, rel = ""): Promise<string[]> {
	const out: string[] = [];
	for (const e of await fs.readdir(path.join(root, rel), { withFileTypes: true })) {
		const r = rel ? `${rel}/${e.name}` : e.name;
		out.push(e.isDirectory() ? `${r}/` : r);
		if (e.isDirectory()) out.push(...(await tree(root, r)));
	}
	return out;
}

/** The whole sandbox: only the vault, the untouched canary, and inside the vault only A2A and legit folders. */
async function assertContained(): Promise<string[]> {
	const all = await tree(sandbox);
	const ok = (p: string) =>
		p === "secret.txt" ||
		p === "vault/" ||
		p === "vault/A2A/" ||
		p.startsWith("vault/A2A/") ||
		legit.some((folder) => p === `vault/${folder}/` || p.startsWith(`vault/${folder}/`) || `vault/${folder}/`.startsWith(p));
	expect(all.filter((p) => !ok(p)), "written outside the A2A root and the group folders").toEqual([]);
	expect(await fs.readFile(path.join(sandbox, "secret.txt"), "utf8")).toBe(CANARY);
	for (const p of all.filter((f) => !f.endsWith("/") && f !== "secret.txt")) {
		expect(await fs.readFile(path.join(sandbox, p), "utf8"), `${p} holds the canary`).not.toContain("TOP SECRET");
	}
	return all;
}

async function write(rel: string, text: string): Promise<void> {
	const full = path.join(dir, ...rel.split("/"));
	await fs.mkdir(path.dirname(full), { recursive: true });
	await fs.writeFile(full, text);
}

const read = (rel: string) => fs.readFile(path.join(dir, ...rel.split("/")), "utf8");
const exists = (rel: string) => fs.stat(path.join(dir, ...rel.split("/"))).then(() => true, () => false);

const GOOD_REGISTRY = `groups:
  10-backend-group: {}
  20-frontend-group:
    folder: skills/20-frontend-group
  30-devops-group: {}
`;

const OUT = BOX("10-backend-group", "outbox");
const FRONT_IN = "skills/20-frontend-group/inbox";

/** Every fs call the CLI makes, with the paths it names (spied on node:fs/promises). */
function spyOnFs(): string[] {
	const touched: string[] = [];
	const names = ["readFile", "writeFile", "appendFile", "open", "stat", "lstat", "readdir", "access", "link", "rename", "mkdir", "rm", "unlink", "copyFile"];
	const spy = (api: Record<string, (...a: unknown[]) => unknown>, name: string, twoPaths: boolean) => {
		const original = api[name];
		if (typeof original !== "function") return;
		vi.spyOn(api, name as never).mockImplementation(((...args: unknown[]) => {
			for (const a of args.slice(0, twoPaths ? 2 : 1)) if (typeof a === "string") touched.push(path.resolve(a));
			return original.apply(api, args);
		}) as never);
	};
	for (const name of names) {
		const twoPaths = name === "rename" || name === "link" || name === "copyFile";
		spy(nodeFs.promises as unknown as Record<string, (...a: unknown[]) => unknown>, name, twoPaths);
		// The CLI's vault adapter calls the synchronous forms.
		spy(fsModule as unknown as Record<string, (...a: unknown[]) => unknown>, `${name}Sync`, twoPaths);
	}
	// The spies are on the module object; this makes `import * as fs` see them too.
	syncBuiltinESMExports();
	return touched;
}

/** Where the machine id is read from (node/device.ts): read only. */
const MACHINE_ID_FILES = ["/etc/machine-id", "/var/lib/dbus/machine-id"];

describe("path traversal through the registry", () => {
	it("group ids and folders that would leave the vault are registry errors: reported, ignored, nothing made", async () => {
		const evilAbs = path.join(os.tmpdir(), `a2a-evil-${process.pid}-${Date.now()}`);
		await write(
			"A2A/registry.yaml",
			`${GOOD_REGISTRY}  ../../etc: {}
  ..: {}
  evil-id:
    id: ../../etc
  abs:
    id: 50-abs
    folder: ${JSON.stringify(evilAbs)}
  up:
    id: 51-up
    folder: ../outside
  win:
    id: 52-win
    folder: "..\\\\win"
  dot:
    id: 53-dot
    folder: .obsidian/plugins
  sneaky:
    id: 54-sneaky
    folder: A2A/../../x
  drive:
    id: 55-drive
    folder: "C:\\\\x"
  nul:
    id: 56-nul
    folder: "a\\u0000b"
  overlap:
    id: 57-overlap
    folder: skills/20-frontend-group/sub
  root-itself:
    id: 58-root
    folder: A2A
`,
		);
		legit = ["skills/20-frontend-group"];
		const init = await a2a(dir, "init");
		expect(init.code).toBe(2);
		const errors = init.stderr.join("\n");
		for (const where of ["groups.../../etc", "groups.evil-id", "groups.abs", "groups.up", "groups.win", "groups.dot", "groups.sneaky", "groups.drive", "groups.nul", "groups.overlap"]) expect(errors).toContain(where);
		await write(`${OUT}/to-etc.md`, requestNote({ message_id: "t-etc", target_group: "../../etc" }));
		await write(`${OUT}/to-abs.md`, requestNote({ message_id: "t-abs", target_group: "50-abs", trace_id: "11111111-1111-4111-8111-111111111111" }));
		await write(`${OUT}/to-up.md`, requestNote({ message_id: "t-up", target_group: "51-up", trace_id: "22222222-2222-4222-8222-222222222222" }));
		await write(`${OUT}/fine.md`, requestNote({ message_id: "t-fine", target_group: "20-frontend-group", trace_id: "33333333-3333-4333-8333-333333333333" }));
		const route = await a2a(dir, "route", "--json");
		expect(route.code, "registry errors: exit 2, but the valid groups are routed").toBe(2);
		const byId = Object.fromEntries(route.json.map((d) => [d.message_id, d]));
		expect(byId["t-etc"]).toMatchObject({ outcome: "rejected", error_code: "INVALID_MESSAGE" });
		expect(byId["t-abs"]).toMatchObject({ outcome: "rejected", error_code: "GROUP_NOT_FOUND" });
		expect(byId["t-up"]).toMatchObject({ outcome: "rejected", error_code: "GROUP_NOT_FOUND" });
		expect(byId["t-fine"]).toMatchObject({ outcome: "delivered", path: `${FRONT_IN}/fine.md` });
		expect(await fs.stat(evilAbs).then(() => true, () => false), `${evilAbs} must not exist`).toBe(false);
		expect(await fs.stat(path.join(sandbox, "outside")).then(() => true, () => false)).toBe(false);
		const all = await assertContained();
		expect(all.filter((p) => p !== "vault/" && p.startsWith("vault/") && !p.startsWith("vault/A2A") && !p.startsWith("vault/skills"))).toEqual([]);
		expect(all).not.toContain("vault/.obsidian/");
	});

	it("an alias bomb or a deep nest in the registry makes it unusable (exit 2), fast, and writes nothing", async () => {
		const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
		for (let i = 1; i < 10; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(",")}]`);
		await write("A2A/registry.yaml", `${bomb.join("\n")}\ngroups:\n  10-backend-group: {}\n`);
		const started = Date.now();
		const route = await a2a(dir, "route", "--json");
		expect(route.code).toBe(2);
		expect(Date.now() - started).toBeLessThan(5000);
		await write("A2A/registry.yaml", `groups: ${"[".repeat(5000)}${"]".repeat(5000)}\n`);
		expect((await a2a(dir, "route")).code).toBe(2);
		expect(await tree(dir)).toEqual(["A2A/", "A2A/registry.yaml"]);
		await assertContained();
	});
});

describe("what messages say", () => {
	beforeEach(async () => {
		await write("A2A/registry.yaml", GOOD_REGISTRY);
		legit = ["skills/20-frontend-group"];
	});

	it("artifact paths are only ever kept as text: never read, written or followed", async () => {
		const artifacts = ["../../../etc/passwd", "../secret.txt", "../../secret.txt", "/etc/passwd", path.join(sandbox, "secret.txt"), "[[../secret]]", "[[../../secret.txt|alias]]", "C:\\Windows\\win.ini", "file:///etc/passwd", "~/.ssh/id_rsa"];
		const body = `## Question\n\nRead these?\n\n## Artifacts\n\n${artifacts.map((a) => `- ${a}`).join("\n")}\n`;
		await write(`${OUT}/ask.md`, requestNote({ message_id: "art-1", target_group: "20-frontend-group" }, body));
		// The same in the seed's wrapper: the payload list becomes the Artifacts section.
		await write(`${OUT}/wrapped.md`, `---\nmessage:\n  message_id: art-2\n  trace_id: 11111111-1111-4111-8111-111111111111\n  hop_count: 0\n  source_group: 10-backend-group\n  target_group: 20-frontend-group\n  request_type: artifact\n  payload:\n    task: fetch\n    artifacts: ${JSON.stringify(artifacts)}\n---\n`);
		const touched = spyOnFs();
		const route = await a2a(dir, "route", "--json");
		vi.restoreAllMocks();
		syncBuiltinESMExports();
		expect(route.code).toBe(0);
		expect(route.json.map((d) => d.outcome)).toEqual(["delivered", "delivered"]);
		// The places outside the vault the CLI uses are its own state for this device (its id, the
		// routing lock and what it saw of the lease), in the user's private state folder (here under the
		// tests' XDG_STATE_HOME), and its copy of the history index in its cache folder (here the tests'
		// A2A_CACHE_DIR), /proc (the routing lock asks whether its holder still runs) and the machine's
		// id (read, never written: a copied state folder is another machine's): never an artifact's path.
		const stateHome = process.env.XDG_STATE_HOME as string;
		const deviceState = (p: string) => p === stateHome || p.startsWith(stateHome + path.sep);
		const cache = process.env.A2A_CACHE_DIR as string;
		const inCache = (p: string) => p === cache || p.startsWith(cache + path.sep);
		const outside = touched.filter((p) => p !== dir && !p.startsWith(dir + path.sep) && !deviceState(p) && !inCache(p) && !p.startsWith("/proc/") && !MACHINE_ID_FILES.includes(p));
		expect(outside, "fs calls outside the vault").toEqual([]);
		expect(touched.length).toBeGreaterThan(10);
		expect(splitNote(await read(`${FRONT_IN}/ask.md`)).body).toBe(`\n${body}`);
		const wrapped = await read(`${FRONT_IN}/wrapped.md`);
		expect(wrapped).toContain(`## Artifacts\n\n${artifacts.map((a) => `- ${a}`).join("\n")}\n`);
		await assertContained();
	});

	it("a message claiming another group's source_group is rejected, never delivered; only its real sender hears of it", async () => {
		await write(`${OUT}/impostor.md`, requestNote({ message_id: "imp-1", source_group: "30-devops-group", target_group: "20-frontend-group" }));
		await write(`${OUT}/impostor-reply.md`, `---\nmessage_id: imp-2\ntrace_id: ${TRACE}\nsource_group: 20-frontend-group\ntarget_group: 30-devops-group\nstatus: success\n---\n\n## Answer\n\nforged\n`);
		const route = await a2a(dir, "route", "--json");
		expect(route.json).toHaveLength(2);
		for (const d of route.json) expect(d).toMatchObject({ outcome: "rejected", error_code: "INVALID_MESSAGE" });
		expect(route.json.map((d) => d.reason).join(" ")).toContain("outbox of 10-backend-group");
		expect(await tree(path.join(dir, FRONT_IN)).catch(() => [])).toEqual([]);
		expect(await exists(BOX("30-devops-group", "inbox"))).toBe(false);
		const senderInbox = (await fs.readdir(path.join(dir, BOX("10-backend-group", "inbox")))).sort();
		expect(senderInbox).toHaveLength(2);
		for (const f of senderInbox) expect(readFrontmatter(await read(`${BOX("10-backend-group", "inbox")}/${f}`))).toMatchObject({ status: "error", target_group: "10-backend-group" });
		await assertContained();
	});

	it("a group cannot answer, and so close, a request that was delivered to another group", async () => {
		await write(`${OUT}/ask.md`, requestNote({ message_id: "own-1", target_group: "20-frontend-group" }));
		expect((await a2a(dir, "route", "--json")).json).toMatchObject([{ outcome: "delivered" }]);
		// 30-devops-group never received own-1, yet answers it.
		await write(`${BOX("30-devops-group", "outbox")}/hijack.md`, `---\nmessage_id: hijack-1\ntrace_id: ${TRACE}\nin_reply_to: own-1\nsource_group: 30-devops-group\nstatus: success\n---\n\n## Answer\n\nI close your request\n`);
		const route = await a2a(dir, "route", "--json");
		expect(route.code).toBe(0);
		// The request stays in the inbox of the group it was sent to, not answered.
		expect(readFrontmatter(await read(`${FRONT_IN}/ask.md`))).toMatchObject({ message_id: "own-1", state: "delivered" });
		expect(await exists("skills/20-frontend-group/archive/ask.md")).toBe(false);
		expect(route.json).toMatchObject([{ message_id: "hijack-1", outcome: "rejected" }]);
		await assertContained();
	});

	it("HTML and script in every field are routed unchanged, as text", async () => {
		const xss = "<img src=x onerror=alert(1)><script>alert('x')</script>";
		const fields = { message_id: "<script>alert(1)</script>", title: xss, note: `javascript:alert(document.cookie)`, tags: [xss, "<b>bold</b>"] };
		const body = `## Question\n\n${xss}\n\n## Context\n\n<iframe src="javascript:alert(1)"></iframe> [x](javascript:alert(1))\n`;
		const text = `---\nmessage_id: ${JSON.stringify(fields.message_id)}\ntrace_id: ${TRACE}\nhop_count: 0\nsource_group: 10-backend-group\ntarget_group: 20-frontend-group\nrequest_type: query\ntitle: ${JSON.stringify(xss)}\nnote: ${JSON.stringify(fields.note)}\ntags: ${JSON.stringify(fields.tags)}\n---\n\n${body}`;
		await write(`${OUT}/${"<img src=x onerror=alert(1)>"}.md`, text);
		await write(`${OUT}/bad.md`, `---\nmessage_id: bad-xss\ntrace_id: ${TRACE}\nhop_count: 0\nsource_group: 10-backend-group\ntarget_group: 20-frontend-group\nrequest_type: ${JSON.stringify(xss)}\npriority: ${JSON.stringify(xss)}\n---\n\n${body}`);
		const route = await a2a(dir, "route", "--json");
		expect(route.code).toBe(0);
		const delivered = route.json.find((d) => d.outcome === "delivered") as Record<string, unknown>;
		expect(delivered).toMatchObject({ message_id: fields.message_id });
		const note = await read(String(delivered.path));
		expect(splitNote(note).body).toBe(`\n${body}`);
		expect(readFrontmatter(note)).toMatchObject(fields);
		const dead = readFrontmatter(await read("A2A/dead-letter/bad.md")) ?? {};
		expect(dead).toMatchObject({ error_code: "INVALID_MESSAGE", request_type: xss, priority: xss });
		expect(splitNote(await read("A2A/dead-letter/bad.md")).body).toBe(`\n${body}`);
		await assertContained();
	});

	it("oversize notes and alias bombs are rejected quickly, their text kept", async () => {
		const big = requestNote({ message_id: "big-1" }, `## Question\n\n${"é".repeat(60_000)}\n`);
		const bigFront = requestNote({ message_id: "big-2", trace_id: "11111111-1111-4111-8111-111111111111", padding: "x".repeat(9000) });
		const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
		for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]`);
		const bomb = `---\ntrace_id: ${TRACE}\nhop_count: 0\nsource_group: 10-backend-group\ntarget_group: 20-frontend-group\nrequest_type: query\n${lines.join("\n")}\n---\nboom\n`;
		const deep = `---\ntrace_id: ${TRACE}\nnested: ${"[".repeat(900)}1${"]".repeat(900)}\n---\n`;
		await write(`${OUT}/big.md`, big);
		await write(`${OUT}/big-front.md`, bigFront);
		await write(`${OUT}/bomb.md`, bomb);
		await write(`${OUT}/bomb.yaml`, `message:\n  trace_id: ${TRACE}\n  payload:\n    ${lines.join("\n    ")}\n`);
		await write(`${OUT}/deep.md`, deep);
		const started = Date.now();
		const route = await a2a(dir, "route", "--json");
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(route.code).toBe(0);
		expect(route.json).toHaveLength(5);
		for (const d of route.json) expect(d, JSON.stringify(d)).toMatchObject({ outcome: "rejected", error_code: "INVALID_MESSAGE" });
		expect(route.json.map((d) => String(d.from ?? d.path).split("/").pop()).sort()).toEqual(["big-front.md", "big.md", "bomb.md", "bomb.yaml", "deep.md"]);
		// Decided on its size alone (never parsed, never read whole): kept as it was beside its dead letter.
		expect(await read("A2A/dead-letter/big.md.oversize")).toBe(big);
		expect(readFrontmatter(await read("A2A/dead-letter/big.dead.md"))).toMatchObject({ message_id: "big-1", state: "dead", error_code: "INVALID_MESSAGE", original_file: "A2A/dead-letter/big.md.oversize" });
		expect(unquarantineText(await read("A2A/dead-letter/bomb.md"))).toBe(bomb);
		expect(unquarantineText(await read("A2A/dead-letter/deep.md"))).toBe(deep);
		await assertContained();
	});
});

describe("file names", () => {
	beforeEach(async () => {
		await write("A2A/registry.yaml", GOOD_REGISTRY);
		legit = ["skills/20-frontend-group"];
	});

	const NAMES = [
		"...md",
		"..md",
		"a..b.md",
		"..\\..\\..\\evil.md",
		"%2e%2e%2fevil.md",
		"\u202Eevil\u202C.md",
		"e\u0301migre\u0301 café.md",
		"nbsp\u00A0name.md",
		"line\nbreak.md",
		"tab\tname.md",
		"x".repeat(250) + ".md",
		"ж".repeat(125) + ".md",
		"🚀".repeat(62) + ".md",
	];

	it("odd, hostile and maximal names are routed without leaving their folders, even when the name is taken", async () => {
		for (const [i, name] of NAMES.entries()) {
			const text = requestNote({ message_id: `name-${i}`, target_group: "20-frontend-group", trace_id: `${String(i).padStart(8, "0")}-1111-4111-8111-111111111111` }, `## Question\n\nName ${i}\n`);
			await write(`${OUT}/${name}`, text);
			// The same name already taken in the inbox and the dead-letter folder: the router must find another.
			await write(`${FRONT_IN}/${name}`, requestNote({ message_id: `taken-${i}`, state: "delivered", delivered_at: "2026-01-01T00:00:00.000Z", expires_at: "2099-01-01T00:00:00.000Z", attempt: 1, target_group: "20-frontend-group" }));
		}
		const route = await a2a(dir, "route", "--json");
		expect(route.code, route.stderr.join("\n")).toBe(0);
		// Names starting with a dot are dot-files (rule 1): listed as ignored and left as they are.
		const dotted = NAMES.filter((n) => n.startsWith("."));
		expect(dotted.length).toBeGreaterThan(0);
		const ignored = route.json.filter((d) => d.outcome === "ignored" && String(d.path).startsWith(`${OUT}/`));
		expect(ignored.map((d) => String(d.path).slice(OUT.length + 1)).sort()).toEqual([...dotted].sort());
		for (const name of dotted) expect(await read(`${OUT}/${name}`)).toContain(`message_id: "name-${NAMES.indexOf(name)}"`);
		const moved = route.json.filter((d) => String(d.message_id).startsWith("name-"));
		expect(moved.map((d) => d.message_id).sort()).toEqual(NAMES.map((n, i) => (n.startsWith(".") ? "" : `name-${i}`)).filter(Boolean).sort());
		for (const d of moved) {
			expect(d.outcome).toBe("delivered");
			expect(String(d.path).startsWith(`${FRONT_IN}/`), String(d.path)).toBe(true);
			const text = await read(String(d.path));
			expect(splitNote(text).body).toBe(`\n## Question\n\nName ${String(d.message_id).slice(5)}\n`);
		}
		expect((await fs.readdir(path.join(dir, OUT))).filter((n) => !n.startsWith("."))).toEqual([]);
		await assertContained();
	});
});

describe("command-line values", () => {
	it("--root outside the vault is a usage error (exit 1) and creates nothing anywhere", async () => {
		await write("A2A/registry.yaml", GOOD_REGISTRY);
		legit = ["skills/20-frontend-group"];
		for (const root of ["../x", "../../x", "/tmp", path.join(sandbox, "elsewhere"), ".obsidian", "A2A/../../x", "a\\..\\..\\x", "C:\\x", "", ".", "..", "./.."]) {
			for (const command of [["init"], ["route"], ["status"], ["send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "q"]]) {
				const run = await a2a(dir, ...command, "--root", root);
				expect(run.code, `${command[0]} --root ${JSON.stringify(root)}: ${run.stderr.join(" ")}`).toBe(1);
			}
		}
		expect(await fs.stat("/tmp/registry.yaml").then(() => true, () => false)).toBe(false);
		expect(await tree(dir)).toEqual(["A2A/", "A2A/registry.yaml"]);
		await assertContained();
	});

	it("--vault that does not exist, or is a file, is exit 2 and is not created (only a2a init creates it)", async () => {
		const missing = path.join(sandbox, "nope");
		for (const command of [["route"], ["route", "--watch"], ["status"], ["send", "--from", "a", "--to", "b", "--type", "query", "--question", "q"]]) {
			expect((await a2a(missing, ...command, "--vault", missing)).code).toBe(2);
			expect((await a2a(missing, ...command, "--vault", path.join(sandbox, "secret.txt"))).code).toBe(2);
		}
		expect(await fs.stat(missing).then(() => true, () => false)).toBe(false);
		expect((await a2a(missing, "init", "--vault", path.join(sandbox, "secret.txt"))).code).toBe(2);
		await assertContained();
	});

	it("group and agent names given on the command line cannot reach outside the vault", async () => {
		await write("A2A/registry.yaml", GOOD_REGISTRY);
		legit = ["skills/20-frontend-group"];
		expect((await a2a(dir, "init")).code).toBe(0);
		const attempts = [
			["send", "--from", "../../etc", "--to", "20-frontend-group", "--type", "query", "--question", "q"],
			["send", "--from", "10-backend-group", "--to", "../../../tmp", "--type", "query", "--question", "q"],
			["send", "--from", "10-backend-group", "--to", "20-frontend-group", "--type", "query", "--question", "q", "--artifact", "../secret.txt"],
			["reply", "--message", "../../secret", "--status", "success", "--answer", "a"],
			["agent", "set", "../../evil", "status=running"],
			["agent", "set", "..", "status=running"],
			["agent", "set", "/etc/evil", "status=running"],
			["agent", "finding", "../../evil", "--action", "x"],
		];
		for (const argv of attempts) {
			const run = await a2a(dir, ...argv);
			if (argv[2] === "--from" || argv.includes("../../../tmp") || argv[0] === "agent" || argv[0] === "reply") expect(run.code, argv.join(" ")).not.toBe(0);
		}
		// The one legitimate send (its artifact is only text) wrote a request into the outbox, nothing else.
		const outbox = await fs.readdir(path.join(dir, OUT));
		expect(outbox).toHaveLength(1);
		expect(await read(`${OUT}/${outbox[0]}`)).toContain("- ../secret.txt");
		await assertContained();
	});
});

describe("the router through any port", () => {
	it("every path the router hands the port stays inside the A2A root and the group folders", async () => {
		await write("A2A/registry.yaml", GOOD_REGISTRY);
		legit = ["skills/20-frontend-group"];
		await write(`${OUT}/a.md`, requestNote({ message_id: "p-1", target_group: "20-frontend-group" }, "## Artifacts\n\n- ../../../etc/passwd\n"));
		await write(`${OUT}/b.md`, requestNote({ message_id: "p-2", target_group: "../../etc", trace_id: "11111111-1111-4111-8111-111111111111" }));
		await write(`${OUT}/c.md`, "---\nmessage_id: [broken\n---\n");
		const calls: string[] = [];
		const inner = new NodeVault(dir);
		const port = new Proxy(inner, {
			get(target, prop, receiver) {
				const value = Reflect.get(target, prop, receiver) as unknown;
				if (typeof value !== "function") return value;
				return (...args: unknown[]) => {
					for (const a of args.slice(0, prop === "move" ? 2 : 1)) if (typeof a === "string") calls.push(`${String(prop)} ${a}`);
					return (value as (...x: unknown[]) => unknown).apply(target, args);
				};
			},
		}) as VaultPort;
		const router = new Router(port);
		await router.loadRegistry();
		await router.indexSync.rescan();
		const report = await router.pass();
		expect(report.decisions.map((d) => d.outcome).sort()).toEqual(["delivered", "rejected", "rejected"]);
		const outside = calls.filter((c) => {
			const p = c.slice(c.indexOf(" ") + 1);
			return !(p === "A2A" || p.startsWith("A2A/") || p === "skills/20-frontend-group" || p.startsWith("skills/20-frontend-group/"));
		});
		expect(outside).toEqual([]);
		await assertContained();
	});
});
