import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { unquarantineText } from "../../src/core/stamps";
import { Router } from "../../src/router/router";
import type { VaultPort } from "../../src/router/vault-port";
import { useCliBundle } from "../helpers/cli-process";
import type { Watcher } from "../helpers/cli-process";
import { GROUPS, atomicWrite, expectReportedOnce, expectRouted, makeRoutedVault, outboxCount, sleep, walk } from "../helpers/routed-vault";
import { BOX } from "../helpers/temp-vault";

// Two routers on one vault (docs/protocol.md, "One router at a time"): one holds the lease
// (A2A/router.md, and on one machine a lock file), the other stands by; and even without the lease,
// a transfer finds the copy another router made of the same note (names and ids derive from the
// note), so a note is never delivered twice.
// (a) two `a2a route --watch` processes of the real CLI bundle while a thousand messages arrive;
// (b) a pass longer than the lease's renewal period keeps the lease: the other router stands by;
// (c) no lease at all: two in-process routers passing at the same time, racing for the same names.
// Either way each message must end in exactly one place, delivered once, byte for byte.

const MESSAGES = Number(process.env.A2A_TWO_MESSAGES ?? 1000);
const cli = useCliBundle();

interface Sent {
	id: string;
	from: string;
	to: string;
	rel: string;
	text: string;
	kind: "request" | "response" | "invalid";
	answers?: string;
}

const TRACE = (i: number) => `${(0x20000000 + i).toString(16)}-aaaa-4bbb-8ccc-${i.toString(16).padStart(12, "0")}`;

/**
 * The messages of a run: requests, every fifth answered (with its target_group), and with
 * `withInvalid` an unreadable note now and then. An agent answers only a request it holds, so a
 * run writes the answers once the requests are delivered (see `arrive`).
 */
function messagesFor(count: number, withInvalid: boolean): Sent[] {
	const out: Sent[] = [];
	for (let i = 0; i < count; i++) {
		const from = GROUPS[i % GROUPS.length];
		const to = GROUPS[(i + 1 + (i % 3)) % GROUPS.length];
		const id = `two-${i}`;
		const body = `\n## Question\n\nQuestion ${i} — ünïcödé 🚀 <script>x</script>\n`;
		out.push({
			id,
			from,
			to,
			kind: "request",
			rel: `${BOX(from, "outbox")}/q ${i}.md`,
			text: `---\nmessage_id: ${id}\ntrace_id: ${TRACE(i)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: task\ntimeout_seconds: 3600\n---\n${body}`,
		});
		const back = i - 10;
		if (back >= 0 && back % 5 === 0) {
			const req = out.find((s) => s.id === `two-${back}`) as Sent;
			out.push({
				id: `two-answer-${back}`,
				from: req.to,
				to: req.from,
				kind: "response",
				answers: req.id,
				rel: `${BOX(req.to, "outbox")}/a ${back}.md`,
				text: `---\nmessage_id: two-answer-${back}\ntrace_id: ${TRACE(back)}\nin_reply_to: ${req.id}\nsource_group: ${req.to}\ntarget_group: ${req.from}\nstatus: success\n---\n\n## Answer\n\nDone ${back}\n`,
			});
		}
		if (withInvalid && i % 50 === 7) {
			out.push({ id: `two-bad-${i}`, from, to: "", kind: "invalid", rel: `${BOX(from, "outbox")}/bad ${i}.md`, text: `---\nmessage_id: [two-bad-${i}\n---\nnot yaml ${i}\n` });
		}
	}
	return out;
}

/** Every sent message in exactly one place, in the right one, with its body byte for byte. */
async function checkVault(parent: string, dir: string, sent: Sent[]): Promise<{ delivered: number; archived: number; answered: number; dead: number }> {
	expect(await fs.readdir(parent)).toEqual(["vault"]);
	const files = await walk(dir);
	for (const f of files) expect(f.startsWith("A2A/"), `written outside A2A: ${f}`).toBe(true);
	const visible = files.filter((f) => f.endsWith(".md") && !f.startsWith("A2A/log/") && f !== "A2A/router.md" && !f.split("/").some((s) => s.startsWith(".")));
	const byMark = new Map<string, { file: string; text: string }[]>();
	for (const f of visible) {
		const text = await fs.readFile(path.join(dir, f), "utf8");
		const fm = readFrontmatter(text) ?? {};
		// Dead letters of unreadable notes carry a new id; find them by the original text they keep.
		const original = unquarantineText(text);
		const key = original !== null ? (/two-bad-\d+/.exec(original)?.[0] ?? "?") : String(fm.message_id);
		const list = byMark.get(key) ?? [];
		list.push({ file: f, text });
		byMark.set(key, list);
	}
	const counts = { delivered: 0, archived: 0, answered: 0, dead: 0 };
	for (const s of sent) {
		const copies = byMark.get(s.id) ?? [];
		expect(copies.map((c) => c.file), `${s.id} must be in exactly one place:\n${copies.map((c) => `${c.file}\n${c.text}`).join("\n")}`).toHaveLength(1);
		const [{ file, text }] = copies;
		const fm = readFrontmatter(text) ?? {};
		if (s.kind === "invalid") {
			expect(file.startsWith("A2A/dead-letter/"), `${s.id} in ${file}`).toBe(true);
			expect(unquarantineText(text), `${s.id}: quarantined text`).toBe(s.text);
			counts.dead++;
			continue;
		}
		expect(splitNote(text).body, `${s.id}: body`).toBe(splitNote(s.text).body);
		const place = expectRouted(s, sent, file, fm);
		if (place === "answer") counts.answered++;
		else if (place === "archived") counts.archived++;
		else counts.delivered++;
	}
	const extra = [...byMark.keys()].filter((k) => !sent.some((s) => s.id === k));
	const routerResponses = visible.filter((f) => /\/inbox\/error-/.test(f));
	expect(routerResponses.length, "one error response per invalid note").toBe(sent.filter((s) => s.kind === "invalid").length);
	expect(extra.length, `unexpected notes: ${extra.slice(0, 5).join(", ")}`).toBe(routerResponses.length);
	expect(files.filter((f) => f.startsWith("A2A/dead-letter/")).length).toBe(counts.dead);
	return counts;
}

/**
 * NodeVault's calls are synchronous: two routers in one process would never interleave. This port
 * lets the event loop run before each call, as two processes would.
 */
function yielding(inner: VaultPort): VaultPort {
	return new Proxy(inner, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver) as unknown;
			if (typeof value !== "function") return value;
			return async (...args: unknown[]) => {
				await new Promise((resolve) => setImmediate(resolve));
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}

describe("two routers on one vault", () => {
	// One user's two processes are one device (one id, one lock). Two machines that share the vault
	// folder and one host name, without A2A_DEVICE, are two devices (issue 27): each has its own state
	// folder and temporary folder, so no lock is shared, and only the lease keeps the second out.
	it.each([
		{ who: "of one user", count: MESSAGES, twoMachines: false },
		{ who: "on two machines with one host name and no A2A_DEVICE", count: Math.min(300, MESSAGES), twoMachines: true },
	])(`two a2a route --watch processes $who share $count arriving messages: each delivered exactly once`, async ({ count, twoMachines }) => {
		const { parent, dir } = await makeRoutedVault("a2a-two-");
		const machines = twoMachines ? await fs.mkdtemp(path.join(os.tmpdir(), "a2a-two-machines-")) : "";
		const machine = async (name: string) => {
			if (!twoMachines) return {};
			await fs.mkdir(path.join(machines, name, "tmp"), { recursive: true });
			return { env: { XDG_STATE_HOME: path.join(machines, name, "state"), TMPDIR: path.join(machines, name, "tmp"), A2A_DEVICE: "" } };
		};
		try {
			const sent = messagesFor(count, false);
			const a = cli.startWatcher(dir, await machine("a"));
			const b = cli.startWatcher(dir, await machine("b"));
			const started = Date.now();
			const deadline = Date.now() + 60_000;
			for (const batch of [sent.filter((s) => s.kind !== "response"), sent.filter((s) => s.kind === "response")]) {
				for (let i = 0; i < batch.length; i++) {
					await atomicWrite(dir, batch[i].rel, batch[i].text);
					if (i % 40 === 39) await sleep(10);
				}
				while ((await outboxCount(dir)) > 0 && Date.now() < deadline) await sleep(50);
			}
			// Both idle: no new decision for a while.
			for (let seen = -1; seen !== a.lines.length + b.lines.length && Date.now() < deadline; ) {
				seen = a.lines.length + b.lines.length;
				await sleep(300);
			}
			a.child.kill("SIGTERM");
			b.child.kill("SIGTERM");
			expect(await a.closed).toBe(0);
			expect(await b.closed).toBe(0);
			const elapsed = Date.now() - started;
			const counts = await checkVault(parent, dir, sent);
			expect(readFrontmatter(await fs.readFile(path.join(dir, "A2A/router.md"), "utf8")), "lease released on exit").toMatchObject({ released: true });
			const routed = [a, b].filter((w) => w.lines.some((l) => l.startsWith("{") && !l.includes('"outcome":"ignored"')));
			expect(routed, "one router routed, the other stood by").toHaveLength(1);

			const decisions = [...a.lines, ...b.lines].filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
			const byId = expectReportedOnce(decisions, { skipWritingTemp: true });
			expect(byId.size, "every message reported once by one of the two").toBe(sent.length);
			const share = (w: Watcher) => w.lines.filter((l) => l.startsWith("{") && !l.includes('"outcome":"ignored"')).length;
			console.log(
				`[faults-two-routers] 2 watchers ${twoMachines ? "on two machines" : "of one user"}, ${sent.length} messages in ${elapsed} ms: ${counts.delivered} delivered, ${counts.archived} answered and archived, ` +
					`${counts.answered} answers; decisions by router A ${share(a)}, by router B ${share(b)}`,
			);
		} finally {
			await fs.rm(parent, { recursive: true, force: true });
			if (machines) await fs.rm(machines, { recursive: true, force: true });
		}
	}, 120_000);

	it("a pass longer than the lease's renewal period keeps its lease: a second router stands by instead of routing alongside", async () => {
		const { parent, dir } = await makeRoutedVault("a2a-two-");
		try {
			const sent = messagesFor(6000, true).filter((s) => s.kind !== "response");
			for (const s of sent) await atomicWrite(dir, s.rel, s.text);
			// A short sync margin (renewal every quarter of it, 250 ms at least): A renews several times during its pass.
			const marginMs = 400;
			const a = new Router(yielding(new NodeVault(dir)), { marginMs, identity: { device: "device-a", name: "router A", yields: false } });
			const b = new Router(yielding(new NodeVault(dir)), { marginMs, identity: { device: "device-b", name: "router B", yields: false } });
			for (const r of [a, b]) await r.loadRegistry();
			let aDone = false;
			const started = Date.now();
			const aPass = a.pass().finally(() => (aDone = true));
			const bTries: { busy: boolean; decisions: number }[] = [];
			while (!aDone) {
				await sleep(marginMs);
				if (aDone) break;
				const report = await b.pass();
				bTries.push({ busy: report.busy, decisions: report.decisions.length });
			}
			const aReport = await aPass;
			const aMs = Date.now() - started;
			// Twice the margin: a lease left unrenewed would have lapsed during the pass (on a quiet machine the pass takes about three margins).
			expect(aMs, "router A's pass must outlast the margin for this test to mean anything").toBeGreaterThan(2 * marginMs);
			expect(bTries.length, "B tried while A was routing").toBeGreaterThan(0);
			expect(bTries.filter((t) => !t.busy || t.decisions > 0), "router B routed while A's pass was running").toEqual([]);
			const lease = readFrontmatter(await fs.readFile(path.join(dir, "A2A/router.md"), "utf8")) ?? {};
			expect(lease).toMatchObject({ router_device: "device-a", released: false });
			expect(Number(lease.renewal), "A renewed during its pass").toBeGreaterThan(2);
			await a.pass();
			const counts = await checkVault(parent, dir, sent);
			console.log(
				`[faults-two-routers] long pass: A made ${aReport.decisions.length} decisions in ${aMs} ms with a ${marginMs} ms margin, renewing the lease to #${String(lease.renewal)}; ` +
					`B tried ${bTries.length} times meanwhile and stood by each time; ${counts.dead} dead letters`,
			);
		} finally {
			await fs.rm(parent, { recursive: true, force: true });
		}
	}, 120_000);

	it("without the lease, two routers passing at the same time still deliver each message once (a transfer finds the other's copy)", async () => {
		const { parent, dir } = await makeRoutedVault("a2a-two-");
		try {
			const sent = messagesFor(Math.min(400, MESSAGES), true).filter((s) => s.kind !== "response");
			// No lease: both routers route at the same moment.
			const routers = [new Router(yielding(new NodeVault(dir))), new Router(yielding(new NodeVault(dir)))];
			for (const r of routers) {
				await r.loadRegistry();
				r.lease.ensure = () => Promise.resolve(true);
				r.lease.renewalDue = () => false;
			}
			const reports: Record<string, unknown>[][] = [[], []];
			let writing = true;
			const writer = async () => {
				for (let i = 0; i < sent.length; i++) {
					await atomicWrite(dir, sent[i].rel, sent[i].text);
					if (i % 20 === 19) await sleep(5);
				}
				writing = false;
			};
			const loop = async (k: number) => {
				while (writing || (await outboxCount(dir)) > 0) {
					await routers[k].indexSync.rescan();
					const report = await routers[k].pass();
					reports[k].push(...(report.decisions as unknown as Record<string, unknown>[]));
					await sleep(k === 0 ? 3 : 5);
				}
				// One more pass each: finish whatever the other left half done.
				await routers[k].indexSync.rescan();
				reports[k].push(...((await routers[k].pass()).decisions as unknown as Record<string, unknown>[]));
			};
			await Promise.all([writer(), loop(0), loop(1)]);
			for (const r of routers) {
				await r.indexSync.rescan();
				await r.pass();
			}
			const counts = await checkVault(parent, dir, sent);
			const all = [...reports[0], ...reports[1]];
			const reported = new Map<string, number>();
			for (const d of all) if (d.outcome === "delivered" || d.outcome === "answered") reported.set(String(d.message_id), (reported.get(String(d.message_id)) ?? 0) + 1);
			const twice = [...reported].filter(([, n]) => n > 1);
			console.log(
				`[faults-two-routers] claim only, ${sent.length} messages: ${counts.delivered} delivered, ${counts.archived} archived, ${counts.answered} answers, ` +
					`${counts.dead} dead letters; decisions by A ${reports[0].length}, by B ${reports[1].length}; ` +
					`messages both reported delivering (one stamped what the other had moved): ${twice.length}`,
			);
		} finally {
			await fs.rm(parent, { recursive: true, force: true });
		}
	}, 120_000);
});
