import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { GROUPS, expectLoggedAtMostOnce, expectReportedOnce, expectRouted, outboxCount, sleep, walk } from "../helpers/routed-vault";
import { BOX, REGISTRY, a2a } from "../helpers/temp-vault";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";

// Two routers on one vault, the other pair: the real plugin on the fake Obsidian and the headless
// router (`a2a route`, in-process) on the same folder, while notes arrive from outside through the
// fake's watcher. They are two devices to the lease (A2A/router.md): one routes, the other stands
// by. Each message must end in exactly one place, delivered once, byte for byte; the plugin's vault
// tree is brought up to date with what the CLI moved by rescans, like Obsidian's file watcher.

const MESSAGES = Number(process.env.A2A_PLUGIN_CLI_MESSAGES ?? 300);

let b: Booted | undefined;
afterEach(async () => {
	await b?.host.cleanup();
	b = undefined;
});

const TRACE = (i: number) => `${(0x30000000 + i).toString(16)}-aaaa-4bbb-8ccc-${i.toString(16).padStart(12, "0")}`;

interface Sent {
	id: string;
	from: string;
	to: string;
	rel: string;
	text: string;
	answers?: string;
}

describe("the plugin and the CLI routing one vault", () => {
	it(`deliver each of ${MESSAGES} arriving messages exactly once between them`, async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const host = b.host;
		const dir = host.dir;
		for (const g of GROUPS) for (const x of ["inbox", "outbox", "archive"] as const) await host.externalMkdir(BOX(g, x));
		await b.quiet();

		const sent: Sent[] = [];
		for (let i = 0; i < MESSAGES; i++) {
			const from = GROUPS[i % GROUPS.length];
			const to = GROUPS[(i + 1 + (i % 3)) % GROUPS.length];
			const id = `pc-${i}`;
			sent.push({
				id,
				from,
				to,
				rel: `${BOX(from, "outbox")}/note ${i}.md`,
				text: `---\nmessage_id: ${id}\ntrace_id: ${TRACE(i)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\ntimeout_seconds: 3600\n---\n\n## Question\n\nQ${i} 🚀 <img src=x onerror=alert(1)>\n`,
			});
			const back = i - 8;
			if (back >= 0 && back % 4 === 0) {
				const req = sent.find((s) => s.id === `pc-${back}`) as Sent;
				sent.push({
					id: `pc-answer-${back}`,
					from: req.to,
					to: req.from,
					answers: req.id,
					rel: `${BOX(req.to, "outbox")}/answer ${back}.md`,
					text: `---\nmessage_id: pc-answer-${back}\ntrace_id: ${TRACE(back)}\nin_reply_to: ${req.id}\nsource_group: ${req.to}\ntarget_group: ${req.from}\nstatus: success\n---\n\n## Answer\n\nA${back}\n`,
				});
			}
		}

		const cliDecisions: Record<string, unknown>[] = [];
		let cliRuns = 0;
		let cliBusyWaits = 0;
		let writing = true;
		const started = Date.now();
		const writer = async () => {
			// Requests first, spread over a few seconds so that both routers see some of them first;
			// then the answers, each once its request was delivered (an agent answers what it holds).
			const requests = sent.filter((s) => s.answers === undefined);
			for (let i = 0; i < requests.length; i++) {
				await host.externalWrite(requests[i].rel, requests[i].text);
				if (i % 4 === 3) await sleep(15);
			}
			const deadline = Date.now() + 60_000;
			for (const s of sent.filter((x) => x.answers !== undefined)) {
				const req = sent.find((r) => r.id === s.answers) as Sent;
				const inbox = path.join(dir, BOX(req.to, "inbox"), path.basename(req.rel));
				while (!(await fs.stat(inbox).then(() => true, () => false)) && Date.now() < deadline) await sleep(20);
				await host.externalWrite(s.rel, s.text);
			}
			writing = false;
		};
		const cli = async () => {
			while (writing || (await outboxCount(dir)) > 0) {
				const t0 = Date.now();
				const run = await a2a(dir, "route", "--json");
				expect(run.code, run.stderr.join("\n")).toBe(0);
				if (Date.now() - t0 > 150) cliBusyWaits++;
				cliRuns++;
				cliDecisions.push(...run.json);
				// Obsidian's watcher would notice what the CLI moved; the fake does when asked.
				await host.rescan();
				await sleep(40);
			}
		};
		await Promise.all([writer(), cli()]);
		await b.quiet();
		await host.rescan();
		await b.quiet();
		const last = await a2a(dir, "route", "--json");
		expect(last.code).toBe(0);
		cliDecisions.push(...last.json);
		await host.rescan();
		await b.quiet();
		const elapsed = Date.now() - started;

		// ---- on disk -------------------------------------------------------------------------
		const files = (await walk(dir)).filter((f) => !f.startsWith(".obsidian/"));
		for (const f of files) expect(f.startsWith("A2A/"), `written outside A2A: ${f}`).toBe(true);
		const notes = files.filter((f) => f.endsWith(".md") && !f.startsWith("A2A/log/") && f !== "A2A/router.md" && !f.split("/").some((s) => s.startsWith(".")));
		const byId = new Map<string, { file: string; text: string }[]>();
		for (const f of notes) {
			const text = await fs.readFile(path.join(dir, f), "utf8");
			const id = String((readFrontmatter(text) ?? {}).message_id);
			byId.set(id, [...(byId.get(id) ?? []), { file: f, text }]);
		}
		let delivered = 0;
		let archived = 0;
		let answers = 0;
		for (const s of sent) {
			const copies = byId.get(s.id) ?? [];
			expect(copies.map((c) => c.file), `${s.id} must be in exactly one place`).toHaveLength(1);
			const [{ file, text }] = copies;
			const fm = readFrontmatter(text) ?? {};
			expect(splitNote(text).body, `${s.id}: body`).toBe(splitNote(s.text).body);
			const place = expectRouted(s, sent, file, fm);
			if (place === "answer") answers++;
			else if (place === "archived") archived++;
			else delivered++;
		}
		expect([...byId.keys()].sort(), "no other notes (no dead letters, no error responses)").toEqual(sent.map((s) => s.id).sort());
		expect(files.filter((f) => f.startsWith("A2A/dead-letter/"))).toEqual([]);

		// ---- what each router says it did ---------------------------------------------------------
		const cliIds = expectReportedOnce(cliDecisions);
		await expectLoggedAtMostOnce(dir, files, sent.map((s) => s.id));
		const pluginRouted = sent.length - cliIds.size;
		const failures = host.notices.filter((n) => n.includes("could not finish routing"));
		console.log(
			`[faults-plugin-and-cli] ${sent.length} messages in ${elapsed} ms: ${delivered} delivered, ${archived} answered and archived, ${answers} answers; ` +
				`routed by the CLI ${cliIds.size} (${cliRuns} runs, ${cliBusyWaits} slow ones), by the plugin ${pluginRouted}; ` +
				`plugin routing failures shown: ${failures.length}; handler errors: ${host.errors.length}`,
		);
		expect(host.errors).toEqual([]);
		expect(failures, "the plugin never failed a pass").toEqual([]);
	}, 120_000);
});
