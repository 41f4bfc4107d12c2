import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { useCliBundle } from "../helpers/cli-process";
import { deviceState, statePaths } from "../../node/device";
import { GROUPS, atomicWrite, expectLoggedExactlyOnce, expectReportedOnce, expectRouted, makeRoutedVault, outboxCount, sleep, walk } from "../helpers/routed-vault";
import { BOX } from "../helpers/temp-vault";

// Crashes: the real CLI bundle (built here with esbuild) runs `a2a route --watch` as a child process
// while a thousand requests (and answers to some of them) arrive in several outboxes; it is killed
// with SIGKILL at random moments and restarted each time, then `a2a route` runs once more. Every
// message must then be in exactly one place, delivered once, its payload byte for byte as sent,
// every settled message must have exactly one row in the routing log (item 6 of "Trust the post
// office"), and the lock a killed router left behind must not hold the next one up.

const MESSAGES = Number(process.env.A2A_KILL_MESSAGES ?? 1000);
const KILLS = Number(process.env.A2A_KILL_COUNT ?? 6);
const cli = useCliBundle();

/** `a2a route` once, as a child process; fails the test if it does not finish within `limitMs`. */
async function routeOnce(dir: string, limitMs: number): Promise<{ code: number | null; lines: string[]; ms: number }> {
	const started = Date.now();
	const child = cli.spawn(["route", "--json", "--vault", dir]);
	let out = "";
	let err = "";
	child.stdout?.on("data", (c: Buffer) => (out += c.toString("utf8")));
	child.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
	const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
	const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
	clearTimeout(timer);
	const ms = Date.now() - started;
	expect(ms, `a2a route took ${ms} ms (stderr: ${err})`).toBeLessThan(limitMs);
	return { code, lines: out.split("\n").filter((l) => l.startsWith("{")), ms };
}

const TRACE = (i: number) => `${(0x10000000 + i).toString(16)}-aaaa-4bbb-8ccc-${i.toString(16).padStart(12, "0")}`;

function question(i: number): string {
	return `\n## Question\n\nQuestion ${i}: naïve café 🚀 مرحبا <b>bold</b> [[link]] \`code\`\n\n## Context\n\nLine one of ${i}\nLine two — with trailing spaces   \n`;
}

function answer(i: number): string {
	return `\n## Answer\n\nAnswer ${i} ✅\n`;
}

interface Sent {
	id: string;
	from: string;
	to: string;
	body: string;
	/** For a response: the request it answers. */
	answers?: string;
}

describe("crashes: a2a route --watch killed with SIGKILL at random moments", () => {
	it(`loses nothing and delivers nothing twice over ${MESSAGES} requests and ${KILLS} kills`, async () => {
		const { parent, dir } = await makeRoutedVault("a2a-kill-");
		try {
			const sent: Sent[] = [];
			const allLines: string[] = [];
			const lockPath = statePaths(deviceState(dir, "A2A")).lock;
			let watcher = cli.startWatcher(dir);

			const writeRequest = async (i: number) => {
				const from = GROUPS[i % GROUPS.length];
				const to = GROUPS[(i + 1 + (i % 3)) % GROUPS.length];
				const id = `kill-${i}`;
				const body = question(i);
				const text = `---\nmessage_id: ${id}\ntrace_id: ${TRACE(i)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\ntimeout_seconds: 3600\npriority: ${["low", "medium", "high"][i % 3]}\n---\n${body}`;
				await atomicWrite(dir, `${BOX(from, "outbox")}/request ${i}.md`, text);
				sent.push({ id, from, to, body });
				// Every fifth request is answered by its target a little later, once the target holds it
				// (an agent answers only what was delivered to it); the others are answered at the end.
				const back = i - 10;
				if (back >= 0 && back % 5 === 0) unanswered.push(back);
				for (const b of [...unanswered]) if (await answerIfDelivered(b)) unanswered.splice(unanswered.indexOf(b), 1);
			};
			const unanswered: number[] = [];
			const answerIfDelivered = async (back: number): Promise<boolean> => {
				const req = sent.find((s) => s.id === `kill-${back}`) as Sent;
				if (!(await fs.stat(path.join(dir, BOX(req.to, "inbox"), `request ${back}.md`)).then(() => true, () => false))) return false;
				const rid = `answer-${back}`;
				const rbody = answer(back);
				const rtext = `---\nmessage_id: ${rid}\ntrace_id: ${TRACE(back)}\nin_reply_to: ${req.id}\nsource_group: ${req.to}\ntarget_group: ${req.from}\nstatus: success\n---\n${rbody}`;
				await atomicWrite(dir, `${BOX(req.to, "outbox")}/answer ${back}.md`, rtext);
				sent.push({ id: rid, from: req.to, to: req.from, body: rbody, answers: req.id });
				return true;
			};

			// Bursts of notes; after each, wait until the watcher has started routing it (a note left
			// the outboxes), then kill it a random few milliseconds later, in the middle of its pass.
			const started = Date.now();
			const perBurst = Math.ceil(MESSAGES / (KILLS + 1));
			let next = 0;
			let kills = 0;
			let midPass = 0;
			let leaseAtKill = 0;
			for (let round = 0; round < KILLS; round++) {
				for (const end = Math.min(MESSAGES, next + perBurst); next < end; next++) await writeRequest(next);
				const before = await outboxCount(dir);
				const wait = Date.now() + 15_000;
				while ((await outboxCount(dir)) >= before && before > 0 && Date.now() < wait) await sleep(2);
				await sleep(Math.floor(Math.random() * 25));
				const pending = await outboxCount(dir);
				const lease = await fs.stat(lockPath).then(() => true, () => false);
				watcher.child.kill("SIGKILL");
				await watcher.closed;
				allLines.push(...watcher.lines);
				kills++;
				if (pending > 0) midPass++;
				if (lease) leaseAtKill++;
				watcher = cli.startWatcher(dir);
			}
			for (; next < MESSAGES; next++) await writeRequest(next);
			// Let the last watcher drain the outboxes, answer what is left, then kill it too.
			const deadline = Date.now() + 60_000;
			while ((await outboxCount(dir)) > 0 && Date.now() < deadline) await sleep(50);
			for (const b of unanswered) expect(await answerIfDelivered(b), `request ${b} was delivered`).toBe(true);
			while ((await outboxCount(dir)) > 0 && Date.now() < deadline) await sleep(50);
			// ...and print what it did (its output is checked for double deliveries below).
			for (let seen = -1; (seen !== watcher.lines.length || seen === 0) && Date.now() < deadline; ) {
				seen = watcher.lines.length;
				await sleep(400);
			}
			watcher.child.kill("SIGKILL");
			await watcher.closed;
			allLines.push(...watcher.lines);
			kills++;
			expect(midPass, "kills that interrupted a pass with notes still in the outboxes").toBeGreaterThanOrEqual(1);

			// A killed router leaves its lock behind (and the lease note names this machine, not
			// released); the next one must take over at once (the lock's pid is dead) instead of waiting
			// out the sync margin. If the last kill left no lock, plant one exactly like it.
			const leftLock = await fs.readFile(lockPath, "utf8").catch(() => null);
			if (leftLock === null) {
				const dead = spawn(process.execPath, ["-e", ""]);
				const pid = dead.pid as number;
				await new Promise((r) => dead.on("close", r));
				await fs.writeFile(lockPath, JSON.stringify({ pid, what: "a2a route --watch" }));
			}
			expect(readFrontmatter(await fs.readFile(path.join(dir, "A2A/router.md"), "utf8")), "the killed router did not release the lease").toMatchObject({ released: false });
			const final = await routeOnce(dir, 8_000);
			expect(final.code).toBe(0);
			allLines.push(...final.lines);
			const elapsed = Date.now() - started;

			// ---- where everything is -------------------------------------------------------------
			const files = await walk(dir);
			expect(await fs.readdir(parent)).toEqual(["vault"]);
			for (const f of files) expect(f.startsWith("A2A/"), `written outside A2A: ${f}`).toBe(true);
			expect(await fs.stat(lockPath).then(() => true, () => false), "the last router released its lock").toBe(false);
			const visible = files.filter((f) => !f.split("/").some((s) => s.startsWith(".")));
			const leftovers = files.filter((f) => !visible.includes(f));
			const byId = new Map<string, { file: string; fm: Record<string, unknown>; body: string }[]>();
			for (const f of visible) {
				if (!f.endsWith(".md") || f.startsWith("A2A/log/") || f === "A2A/router.md") continue;
				const text = await fs.readFile(path.join(dir, f), "utf8");
				const fm = readFrontmatter(text) ?? {};
				const id = String(fm.message_id);
				const list = byId.get(id) ?? [];
				list.push({ file: f, fm, body: splitNote(text).body });
				byId.set(id, list);
			}
			for (const g of GROUPS) expect(visible.filter((f) => f.startsWith(BOX(g, "outbox")))).toEqual([]);
			const deadLetters = visible.filter((f) => f.startsWith("A2A/dead-letter/"));
			expect(deadLetters, "no dead letters: every message was valid (a DUPLICATE here would mean one was seen twice)").toEqual([]);

			let delivered = 0;
			let answered = 0;
			let archived = 0;
			for (const s of sent) {
				const copies = byId.get(s.id) ?? [];
				if (copies.length !== 1) {
					const logs = files.filter((f) => f.startsWith("A2A/log/"));
					for (const f of logs) console.log("LOG", (await fs.readFile(path.join(dir, f), "utf8")).split("\n").filter((l) => l.includes(`| ${s.id} |`) || l.includes(`${s.id}-`)).join("\n"));
					console.log("DECISIONS", allLines.filter((l) => l.includes(`"${s.id}"`) || l.includes(s.id.replace("-", " "))).join("\n"));
				}
				expect(copies.map((c) => c.file), `${s.id} must be in exactly one place: ${JSON.stringify(copies.map((c) => [c.file, c.fm.state, c.fm.delivered_at]))}`).toHaveLength(1);
				const [copy] = copies;
				expect(copy.body === s.body, `${s.id}: payload changed:\n${JSON.stringify(copy.body)}\n!=\n${JSON.stringify(s.body)}`).toBe(true);
				const place = expectRouted(s, sent, copy.file, copy.fm);
				if (place === "answer") answered++;
				else if (place === "archived") archived++;
				else delivered++;
			}
			// Nothing but the sent messages (no copies under other ids, no router responses: nothing failed).
			expect([...byId.keys()].sort()).toEqual(sent.map((s) => s.id).sort());

			// ---- what the routers said -----------------------------------------------------------
			const decisions = allLines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
			const reported = expectReportedOnce(decisions, { skipWritingTemp: true });
			await expectLoggedExactlyOnce(dir, files, sent.map((s) => s.id));

			console.log(
				`[faults-kill] ${sent.length} messages (${MESSAGES} requests, ${answered} answers), ${kills} SIGKILLs; ` +
					`${delivered} delivered, ${archived} answered and archived, ${answered} answers delivered; ` +
					`${midPass} kills in the middle of a pass (${leaseAtKill} holding the lease); ${decisions.length} decisions printed, ${reported.size} messages reported; ` +
					`final a2a route ${final.ms} ms; hidden temp files left by killed writes: ${leftovers.length}; total ${elapsed} ms`,
			);
			// What a killed write can leave behind is only ever a hidden temp file, which every router ignores.
			for (const f of leftovers) expect(f, f).toMatch(/(^|\/)\.[^/]*\.tmp$/);
		} finally {
			await fs.rm(parent, { recursive: true, force: true });
		}
	}, 150_000);
});
