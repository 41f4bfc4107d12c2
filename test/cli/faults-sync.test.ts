import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { unquarantineText } from "../../src/core/stamps";
import { Router } from "../../src/router/router";
import { bootPlugin } from "../integration/plugin-harness";
import type { Booted } from "../integration/plugin-harness";
import { MemoryVault } from "../helpers/memory-vault";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Sync artifacts: what file-sync tools (Syncthing, Dropbox, Nextcloud, Obsidian Sync, git, iCloud)
// do to a vault. Conflict copies stay where they are and are reported ignored; a note that arrives
// in pieces waits for the rest within the grace period and is then delivered intact; a note a sync
// tool moves in (delete + create) is delivered once; a note edited on two devices (one message_id,
// two texts) is delivered once and the other copy kept as a DUPLICATE dead letter.

const OUT = BOX("10-backend-group", "outbox");
const IN = BOX("20-frontend-group", "inbox");
const T0 = Date.parse("2026-03-01T12:00:00.000Z");

let v: TempVault;
let b: Booted | undefined;
beforeEach(async () => {
	v = await makeTempVault("a2a-sync-");
	await v.write("A2A/registry.yaml", REGISTRY);
});
afterEach(async () => {
	await v.cleanup();
	await b?.host.cleanup();
	b = undefined;
});

/** Every file under A2A except the log, with its text. */
async function snapshot(): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	for (const f of await v.files("A2A")) if (!f.startsWith("A2A/log/")) out.set(f, await v.read(f));
	return out;
}

describe("sync-conflict copies", () => {
	// Every naming a sync tool uses for the loser of a conflict, in the cases they come in.
	const CONFLICT_NAMES = [
		"ask.sync-conflict-20260101-123456-ABCDEF.md", // Syncthing
		"ask.SYNC-CONFLICT-20260101-123456-ABCDEF.md",
		"ask (Conflicted copy 2026-01-01).md", // Obsidian Sync
		"ask (conflicted copy 2026-01-01 123456).md", // Nextcloud / ownCloud
		"ask (CONFLICTED COPY 2026-01-01).md",
		"ask (Jane Doe's conflicted copy 2026-01-01).md", // Dropbox
		"ask (Jane Doe's Conflicted Copy 2026-01-01 (1)).md",
		"ask (conflict 1).md",
		"ask (Conflict 2).md",
		"ask (CONFLICT).md",
	];

	it("stay in place, untouched, and are reported ignored once (a2a route --json)", async () => {
		const note = requestNote({ message_id: "sync-1" });
		for (const name of CONFLICT_NAMES) await v.write(`${OUT}/${name}`, note);
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "sync-1" }, "## Question\n\nThe winner of the conflict\n"));
		const first = await a2a(v.dir, "route", "--json");
		expect(first.code).toBe(0);
		const ignored = first.json.filter((d) => d.outcome === "ignored");
		expect(ignored.map((d) => String(d.path).split("/").pop()).sort()).toEqual([...CONFLICT_NAMES].sort());
		for (const d of ignored) expect(d.reason).toBe("a sync-conflict copy");
		expect(first.json.filter((d) => d.outcome !== "ignored")).toMatchObject([{ outcome: "delivered", message_id: "sync-1", path: `${IN}/ask.md` }]);
		for (const name of CONFLICT_NAMES) expect(await v.read(`${OUT}/${name}`), name).toBe(note);
		expect(await v.files(OUT)).toEqual(CONFLICT_NAMES.map((n) => `${OUT}/${n}`).sort());
		expect(await v.files("A2A/dead-letter")).toEqual([]);
		// A watching router keeps listing them as ignored, but reports each once per run.
		const r = new Router(new NodeVault(v.dir));
		await r.loadRegistry();
		await r.indexSync.rescan();
		const once = (await r.pass()).decisions.filter((d) => d.outcome === "ignored");
		expect(once).toHaveLength(CONFLICT_NAMES.length);
		expect((await r.pass()).decisions).toEqual([]);
	});

	it("conflict copies in the plugin stay in place and are listed as ignored", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const note = requestNote({ message_id: "sync-2" });
		for (const name of CONFLICT_NAMES) await b.host.externalWrite(`${OUT}/${name}`, note);
		await b.quiet();
		for (const name of CONFLICT_NAMES) expect(await b.host.read(`${OUT}/${name}`), name).toBe(note);
		expect(b.files(IN)).toEqual([]);
		expect(b.files("A2A/dead-letter")).toEqual([]);
		const ignored = b.plugin.parts.relay.recent.filter((d) => d.outcome === "ignored").map((d) => d.path.split("/").pop());
		expect(ignored.sort()).toEqual([...CONFLICT_NAMES].sort());
	});
});

describe("a note that arrives in pieces", () => {
	const whole = requestNote({ message_id: "piece-1", priority: "high" }, "## Question\n\nAll of it, é 🚀\n\n## Context\n\nSecond section\n");
	const cut = whole.indexOf("target_group");
	const firstHalf = whole.slice(0, cut);
	const rest = whole.slice(cut);

	/** A memory vault with the first half of the note in an outbox, and a router on a clock the test sets. */
	async function firstHalfInMemory() {
		const clock = { now: T0 };
		const vault = new MemoryVault(() => clock.now);
		vault.writeRaw("A2A/registry.yaml", REGISTRY);
		const r = new Router(vault, { clock: () => clock.now, graceMs: 5000 });
		await r.loadRegistry();
		await r.indexSync.rescan();
		vault.writeRaw(`${OUT}/piece.md`, firstHalf);
		return { clock, vault, r };
	}

	it("waits within the grace period (controllable clock), then is delivered intact", async () => {
		const { clock, vault, r } = await firstHalfInMemory();
		for (const t of [0, 1000, 4999]) {
			clock.now = T0 + t;
			const report = await r.pass();
			expect(report.waiting, `at +${t} ms`).toEqual([`${OUT}/piece.md`]);
			expect(report.decisions).toEqual([]);
			expect(vault.readRaw(`${OUT}/piece.md`)).toBe(firstHalf);
		}
		// The writer finishes: the file's time is its last write.
		vault.writeRaw(`${OUT}/piece.md`, whole);
		clock.now = T0 + 6000;
		const report = await r.pass();
		expect(report.waiting).toEqual([]);
		expect(report.decisions).toMatchObject([{ outcome: "delivered", message_id: "piece-1", path: `${IN}/piece.md` }]);
		const text = vault.readRaw(`${IN}/piece.md`) as string;
		expect(splitNote(text).body).toBe(splitNote(whole).body);
		expect(readFrontmatter(text)).toMatchObject({ state: "delivered", priority: "high", target_group: "20-frontend-group" });
		expect(vault.paths().filter((p) => p.includes("dead-letter"))).toEqual([]);
	});

	it("is rejected after the grace period if the rest never comes, its partial text kept byte for byte", async () => {
		const { clock, vault, r } = await firstHalfInMemory();
		clock.now = T0 + 5001;
		const report = await r.pass();
		expect(report.decisions).toMatchObject([{ outcome: "rejected", error_code: "INVALID_MESSAGE", path: "A2A/dead-letter/piece.md" }]);
		expect(unquarantineText(vault.readRaw("A2A/dead-letter/piece.md") as string)).toBe(firstHalf);
		expect(vault.paths().filter((p) => p.startsWith(BOX("10-backend-group", "inbox")))).toHaveLength(1);
	});

	it("through NodeVault: the file's own time starts the grace period", async () => {
		await v.write(`${OUT}/piece.md`, firstHalf);
		const mtime = (await new NodeVault(v.dir).stat(`${OUT}/piece.md`))?.mtime as number;
		let now = mtime + 100;
		const r = new Router(new NodeVault(v.dir), { clock: () => now, graceMs: 5000 });
		await r.loadRegistry();
		await r.indexSync.rescan();
		expect((await r.pass()).waiting).toEqual([`${OUT}/piece.md`]);
		expect(await v.read(`${OUT}/piece.md`)).toBe(firstHalf);
		await v.write(`${OUT}/piece.md`, whole);
		now = ((await new NodeVault(v.dir).stat(`${OUT}/piece.md`))?.mtime as number) + 100;
		await r.indexSync.rescan();
		expect((await r.pass()).decisions).toMatchObject([{ outcome: "delivered", message_id: "piece-1" }]);
		expect(await v.body(`${IN}/piece.md`)).toBe(splitNote(whole).body);
	});

	it("in the plugin, with its grace setting: waits, then delivers the completed note", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.plugin.parts.settings.update({ graceSeconds: 3 });
		await b.quiet();
		await b.host.externalWrite(`${OUT}/piece.md`, firstHalf);
		await b.quiet();
		// More than one of the relay's one-second ticks, less than the grace period.
		await new Promise((r) => setTimeout(r, 1300));
		await b.quiet();
		expect(await b.host.read(`${OUT}/piece.md`)).toBe(firstHalf);
		expect(b.files("A2A/dead-letter")).toEqual([]);
		await b.host.externalAppend(`${OUT}/piece.md`, rest);
		await b.quiet();
		expect(await b.host.exists(`${OUT}/piece.md`)).toBe(false);
		expect(await b.body(`${IN}/piece.md`)).toBe(splitNote(whole).body);
		expect(await b.frontmatter(`${IN}/piece.md`)).toMatchObject({ message_id: "piece-1", state: "delivered" });
		expect(b.files("A2A/dead-letter")).toEqual([]);
	});
});

describe("a note moved in by a sync tool", () => {
	it("arrives as delete + create (the tool's hidden temp file renamed into place) and is delivered once", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const note = requestNote({ message_id: "moved-1" }, "## Question\n\nSynced in\n");
		// Syncthing writes `.syncthing.<name>.tmp` next to the target, then renames it.
		await b.host.externalWrite(`${OUT}/.syncthing.ask.md.tmp`, note);
		await b.quiet();
		expect(b.files(IN)).toEqual([]);
		await b.host.externalRename(`${OUT}/.syncthing.ask.md.tmp`, `${OUT}/ask.md`);
		await b.quiet();
		// And a note moved from elsewhere in the vault.
		await b.host.externalWrite("Sync/Inbox/other.md", requestNote({ message_id: "moved-2", trace_id: "22222222-2222-4222-8222-222222222222" }, "## Question\n\nFrom another folder\n"));
		await b.quiet();
		await b.host.externalRename("Sync/Inbox/other.md", `${OUT}/other.md`);
		await b.quiet();
		expect(b.files(IN)).toEqual([`${IN}/ask.md`, `${IN}/other.md`]);
		expect(await b.body(`${IN}/ask.md`)).toBe("\n## Question\n\nSynced in\n");
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "moved-1", state: "delivered" });
		expect(await b.frontmatter(`${IN}/other.md`)).toMatchObject({ message_id: "moved-2", state: "delivered" });
		expect(b.files(OUT)).toEqual([]);
		expect(b.files("A2A/dead-letter")).toEqual([]);
		const delivered = b.plugin.parts.relay.recent.filter((d) => d.outcome === "delivered").map((d) => d.message_id);
		expect(delivered.sort()).toEqual(["moved-1", "moved-2"]);
	});
});

describe("a note edited on two devices", () => {
	const ASK = (text: string) => requestNote({ message_id: "twice-1" }, `## Question\n\n${text}\n`);

	it("both copies in one pass: one delivered, the other a DUPLICATE dead letter, both texts kept", async () => {
		await v.write(`${OUT}/ask.md`, ASK("Written on the laptop"));
		await v.write(`${OUT}/ask 2.md`, ASK("Written on the phone, differently"));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.json.map((d) => d.outcome).sort()).toEqual(["delivered", "duplicate"]);
		const files = await snapshot();
		const inbox = [...files.keys()].filter((f) => f.startsWith(`${IN}/`));
		const dead = [...files.keys()].filter((f) => f.startsWith("A2A/dead-letter/"));
		expect(inbox).toHaveLength(1);
		expect(dead).toHaveLength(1);
		expect(readFrontmatter(files.get(dead[0]) as string)).toMatchObject({ message_id: "twice-1", error_code: "DUPLICATE", state: "dead" });
		const bodies = [files.get(inbox[0]) as string, files.get(dead[0]) as string].map((t) => splitNote(t).body).sort();
		expect(bodies).toEqual(["\n## Question\n\nWritten on the laptop\n", "\n## Question\n\nWritten on the phone, differently\n"].sort());
		// No error response for a duplicate; nothing else anywhere.
		expect(await v.files(BOX("10-backend-group", "inbox"))).toEqual([]);
		expect([...files.keys()].filter((f) => f !== "A2A/registry.yaml" && f !== "A2A/router.md")).toEqual([...inbox, ...dead].sort());
	});

	it("the second copy synced later, after the first was answered and archived: still a DUPLICATE", async () => {
		await v.write(`${OUT}/ask.md`, ASK("First"));
		expect((await a2a(v.dir, "route", "--json")).json).toMatchObject([{ outcome: "delivered" }]);
		await v.write(`${BOX("20-frontend-group", "outbox")}/reply.md`, "---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: twice-1\nsource_group: 20-frontend-group\nstatus: success\n---\n\n## Answer\n\nDone\n");
		expect((await a2a(v.dir, "route", "--json")).json).toMatchObject([{ outcome: "answered" }]);
		expect(await v.files(ARCHIVED("20-frontend-group"))).toEqual([`${ARCHIVED("20-frontend-group")}/ask.md`]);
		await v.write(`${OUT}/ask (from the phone).md`, ASK("Second, late"));
		const late = await a2a(v.dir, "route", "--json");
		expect(late.json).toMatchObject([{ outcome: "duplicate", error_code: "DUPLICATE", message_id: "twice-1" }]);
		expect(await v.body("A2A/dead-letter/ask (from the phone).md")).toBe("\n## Question\n\nSecond, late\n");
		expect(await v.files(IN)).toEqual([]);
		expect(await v.body(`${ARCHIVED("20-frontend-group")}/ask.md`)).toBe("\n## Question\n\nFirst\n");
	});

	it("the same message_id from two groups' outboxes (one device each): delivered once", async () => {
		await v.write(`${OUT}/ask.md`, ASK("From backend"));
		await v.write(`${BOX("30-devops-group", "outbox")}/ask.md`, requestNote({ message_id: "twice-1", source_group: "30-devops-group", trace_id: "33333333-3333-4333-8333-333333333333" }, "## Question\n\nFrom devops\n"));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.json.map((d) => d.outcome).sort()).toEqual(["delivered", "duplicate"]);
		const files = await snapshot();
		const delivered = [...files.keys()].filter((f) => f.startsWith(`${IN}/`));
		expect(delivered).toHaveLength(1);
		expect([...files.keys()].filter((f) => f.startsWith("A2A/dead-letter/"))).toHaveLength(1);
	});
});

describe("another device's answered request, its steps arriving through the sync in any order", () => {
	// Device a delivered an answer and archived the request; device b's router runs on a copy of the
	// vault (as after a partition) and the sync brings a's work: the answer before the request's move.
	const REQ_OUT = `${OUT}/ask.md`;
	const ANSWER = "---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: moved-1\nsource_group: 20-frontend-group\nstatus: success\n---\n\n## Answer\n\nDone on a\n";
	const MARGIN_MS = 8000;

	async function twoDevices() {
		const clock = { now: T0 };
		const a = new MemoryVault(() => clock.now);
		const b = new MemoryVault(() => clock.now);
		for (const vault of [a, b]) vault.writeRaw("A2A/registry.yaml", REGISTRY);
		const ra = new Router(a, { clock: () => clock.now, marginMs: MARGIN_MS });
		const rb = new Router(b, { clock: () => clock.now, marginMs: MARGIN_MS });
		for (const r of [ra, rb]) await r.loadRegistry();
		// The request, delivered on b and synced to a before the devices part.
		b.writeRaw(REQ_OUT, requestNote({ message_id: "moved-1" }));
		expect((await rb.pass()).decisions).toMatchObject([{ outcome: "delivered" }]);
		for (const p of b.paths()) if (p.startsWith(IN)) a.writeRaw(p, b.readRaw(p) as string);
		// Apart: a's agent answers, a's router delivers the answer and archives the request.
		clock.now += 1000;
		a.writeRaw(`${BOX("20-frontend-group", "outbox")}/reply.md`, ANSWER);
		expect((await ra.pass()).decisions).toMatchObject([{ outcome: "answered" }]);
		const archivedOnA = a.paths().filter((p) => p.startsWith(ARCHIVED("20-frontend-group", new Date(clock.now))));
		expect(archivedOnA).toHaveLength(1);
		const answerPath = a.paths().find((p) => p.startsWith(BOX("10-backend-group", "inbox"))) as string;
		const inboxCopy = b.paths().find((p) => p.startsWith(IN)) as string;
		// Back in step: the answer reaches b first.
		clock.now += 1000;
		b.writeRaw(answerPath, a.readRaw(answerPath) as string);
		// As b's watcher does for each file the sync changes.
		await rb.indexSync.refresh(answerPath);
		return { clock, a, b, rb, archivedOnA: archivedOnA[0], inboxCopy, inboxText: b.readRaw(inboxCopy) as string };
	}

	it("b leaves its stale inbox copy untouched until the request's move arrives: one archived copy, a's", async () => {
		const { clock, a, b, rb, archivedOnA, inboxCopy, inboxText } = await twoDevices();
		await rb.pass();
		// Unchanged and in place: the sync deletes a note only while it is the one the other side deleted.
		expect(b.readRaw(inboxCopy), "b's inbox copy, untouched").toBe(inboxText);
		expect(b.paths().filter((p) => p.includes("/archive/")), "nothing archived by b").toEqual([]);
		// The rest of a's work arrives (within the sync margin): the inbox copy goes, the archived one comes.
		clock.now += 2000;
		b.deleteRaw(inboxCopy);
		b.writeRaw(archivedOnA, a.readRaw(archivedOnA) as string);
		for (const p of [inboxCopy, archivedOnA]) await rb.indexSync.refresh(p);
		clock.now += MARGIN_MS;
		await rb.pass();
		const copies = b.paths().filter((p) => (readFrontmatter(b.readRaw(p) as string) ?? {}).message_id === "moved-1");
		expect(copies).toEqual([archivedOnA]);
	});

	it("a request whose answer this router delivered itself, left in the inbox, is archived at once (no margin: no agent is shown it to answer again)", async () => {
		const clock = { now: T0 };
		const a = new MemoryVault(() => clock.now);
		a.writeRaw("A2A/registry.yaml", REGISTRY);
		const ra = new Router(a, { clock: () => clock.now, marginMs: MARGIN_MS });
		await ra.loadRegistry();
		a.writeRaw(REQ_OUT, requestNote({ message_id: "own-1" }));
		expect((await ra.pass()).decisions).toMatchObject([{ outcome: "delivered" }]);
		const delivered = a.paths().find((p) => p.startsWith(IN)) as string;
		const deliveredText = a.readRaw(delivered) as string;
		clock.now += 1000;
		a.writeRaw(`${BOX("20-frontend-group", "outbox")}/reply.md`, ANSWER.replace("in_reply_to: moved-1", "in_reply_to: own-1"));
		expect((await ra.pass()).decisions).toMatchObject([{ outcome: "answered" }]);
		// The request's own move left undone (the copy is back where it was delivered).
		for (const p of a.paths().filter((x) => x.includes("/archive/"))) a.deleteRaw(p);
		a.writeRaw(delivered, deliveredText);
		await ra.indexSync.refresh(delivered);
		clock.now += 1000;
		await ra.pass();
		expect(a.readRaw(delivered), "archived at once, not a margin later").toBeUndefined();
		expect(a.paths().filter((p) => p.startsWith(ARCHIVED("20-frontend-group", new Date(clock.now))))).toHaveLength(1);
	});

	it("a copy still in b's inbox a sync margin after its answer came (a was interrupted) is archived by b", async () => {
		const { clock, b, rb, inboxCopy } = await twoDevices();
		await rb.pass();
		expect(b.readRaw(inboxCopy)).toBeDefined();
		expect(rb.nextWakeTime(), "b wakes when the margin is over").toBe(clock.now + MARGIN_MS);
		clock.now += MARGIN_MS;
		await rb.pass();
		expect(b.readRaw(inboxCopy)).toBeUndefined();
		const archived = b.paths().filter((p) => p.startsWith(ARCHIVED("20-frontend-group", new Date(clock.now))));
		expect(archived).toHaveLength(1);
		expect(readFrontmatter(b.readRaw(archived[0]) as string)).toMatchObject({ message_id: "moved-1", state: "answered" });
	});
});
