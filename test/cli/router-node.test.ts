import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import type { VaultPort } from "../../src/router/vault-port";
import { ARCHIVED, BOX, REGISTRY, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

let v: TempVault;
let now: number;
const T0 = Date.parse("2026-03-01T12:00:00.000Z");

beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	now = T0;
});
afterEach(() => v.cleanup());

async function router(port: VaultPort = new NodeVault(v.dir), clock: () => number = () => now): Promise<Router> {
	const r = new Router(port, { clock });
	await r.loadRegistry();
	await r.indexSync.rescan();
	return r;
}

const OUT = BOX("10-backend-group", "outbox");
const IN = BOX("20-frontend-group", "inbox");

describe("timeouts (rule 8)", () => {
	it("retries with doubling timeouts, then dead-letters with TIMEOUT and tells the requester", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "t-1", timeout_seconds: 10 }));
		const r = await router();
		await r.pass();
		expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ attempt: 1, expires_at: "2026-03-01T12:00:10.000Z" });

		now = T0 + 9999;
		expect((await r.pass()).decisions).toEqual([]);

		const schedule: [number, number, string][] = [
			[T0 + 10000, 2, "2026-03-01T12:00:30.000Z"],
			[T0 + 30000, 3, "2026-03-01T12:01:10.000Z"],
			[T0 + 70000, 4, "2026-03-01T12:02:30.000Z"],
		];
		for (const [at, attempt, expires] of schedule) {
			now = at;
			const { decisions } = await r.pass();
			expect(decisions).toMatchObject([{ outcome: "retried", message_id: "t-1" }]);
			expect(await v.frontmatter(`${IN}/ask.md`)).toMatchObject({ state: "retrying", attempt, expires_at: expires });
		}
		now = T0 + 150001;
		const { decisions } = await r.pass();
		expect(decisions).toMatchObject([{ outcome: "timed_out", error_code: "TIMEOUT", path: "A2A/dead-letter/ask.md" }]);
		expect(await v.frontmatter("A2A/dead-letter/ask.md")).toMatchObject({ state: "timed_out", error_code: "TIMEOUT", attempt: 4 });
		const [response] = await v.files(BOX("10-backend-group", "inbox"));
		expect(await v.frontmatter(response)).toMatchObject({ status: "timeout", error_code: "TIMEOUT", in_reply_to: "t-1", target_group: "10-backend-group" });
		expect(await v.files(IN)).toEqual([]);
	});

	it("does not time out a request whose answer arrived; it is archived instead", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "t-2" }));
		const r = await router();
		await r.pass();
		await v.write(`${BOX("20-frontend-group", "outbox")}/ok.md`, "---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: t-2\nsource_group: 20-frontend-group\nstatus: success\n---\n## Answer\n\nyes\n");
		now = T0 + 5000;
		await r.pass();
		now = T0 + 10 * 60000;
		expect((await r.pass()).decisions).toEqual([]);
		expect(await v.frontmatter(`${ARCHIVED("20-frontend-group", new Date(T0))}/ask.md`)).toMatchObject({ state: "answered" });
	});
});

/** A port whose writes fail after `limit` mutating calls: a crash between two steps of routing. */
function crashingPort(inner: VaultPort, limit: number): VaultPort & { crashed(): boolean } {
	let calls = 0;
	const mutating = new Set(["create", "move", "replace", "remove", "transfer", "append"]);
	return new Proxy(inner as VaultPort & { crashed(): boolean }, {
		get(target, prop, receiver) {
			if (prop === "crashed") return () => calls > limit;
			const value = Reflect.get(target, prop, receiver) as unknown;
			if (typeof value !== "function") return value;
			return (...args: unknown[]) => {
				if (mutating.has(String(prop)) && ++calls > limit) return Promise.reject(new Error(`crash after ${limit} steps`));
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}

async function scenario(): Promise<void> {
	await v.write(`${OUT}/ask.md`, requestNote({ message_id: "c-ok" }));
	await v.write(`${OUT}/lost.md`, requestNote({ message_id: "c-lost", target_group: "99-none", trace_id: "66666666-6666-4666-8666-666666666666" }));
	await v.write(`${OUT}/broken.md`, "---\nthis: [is not yaml\n---\nbody\n");
	await v.write(`${BOX("20-frontend-group", "inbox")}/earlier.md`, requestNote({ message_id: "c-earlier", trace_id: "77777777-7777-4777-8777-777777777777", state: "delivered", delivered_at: "2026-03-01T11:59:00.000Z", expires_at: "2026-03-01T11:59:30.000Z", attempt: 4, route: ["10-backend-group", "20-frontend-group"] }));
	await v.write(`${BOX("20-frontend-group", "outbox")}/reply.md`, "---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: c-ok\nsource_group: 20-frontend-group\nstatus: success\n---\n## Answer\n\nfine\n");
}

/** Where every note ended, by its file name; router responses are keyed by the note they answer. */
async function outcome(): Promise<Record<string, string[]>> {
	const notes: { file: string; fm: Record<string, unknown> }[] = [];
	for (const file of await v.files("A2A")) {
		if (!file.endsWith(".md") || file.includes("/log/")) continue;
		try {
			notes.push({ file, fm: await v.frontmatter(file) });
		} catch (error) {
			throw new Error(`${file} does not parse: ${(error as Error).message}\n${await v.read(file)}`);
		}
	}
	const nameOfId = new Map(notes.map(({ file, fm }) => [String(fm.message_id), file.split("/").pop() as string]));
	const places: Record<string, string[]> = {};
	for (const { file, fm } of notes) {
		const name = file.split("/").pop() as string;
		const key = fm.error_code && fm.kind === "response" ? `response-to:${nameOfId.get(String(fm.in_reply_to)) ?? "?"}` : name;
		(places[key] ??= []).push(`${file.split("/").slice(0, -1).join("/")}:${String(fm.state)}`);
	}
	for (const list of Object.values(places)) list.sort();
	return places;
}

describe("crash safety", () => {
	it("a pass that stops while the rows of its last deliveries wait to be written leaves them to the next pass: each logged once, each note in one place", async () => {
		const count = 100;
		for (let i = 0; i < count; i++) {
			const trace = `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-00000000000${i % 10}`;
			await v.write(`${OUT}/ask ${i}.md`, requestNote({ message_id: `kept-${i}`, trace_id: trace }));
		}
		// The first append of log rows never returns: the process stops there, its copies made.
		const stopping = new NodeVault(v.dir);
		let appends = 0;
		stopping.append = () => {
			appends++;
			return new Promise<never>(() => undefined);
		};
		void (await router(stopping)).pass();
		for (let waited = 0; appends === 0 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
		expect(appends).toBe(1);
		expect((await v.files(IN)).length).toBeGreaterThan(1);
		expect((await v.files(OUT)).length).toBe(count);
		expect(await v.files("A2A/log")).toEqual([]);

		const report = await (await router()).pass();
		expect(report.failures).toEqual([]);
		expect((await v.files(IN)).length).toBe(count);
		expect(await v.files(OUT)).toEqual([]);
		const [log] = await v.files("A2A/log");
		const rows = (await v.read(log)).split("\n").filter((line) => line.includes("| delivered |") || line.includes("| duplicate |"));
		const ids = rows.map((line) => /kept-\d+/.exec(line)?.[0]);
		expect(rows.every((line) => line.includes("| delivered |"))).toBe(true);
		expect(new Set(ids).size).toBe(count);
		expect(ids).toHaveLength(count);
	});

	it("finishes every interrupted step on the next sweep: nothing lost, nothing twice", async () => {
		await scenario();
		await (await router()).pass();
		const expected = await outcome();
		expect(Object.keys(expected).length).toBeGreaterThanOrEqual(7);
		let steps = 0;
		for (let limit = 0; ; limit++) {
			await v.cleanup();
			v = await makeTempVault();
			await v.write("A2A/registry.yaml", REGISTRY);
			await scenario();
			// The router reports a failed step and goes on with the next note (one bad file never stops
			// it), but after the crash point every write fails: the vault is left as a crash leaves it.
			const port = crashingPort(new NodeVault(v.dir), limit);
			const crashing = await router(port);
			await crashing.pass().catch(() => undefined);
			const crashed = port.crashed();
			expect((await (await router()).pass()).busy).toBe(false);
			await (await router()).pass();
			const got = await outcome();
			expect({ limit, got }).toEqual({ limit, got: expected });
			if (!crashed) break;
			steps++;
		}
		expect(steps).toBeGreaterThan(10);
	});
});

const trace = (i: number) => `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

async function logRows(): Promise<string[]> {
	const out: string[] = [];
	for (const f of (await v.files("A2A/log")).sort()) out.push(...(await v.read(f)).split("\n").filter((l) => /^\| \d\d:/.test(l)).map((l) => `${f.slice(-13)} ${l}`));
	return out;
}

// Deliveries share one write of their log rows (src/router/note-writer.ts, TRANSFERS_PER_LOG_WRITE):
// their notes leave the outboxes only once the rows are written. These pin what that may not change:
// a row per delivery, never two, whatever fails or whoever takes over in between.
describe("batched log rows", () => {
	it("a log append that fails once is tried again row by row: no row lost, every note moved in the same pass", async () => {
		for (let i = 0; i < 10; i++) await v.write(`${OUT}/ask ${i}.md`, requestNote({ message_id: `fail-${i}`, trace_id: trace(i) }));
		const port = new NodeVault(v.dir);
		const append = port.append.bind(port);
		let appends = 0;
		port.append = async (...args) => {
			if (appends++ === 0) throw new Error("EBUSY: resource busy or locked (the log is open elsewhere)");
			return append(...args);
		};
		const r = await router(port);
		const report = await r.pass();
		expect(report.warnings).toEqual([]);
		expect((await v.files(IN)).length).toBe(10);
		expect(await v.files(OUT)).toEqual([]);
		const rows = await logRows();
		expect(rows).toHaveLength(10);
		expect(new Set(rows.map((row) => /fail-\d+/.exec(row)?.[0])).size).toBe(10);
	});

	it("rows of two days in one batch go each to its day's log, in order", async () => {
		for (let i = 0; i < 6; i++) await v.write(`${OUT}/ask ${i}.md`, requestNote({ message_id: `day-${i}`, trace_id: trace(i) }));
		let t = Date.parse("2026-03-01T23:59:59.000Z");
		const report = await (await router(new NodeVault(v.dir), () => (t += 100))).pass();
		expect(report.decisions.filter((d) => d.outcome === "delivered")).toHaveLength(6);
		const rows = await logRows();
		for (const row of rows) {
			const day = row.slice(0, 10);
			expect(row.includes("| 23:59:") ? day === "2026-03-01" : day === "2026-03-02", row).toBe(true);
		}
		expect(rows).toHaveLength(6);
	});

	it("a response that answers a request delivered earlier in the same batch: the request is delivered, logged, and archived", async () => {
		await v.write(`${OUT}/ask 0.md`, requestNote({ message_id: "req-0", trace_id: trace(0) }));
		await v.write(`${OUT}/ask 1.md`, requestNote({ message_id: "req-1", trace_id: trace(1) }));
		const FOUT = BOX("20-frontend-group", "outbox");
		await v.write(`${FOUT}/re 0.md`, `---\nmessage_id: resp-0\ntrace_id: ${trace(0)}\nin_reply_to: req-0\nsource_group: 20-frontend-group\ntarget_group: 10-backend-group\nstatus: success\n---\n\n## Answer\n\nyes\n`);
		const report = await (await router()).pass();
		expect(report.failures).toEqual([]);
		expect(await v.files(OUT)).toEqual([]);
		expect(await v.files(FOUT)).toEqual([]);
		expect(report.decisions.map((d) => `${d.outcome} ${d.message_id}`).sort()).toEqual(["answered resp-0", "delivered req-0", "delivered req-1"]);
		expect(await v.files(ARCHIVED("20-frontend-group", new Date(T0)))).toHaveLength(1);
		expect((await logRows()).map((row) => row.split(" | ")[2]).sort()).toEqual(["answered", "delivered", "delivered"]);
	});

	it("two notes of one message_id in one batch: one delivered, the other refused, each row once", async () => {
		await v.write(`${OUT}/a.md`, requestNote({ message_id: "same", trace_id: trace(0) }));
		await v.write(`${OUT}/b.md`, requestNote({ message_id: "same", trace_id: trace(0) }));
		await v.write(`${OUT}/same.md`, requestNote({ message_id: "same", trace_id: trace(0) }));
		const report = await (await router()).pass();
		expect(report.decisions.filter((d) => d.outcome === "delivered")).toHaveLength(1);
		expect(await v.files(OUT)).toEqual([]);
		expect(await logRows()).toHaveLength(report.decisions.length);
	});

	it("a router that lost the lease while rows were kept leaves those deliveries to the new holder: each logged once", async () => {
		for (let i = 0; i < 3; i++) {
			const trace = `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-00000000000${i}`;
			await v.write(`${OUT}/ask ${i}.md`, requestNote({ message_id: `lease-${i}`, trace_id: trace }));
		}
		const marginMs = 1000;
		let monoA = 1_000_000;
		let monoB = 1_000_000;
		const portA = new NodeVault(v.dir);
		const a = new Router(portA, { marginMs, clock: () => T0, monotonic: () => monoA, identity: { device: "device-a", name: "router A", yields: false } });
		const b = new Router(new NodeVault(v.dir), { marginMs, clock: () => T0 + 5000, monotonic: () => monoB, identity: { device: "device-b", name: "router B", yields: false } });
		await a.loadRegistry();
		await b.loadRegistry();
		const original = portA.transfer.bind(portA);
		let transfers = 0;
		const afterTakeover: string[] = [];
		portA.transfer = async (...args) => {
			const result = await original(...args);
			if (++transfers === 1) {
				// A stalls (slow disk, laptop lid closed) longer than the margin; B takes over and routes.
				await b.lease.ensure();
				monoB += marginMs + 1;
				monoA += marginMs + 1;
				const rb = await b.pass();
				afterTakeover.push(...rb.decisions.map((d) => `${d.outcome} ${d.message_id} ${d.reason ?? ""}`));
			}
			return result;
		};
		await a.pass();
		expect(afterTakeover.length).toBeGreaterThan(0);
		expect(a.lease.state().held).toBe(false);
		expect(await v.files(OUT)).toEqual([]);
		expect(await v.files(IN)).toHaveLength(3);
		const rows = await logRows();
		// B finished lease-0, which A had copied before it stalled, and delivered the others; A wrote nothing more.
		expect(afterTakeover).toEqual(["delivered lease-0 finished after an interruption", "delivered lease-1 ", "delivered lease-2 "]);
		for (let i = 0; i < 3; i++) expect(rows.filter((row) => row.includes(`| lease-${i} |`)), rows.join("\n")).toHaveLength(1);
	});
});
