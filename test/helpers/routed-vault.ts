import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect } from "vitest";
import { BOX, REGISTRY } from "./temp-vault";

// A vault on disk that routers race or crash over (the faults-kill, faults-two-routers and
// faults-plugin-and-cli tests), and the checks they share on where every message ended up.

/** The groups of REGISTRY. */
export const GROUPS = ["10-backend-group", "20-frontend-group", "30-devops-group", "40-security-group"];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `parent/vault` in a new temp folder, with REGISTRY and every group's inbox, outbox and archive. */
export async function makeRoutedVault(prefix: string): Promise<{ parent: string; dir: string }> {
	const parent = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
	const dir = path.join(parent, "vault");
	await fs.mkdir(path.join(dir, "A2A"), { recursive: true });
	await fs.writeFile(path.join(dir, "A2A/registry.yaml"), REGISTRY);
	for (const g of GROUPS) for (const b of ["inbox", "outbox", "archive"] as const) await fs.mkdir(path.join(dir, BOX(g, b)), { recursive: true });
	return { parent, dir };
}

/** Every file below `dir` (hidden ones too), relative to it with `/`, in no particular order. */
export async function walk(dir: string, rel = ""): Promise<string[]> {
	const out: string[] = [];
	for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => [])) {
		const r = rel ? `${rel}/${e.name}` : e.name;
		if (e.isDirectory()) out.push(...(await walk(dir, r)));
		else out.push(r);
	}
	return out;
}

/** Writes a note the way a careful agent does: a hidden temp file in the same folder, then a rename. */
export async function atomicWrite(dir: string, rel: string, text: string): Promise<void> {
	const full = path.join(dir, ...rel.split("/"));
	const temp = path.join(path.dirname(full), `.${path.basename(full)}.writing`);
	await fs.writeFile(temp, text, "utf8");
	await fs.rename(temp, full);
}

/** Visible notes left in the outboxes of GROUPS. */
export async function outboxCount(dir: string): Promise<number> {
	let n = 0;
	for (const g of GROUPS) n += (await fs.readdir(path.join(dir, BOX(g, "outbox"))).catch(() => [] as string[])).filter((f) => !f.startsWith(".")).length;
	return n;
}

/** A message a test sent: `answers` is set on a response, to the id of the request it answers. */
export interface RoutedMessage {
	id: string;
	from: string;
	to: string;
	answers?: string;
}

/**
 * Checks where a routed message landed and how it is stamped: a response delivered to its target's
 * inbox; a request that was answered (some message of `sent` answers it) archived by its target;
 * any other request delivered to its target's inbox on the first attempt. Says which it was.
 */
export function expectRouted(s: RoutedMessage, sent: readonly RoutedMessage[], file: string, fm: Record<string, unknown>): "answer" | "archived" | "delivered" {
	if (s.answers !== undefined) {
		expect(file.startsWith(`${BOX(s.to, "inbox")}/`), `${s.id} in ${file}`).toBe(true);
		expect(fm).toMatchObject({ state: "delivered", in_reply_to: s.answers, target_group: s.to });
		return "answer";
	}
	if (sent.some((r) => r.answers === s.id)) {
		expect(file.startsWith(`${BOX(s.to, "archive")}/`), `${s.id} (answered) in ${file}`).toBe(true);
		expect(fm).toMatchObject({ state: "answered", attempt: 1, route: [s.from, s.to] });
		return "archived";
	}
	expect(file.startsWith(`${BOX(s.to, "inbox")}/`), `${s.id} in ${file}`).toBe(true);
	expect(fm).toMatchObject({ state: "delivered", attempt: 1, route: [s.from, s.to] });
	return "delivered";
}

/**
 * Every decision a router printed must be a delivery or an answer, and no message reported twice.
 * With `skipWritingTemp`, an agent's hidden temp file (`.name.writing`) reported ignored is passed
 * over (a router listing an outbox while it is there). Returns the messages reported, by id.
 */
export function expectReportedOnce(decisions: readonly Record<string, unknown>[], options: { skipWritingTemp?: boolean } = {}): Map<string, number> {
	const reported = new Map<string, number>();
	for (const d of decisions) {
		if (options.skipWritingTemp && d.outcome === "ignored" && /\/\.[^/]*\.writing$/.test(String(d.path))) continue;
		expect(["delivered", "answered"], JSON.stringify(d)).toContain(d.outcome);
		const id = String(d.message_id);
		reported.set(id, (reported.get(id) ?? 0) + 1);
	}
	for (const [id, n] of reported) expect(n, `${id} reported ${n} times`).toBe(1);
	return reported;
}

/** Every message has exactly one row in the routing logs (A2A/log/) among `files` (from `walk(dir)`). */
export async function expectLoggedExactlyOnce(dir: string, files: readonly string[], ids: readonly string[]): Promise<void> {
	const logs = files.filter((f) => f.startsWith("A2A/log/"));
	const rows = (await Promise.all(logs.map((f) => fs.readFile(path.join(dir, f), "utf8")))).join("").split("\n");
	for (const id of ids) {
		const mine = rows.filter((r) => r.includes(`| ${id} |`));
		expect(mine.length, `${id} logged ${mine.length} times:\n${mine.join("\n")}`).toBe(1);
	}
}

/** No message has more than one row in the routing logs (A2A/log/) among `files` (from `walk(dir)`). */
export async function expectLoggedAtMostOnce(dir: string, files: readonly string[], ids: readonly string[]): Promise<void> {
	const logs = files.filter((f) => f.startsWith("A2A/log/"));
	const rows = (await Promise.all(logs.map((f) => fs.readFile(path.join(dir, f), "utf8")))).join("").split("\n");
	for (const id of ids) {
		const mine = rows.filter((r) => r.includes(`| ${id} |`));
		expect(mine.length, `${id} logged ${mine.length} times:\n${mine.join("\n")}`).toBeLessThanOrEqual(1);
	}
}
