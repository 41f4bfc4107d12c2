import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../cli/node-vault";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { unquarantineText } from "../../src/core/stamps";
import { Router } from "../../src/router/router";
import type { VaultPort } from "../../src/router/vault-port";
import { useCliBundle } from "../helpers/cli-process";
import type { Watcher } from "../helpers/cli-process";
import { GROUPS, atomicWrite, expectReportedOnce, expectRouted, makeRoutedVault, outboxCount, sleep, walk } from "../helpers/routed-vault";
import { BOX } from "../helpers/temp-vault";

// Two routers on one vault (docs/protocol.md, "Two routers on one vault"): they take turns through
// the lease A2A/.router.lock, and every move out of an outbox is a claim only one can win.
// (a) two `a2a route --watch` processes of the real CLI bundle while a thousand messages arrive;
// (b) the claim alone: two in-process routers whose lease never refuses, passing at the same time.
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
 * The messages of a run: requests, every fifth answered ten messages later (with its target_group:
 * the answer may be routed before its request, which is then archived when it is delivered), and
 * with `withInvalid` an unreadable note now and then.
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
	const visible = files.filter((f) => f.endsWith(".md") && !f.startsWith("A2A/log/") && !f.split("/").some((s) => s.startsWith(".")));
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

describe("two routers on one vault", () => {
	it(`two a2a route --watch processes share ${MESSAGES} arriving messages: each delivered exactly once`, async () => {
		const { parent, dir } = await makeRoutedVault("a2a-two-");
		try {
			const sent = messagesFor(MESSAGES, false);
			const a = cli.startWatcher(dir);
			const b = cli.startWatcher(dir);
			const started = Date.now();
			for (let i = 0; i < sent.length; i++) {
				await atomicWrite(dir, sent[i].rel, sent[i].text);
				if (i % 40 === 39) await sleep(10);
			}
			const deadline = Date.now() + 60_000;
			while ((await outboxCount(dir)) > 0 && Date.now() < deadline) await sleep(50);
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
			expect(await fs.stat(path.join(dir, "A2A/.router.lock")).then(() => true, () => false), "lease released on exit").toBe(false);

			const decisions = [...a.lines, ...b.lines].filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
			const byId = expectReportedOnce(decisions, { skipWritingTemp: true });
			expect(byId.size, "every message reported once by one of the two").toBe(sent.length);
			const share = (w: Watcher) => w.lines.filter((l) => l.startsWith("{") && !l.includes('"outcome":"ignored"')).length;
			console.log(
				`[faults-two-routers] 2 watchers, ${sent.length} messages in ${elapsed} ms: ${counts.delivered} delivered, ${counts.archived} answered and archived, ` +
					`${counts.answered} answers; decisions by router A ${share(a)}, by router B ${share(b)}`,
			);
		} finally {
			await fs.rm(parent, { recursive: true, force: true });
		}
	}, 120_000);

	it("a pass that outlasts the lease's time-to-live keeps its lease: a second router waits instead of routing alongside", async () => {
		const { parent, dir } = await makeRoutedVault("a2a-two-");
		try {
			const sent = messagesFor(1500, true);
			for (const s of sent) await atomicWrite(dir, s.rel, s.text);
			// Long enough that a loaded CI machine still renews in time (a third of it between renewals).
			const ttl = 300;
			// Both ports log when they hold the lease, in the order it happens.
			const events: string[] = [];
			const logged = (name: string): VaultPort => {
				const inner = new NodeVault(dir);
				return Object.assign(Object.create(inner) as NodeVault, {
					acquireLease: async (p: string, holder: string, ms: number) => {
						const ok = await inner.acquireLease(p, holder, ms);
						events.push(`${name} ${ok ? "holds" : "busy"}`);
						return ok;
					},
					releaseLease: async (p: string, holder: string) => {
						await inner.releaseLease(p, holder);
						events.push(`${name} released`);
					},
				});
			};
			const a = new Router(logged("A"), { leaseTtlMs: ttl, holder: "router-a" });
			const b = new Router(logged("B"), { leaseTtlMs: ttl, holder: "router-b" });
			for (const r of [a, b]) {
				await r.loadRegistry();
				await r.indexSync.rescan();
			}
			let aDone = false;
			const started = Date.now();
			const aPass = a.pass().finally(() => (aDone = true));
			let tries = 0;
			while (!aDone) {
				await sleep(3 * ttl);
				if (aDone) break;
				tries++;
				await b.pass();
			}
			const aReport = await aPass;
			const aMs = Date.now() - started;
			expect(aMs, "router A's pass must outlast the lease for this test to mean anything").toBeGreaterThan(3 * ttl);
			const during = events.slice(events.indexOf("A holds"), events.indexOf("A released"));
			expect(during.filter((e) => e === "B holds"), `router B took the lease while A's pass was running (A took ${aMs} ms, lease ${ttl} ms): ${during.join(", ")}`).toEqual([]);
			expect(during.filter((e) => e === "B busy").length, "B tried while A was routing").toBeGreaterThan(0);
			await b.indexSync.rescan();
			await b.pass();
			const counts = await checkVault(parent, dir, sent);
			console.log(
				`[faults-two-routers] long pass: A made ${aReport.decisions.length} decisions in ${aMs} ms under a ${ttl} ms lease, renewing it ${during.filter((e) => e === "A holds").length} times; ` +
					`B tried ${tries} times meanwhile and was told busy each time; ${counts.dead} dead letters`,
			);
		} finally {
			await fs.rm(parent, { recursive: true, force: true });
		}
	}, 120_000);

	it("without the lease, the claim by rename alone still delivers each message once (two routers passing at the same time)", async () => {
		const { parent, dir } = await makeRoutedVault("a2a-two-");
		try {
			const sent = messagesFor(Math.min(400, MESSAGES), true);
			// A port whose lease never refuses: both routers route at the same moment.
			const noLease = (): VaultPort => {
				const inner = new NodeVault(dir);
				return Object.assign(Object.create(inner) as NodeVault, {
					acquireLease: () => Promise.resolve(true),
					releaseLease: () => Promise.resolve(),
				});
			};
			const routers = [new Router(noLease()), new Router(noLease())];
			for (const r of routers) {
				await r.loadRegistry();
				await r.indexSync.rescan();
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
