import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { readFrontmatter } from "../../src/core/frontmatter";
import { parseLease } from "../../src/core/lease";
import { parseLogLines } from "../../src/core/routing-log";
import { TempHost } from "../../test-support/fake-obsidian/node-host";
import { useCliBundle } from "../helpers/cli-process";
import type { Watcher } from "../helpers/cli-process";
import { GROUPS, atomicWrite, sleep, walk } from "../helpers/routed-vault";
import { isSyncConflict, isSyncTemp, pollUntil, startSyncPair } from "../helpers/syncthing";
import type { SyncPair } from "../helpers/syncthing";
import { BOX } from "../helpers/temp-vault";

// Issue 14, proven with a real sync engine: two vaults kept in step by two Syncthing instances on
// loopback, a router on each side, agents writing on both sides. Exactly once: every message ends in
// one place, the same on both sides, delivered by one router, with one log row; no conflict copy is
// ever routed. Then a partition (the sync paused for 30 s while both sides work) between two routers
// on machines with one host name that set no A2A_DEVICE (issue 27: each is a device of its own), and
// a router whose clock runs 10 minutes ahead.

const cli = useCliBundle();
const MARGIN_S = 8;
const REGISTRY = `communication:\n  max_hops: 5\n  timeout_seconds: 3600\n  retry_attempts: 0\ngroups:\n${GROUPS.map((g) => `  ${g}: {}\n`).join("")}`;

let pair: SyncPair | undefined;
let host: TempHost | undefined;
let parent = "";
afterEach(async () => {
	await host?.dispose();
	host = undefined;
	await pair?.stop();
	pair = undefined;
	if (parent) await fs.rm(parent, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
	parent = "";
});

interface Side {
	name: "a" | "b";
	dir: string;
}

async function twoVaults(): Promise<{ a: Side; b: Side }> {
	parent = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-sync-"));
	const a = { name: "a" as const, dir: path.join(parent, "a") };
	const b = { name: "b" as const, dir: path.join(parent, "b") };
	for (const side of [a, b]) await fs.mkdir(side.dir, { recursive: true });
	await fs.mkdir(path.join(a.dir, "A2A"), { recursive: true });
	await fs.writeFile(path.join(a.dir, "A2A/registry.yaml"), REGISTRY);
	for (const g of GROUPS) for (const box of ["inbox", "outbox", "archive"]) await fs.mkdir(path.join(a.dir, BOX(g, box as "inbox")), { recursive: true });
	pair = await startSyncPair({ folderA: a.dir, folderB: b.dir, fsWatcherDelayS: 1 });
	await pair.waitIdle(60_000);
	return { a, b };
}

/** Debian's libfaketime (package `faketime`): shifts the clock of the process it is preloaded into. */
async function libfaketime(): Promise<string> {
	for (const dir of ["/usr/lib/x86_64-linux-gnu/faketime", "/usr/lib/aarch64-linux-gnu/faketime", "/usr/lib/faketime"]) {
		const lib = path.join(dir, "libfaketime.so.1");
		if (await fs.stat(lib).then(() => true, () => false)) return lib;
	}
	throw new Error("libfaketime.so.1 not found: install Debian's faketime package");
}

/** The device named in a side's lease note. */
const lease = (side: Side) => fs.readFile(path.join(side.dir, "A2A/router.md"), "utf8").then((t) => parseLease(t)?.device, () => undefined);

const TRACE = (i: number) => `${(0x50000000 + i).toString(16)}-aaaa-4bbb-8ccc-${i.toString(16).padStart(12, "0")}`;

interface Sent {
	id: string;
	side: Side;
	from: string;
	to: string;
	answers?: string;
	timeoutSeconds?: number;
}

/** The agents: requests written at random on either side; short-timeout ones are never answered. */
function request(i: number, side: Side, timeoutSeconds = 3600): { sent: Sent; rel: string; text: string } {
	const from = GROUPS[i % GROUPS.length];
	const to = GROUPS[(i + 1 + (i % 3)) % GROUPS.length];
	const id = `st-${i}`;
	const text = `---\nmessage_id: ${id}\ntrace_id: ${TRACE(i)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\ntimeout_seconds: ${timeoutSeconds}\n---\n\n## Question\n\nQ${i} from side ${side.name}\n`;
	return { sent: { id, side, from, to, timeoutSeconds }, rel: `${BOX(from, "outbox")}/q ${i}.md`, text };
}

/** Answers, on the side where it was delivered, every request of `wanted` that sits in its target's inbox. */
async function answerDelivered(sides: Side[], wanted: Sent[], answered: Set<string>, sent: Sent[]): Promise<void> {
	for (const req of wanted) {
		if (answered.has(req.id)) continue;
		for (const side of sides) {
			const inbox = path.join(side.dir, BOX(req.to, "inbox"));
			const names = await fs.readdir(inbox).catch(() => [] as string[]);
			const name = names.find((n) => n.startsWith(`q ${req.id.slice(3)}.`) || n === `q ${req.id.slice(3)}.md`);
			if (!name) continue;
			const rid = `${req.id}-answer`;
			await atomicWrite(side.dir, `${BOX(req.to, "outbox")}/a ${req.id}.md`, `---\nmessage_id: ${rid}\ntrace_id: ${TRACE(Number(req.id.slice(3)))}\nin_reply_to: ${req.id}\nsource_group: ${req.to}\nstatus: success\n---\n\n## Answer\n\nA ${req.id} on ${side.name}\n`);
			sent.push({ id: rid, side, from: req.to, to: req.from, answers: req.id });
			answered.add(req.id);
			break;
		}
	}
}

/** The plugin in the fake Obsidian over side b's folder, its watcher brought up to date by rescans. */
async function pluginOn(side: Side): Promise<{ host: TempHost; stop: () => void }> {
	const settings = JSON.stringify({ syncMarginSeconds: MARGIN_S, graceSeconds: 1, showNotices: true, deviceName: "Obsidian on side b" });
	await fs.mkdir(path.join(side.dir, ".obsidian/plugins/a2a-relay"), { recursive: true });
	await fs.writeFile(path.join(side.dir, ".obsidian/plugins/a2a-relay/data.json"), settings);
	const h = new TempHost(side.dir, { logErrors: false });
	await h.loadPlugin(A2ARelayPlugin, manifest);
	await h.loadVault();
	await h.setLayoutReady();
	let running = true;
	void (async () => {
		while (running) {
			await h.rescan().catch(() => undefined);
			await sleep(150);
		}
	})();
	return { host: h, stop: () => (running = false) };
}

/** Every visible note of a side, by message_id: where it is and its text (the lease and the log aside). */
async function notesById(side: Side): Promise<Map<string, { rel: string; text: string }[]>> {
	const byId = new Map<string, { rel: string; text: string }[]>();
	for (const rel of await walk(side.dir)) {
		if (!rel.startsWith("A2A/") || !rel.endsWith(".md") || rel.startsWith("A2A/log/") || rel === "A2A/router.md" || rel.split("/").some((s) => s.startsWith("."))) continue;
		const text = await fs.readFile(path.join(side.dir, rel), "utf8");
		const id = String((readFrontmatter(text) ?? {}).message_id);
		byId.set(id, [...(byId.get(id) ?? []), { rel, text }]);
	}
	return byId;
}

/** The assertions of exactly once, on both sides. */
async function expectExactlyOnce(a: Side, b: Side, sent: Sent[]): Promise<void> {
	const onA = await notesById(a);
	const onB = await notesById(b);
	for (const s of sent) {
		const hereA = onA.get(s.id) ?? [];
		const hereB = onB.get(s.id) ?? [];
		expect(hereA.map((n) => n.rel), `${s.id} on side a`).toHaveLength(1);
		expect(hereB.map((n) => n.rel), `${s.id} on side b`).toEqual(hereA.map((n) => n.rel));
		// Delivered once, by one router: the very same stamped note on both sides.
		expect(hereB[0].text, `${s.id}: one router's stamp`).toBe(hereA[0].text);
		expect(hereA[0].rel.includes("/outbox/"), `${s.id} left in an outbox: ${hereA[0].rel}`).toBe(false);
	}
	for (const side of [a, b]) {
		const files = await walk(side.dir);
		const routedConflicts = files.filter((f) => isSyncConflict(f) && /\/(inbox|archive)\/|^A2A\/dead-letter\//.test(f));
		expect(routedConflicts, `conflict copies routed on side ${side.name}`).toEqual([]);
		const logFiles = files.filter((f) => f.startsWith("A2A/log/") && !isSyncConflict(f) && !isSyncTemp(f));
		const rows = (await Promise.all(logFiles.map(async (f) => parseLogLines(await fs.readFile(path.join(side.dir, f), "utf8")).map((r) => ({ ...r, file: f }))))).flat();
		for (const s of sent) {
			// Every row: a delivery one device finished for the other is recorded by both with the same
			// row, and the log holds it once (the second writer sees the first's row synced in).
			const mine = rows.filter((r) => r.messageId === s.id && r.outcome !== "retried");
			expect(mine.map((r) => r.outcome), `${s.id}: its log rows on side ${side.name}: ${JSON.stringify(mine)}`).toHaveLength(s.timeoutSeconds !== undefined && s.timeoutSeconds < 60 ? 2 : 1);
		}
		const timeouts = files.filter((f) => /\/inbox\/timeout-/.test(f));
		expect(timeouts.length, `one timeout response per timed-out request on side ${side.name}`).toBe(sent.filter((s) => s.timeoutSeconds !== undefined && s.timeoutSeconds < 60).length);
	}
}

async function settle(a: Side, b: Side, sent: Sent[], answered: Set<string>, wantAnswers: Sent[]): Promise<void> {
	const t0 = Date.now();
	const stage = (what: string) => console.log(`[sync-routing] ${what} after ${Date.now() - t0} ms`);
	await pollUntil("every request delivered and every answer written", 120_000, async () => {
		await answerDelivered([a, b], wantAnswers, answered, sent);
		const out = [];
		for (const side of [a, b]) for (const g of GROUPS) out.push(...(await fs.readdir(path.join(side.dir, BOX(g, "outbox"))).catch(() => [] as string[])).filter((n) => !n.startsWith(".")));
		return out.length === 0 && answered.size === wantAnswers.length ? null : `${out.length} notes in outboxes, ${answered.size}/${wantAnswers.length} answers`;
	});
	stage("outboxes empty");
	// The short-timeout requests time out; then both sides settle.
	await sleep(3000);
	await (pair as SyncPair).waitIdle(90_000);
	await sleep(1500);
	await (pair as SyncPair).waitIdle(90_000);
	stage("both sides idle");
}

describe("many devices, one post office (real Syncthing)", () => {
	it("a router on each side (a2a route --watch and the plugin), 300 requests and answers written on both sides: exactly once", async () => {
		const { a, b } = await twoVaults();
		const routerA = cli.startWatcher(a.dir, { env: { A2A_DEVICE: "device-a" }, extra: ["--margin", String(MARGIN_S)] });
		await pollUntil("the lease of side a reaches side b", 30_000, async () => (parseLease(await fs.readFile(path.join(b.dir, "A2A/router.md"), "utf8").catch(() => null))?.device === "device-a" ? null : "not yet"));
		const plugin = await pluginOn(b);
		host = plugin.host;
		// The sync delay, measured with a few notes that are not messages (for the margin's default).
		for (let i = 0; i < 6; i++) await (pair as SyncPair).writeAndMeasure(i % 2 === 0 ? "a" : "b", `Notes/probe ${i}.md`, `probe ${i}\n`);
		const sent: Sent[] = [];
		const answered = new Set<string>();
		const sides = [a, b];
		for (let i = 0; i < 300; i++) {
			const side = sides[Math.floor(Math.random() * 2)];
			const r = request(i, side, i % 30 === 0 ? 2 : 3600);
			await atomicWrite(side.dir, r.rel, r.text);
			sent.push(r.sent);
			if (i % 20 === 19) {
				await sleep(100);
				await answerDelivered(sides, sent.filter((s) => !s.answers && s.timeoutSeconds === 3600 && Number(s.id.slice(3)) % 3 === 0), answered, sent);
			}
		}
		const wantAnswers = sent.filter((s) => !s.answers && s.timeoutSeconds === 3600 && Number(s.id.slice(3)) % 3 === 0);
		await settle(a, b, sent, answered, wantAnswers);
		plugin.stop();
		await expectExactlyOnce(a, b, sent);
		// Side a routed; side b's plugin stood by the whole time.
		expect(routerA.lines.filter((l) => l.startsWith("{")).length).toBeGreaterThan(300);
		expect(plugin.host.notices.filter((n) => n.includes("stopped routing"))).toEqual([]);
		const stats = (pair as SyncPair).delayStats();
		console.log(`[sync-routing] ${sent.length} messages across two Syncthing-synced vaults; sync delays (a file written on one side until it is on the other): median ${stats.medianMs} ms, max ${stats.maxMs} ms over ${stats.count} writes`);
		routerA.child.kill("SIGTERM");
		await routerA.closed;
	}, 300_000);

	it("a partition of 30 s while both sides keep working, two routers on machines with one host name and no A2A_DEVICE: each side routes its own notes, the one that lost the lease stops and says so, still exactly once", async () => {
		const { a, b } = await twoVaults();
		// Two machines with one host name (this one's), neither naming itself with A2A_DEVICE: each has its
		// own private state folder and temporary folder, as two machines would (issue 27, finding 1).
		const machine = async (name: string) => {
			const home = path.join(parent, `machine-${name}`);
			await fs.mkdir(path.join(home, "tmp"), { recursive: true });
			return { XDG_STATE_HOME: path.join(home, "state"), TMPDIR: path.join(home, "tmp"), A2A_DEVICE: "" };
		};
		// No grace period (the notes are written atomically): a note still waiting for its grace when the
		// partition heals would reach the other side's router too, and both would route it before either
		// saw the other's lease (the window the lease cannot close; see the report of review 2, item 3).
		// A wider sync margin than the other tests': side a's renewals must reach side b within it while
		// the two are in step, and on a loaded machine (CI runs every test file on 2 cores) a starved
		// router or Syncthing scan took longer than 8 s, so side b took over and routed before the
		// partition. Half the partition still leaves side b 15 s to take over and route.
		const margin = 15;
		const env = (vars: Record<string, string>) => ({ env: vars, extra: ["--margin", String(margin), "--grace", "0"] });
		const routerA = cli.startWatcher(a.dir, env(await machine("a")));
		let idA = "";
		await pollUntil("the lease of side a reaches side b", 30_000, async () => {
			idA = (await lease(a)) ?? "";
			return idA !== "" && (await lease(b)) === idA ? null : "not yet";
		});
		expect(idA, "a device id of its own, not the host name").toMatch(/^cli-[0-9a-f-]{36}$/);
		const routerB = cli.startWatcher(b.dir, env(await machine("b")));
		// Measure the sync delay with a few marker notes.
		for (let i = 0; i < 5; i++) await (pair as SyncPair).writeAndMeasure(i % 2 === 0 ? "a" : "b", `Notes/probe ${i}.md`, `probe ${i}\n`);
		const sent: Sent[] = [];
		const answered = new Set<string>();
		let i = 0;
		// First 40 requests while the two sides are in step: side a's router routes them all, side b's
		// stands by (it sees another device's live lease; with one identity for both, it would take the
		// lease as its own at once and both would route the same notes).
		for (; i < 40; i++) {
			const side = i % 2 === 0 ? a : b;
			const r = request(i, side);
			await atomicWrite(side.dir, r.rel, r.text);
			sent.push(r.sent);
			await sleep(100);
		}
		await pollUntil("the requests written in step routed", 60_000, async () => {
			let left = 0;
			for (const side of [a, b]) for (const g of GROUPS) left += (await fs.readdir(path.join(side.dir, BOX(g, "outbox")))).filter((n) => !n.startsWith(".")).length;
			return left === 0 ? null : `${left} in outboxes`;
		});
		await (pair as SyncPair).waitIdle(60_000);
		expect(routerB.lines.filter((l) => l.startsWith("{")), "side b routed nothing while side a's lease was live").toEqual([]);
		expect(routerB.errors.join("\n")).toContain(`Not routing: a2a route --watch on ${os.hostname()} routes this vault`);
		await (pair as SyncPair).pause();
		const started = Date.now();
		while (Date.now() - started < 30_000) {
			const side = i % 2 === 0 ? a : b;
			const r = request(i, side);
			await atomicWrite(side.dir, r.rel, r.text);
			sent.push(r.sent);
			i++;
			await sleep(250);
			// Each side's agents answer what was delivered on their side.
			for (const s of [a, b]) await answerDelivered([s], sent.filter((x) => !x.answers && x.side === s && Number(x.id.slice(3)) % 4 === 0), answered, sent);
		}
		const tookOver = routerB.lines.some((l) => l.startsWith("{"));
		expect(tookOver, "side b took the lease over during the partition (no renewal seen for the margin)").toBe(true);
		await (pair as SyncPair).resume();
		const wantAnswers = sent.filter((s) => !s.answers && Number(s.id.slice(3)) % 4 === 0);
		await settle(a, b, sent, answered, wantAnswers);
		await expectExactlyOnce(a, b, sent);
		const stopped = [routerA, routerB].filter((w: Watcher) => w.errors.some((l) => l.startsWith("Stopped routing")));
		expect(stopped, "exactly one router lost the lease and said so").toHaveLength(1);
		expect(await lease(a)).toBe(await lease(b));
		const names = [...new Set([routerA, routerB].flatMap((w) => w.errors.filter((l) => l.startsWith("Stopped routing"))))];
		expect(names.join(), "the routers' names carry the one host name").toContain(`a2a route --watch on ${os.hostname()} routes this vault now`);
		const stats = (pair as SyncPair).delayStats();
		console.log(`[sync-routing] partition: ${i} requests (40 written in step, ${i - 40} during 30 s apart) and ${answered.size} answers; ${stopped.map((w) => w.errors.find((l) => l.startsWith("Stopped routing"))).join("; ")}; sync delays median ${stats.medianMs} ms, max ${stats.maxMs} ms`);
		for (const w of [routerA, routerB]) w.child.kill("SIGTERM");
		await Promise.all([routerA.closed, routerB.closed]);
	}, 300_000);

	it("a router whose clock runs 10 minutes ahead (faketime) never takes over a live lease", async () => {
		const { a, b } = await twoVaults();
		const routerA = cli.startWatcher(a.dir, { env: { A2A_DEVICE: "device-a" }, extra: ["--margin", String(MARGIN_S)] });
		await pollUntil("the lease of side a reaches side b", 30_000, async () => (parseLease(await fs.readFile(path.join(b.dir, "A2A/router.md"), "utf8").catch(() => null))?.device === "device-a" ? null : "not yet"));
		// libfaketime preloaded into the router itself (the `faketime` wrapper forks and would not pass SIGTERM on).
		const skewed = cli.startWatcher(b.dir, { env: { A2A_DEVICE: "device-b", LD_PRELOAD: await libfaketime(), FAKETIME: "+10m" }, extra: ["--margin", String(MARGIN_S)] });
		expect(skewed.child.pid).toBeGreaterThan(0);
		// Three margins: side a renews every quarter of one, side b sees each renewal arrive.
		const sent: Sent[] = [];
		for (let i = 0; i < 6; i++) {
			const r = request(i, b);
			await atomicWrite(b.dir, r.rel, r.text);
			sent.push(r.sent);
			await sleep((3 * MARGIN_S * 1000) / 6);
		}
		await settle(a, b, sent, new Set(), []);
		expect(skewed.lines.filter((l) => l.startsWith("{") && !l.includes('"ignored"')), "the skewed router routed nothing").toEqual([]);
		expect(skewed.errors.join("\n")).toContain("Not routing: a2a route --watch on device-a routes this vault");
		for (const side of [a, b]) expect(parseLease(await fs.readFile(path.join(side.dir, "A2A/router.md"), "utf8"))?.device).toBe("device-a");
		await expectExactlyOnce(a, b, sent);
		for (const w of [routerA, skewed]) w.child.kill("SIGTERM");
		await Promise.all([routerA.closed, skewed.closed]);
	}, 300_000);
});
