import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../cli/node-vault";
import { Router } from "../../src/router/router";
import type { VaultPort } from "../../src/router/vault-port";
import { BOX, REGISTRY, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Deliveries share one write of their log rows (src/router/note-writer.ts, TRANSFERS_PER_LOG_WRITE):
// their notes leave the outboxes only once the rows are written. These pin what that may not change:
// a row per delivery, never two, whatever fails or whoever takes over in between.

let v: TempVault;
let now: number;
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	now = T0;
});
afterEach(() => v.cleanup());

const OUT = BOX("10-backend-group", "outbox");
const IN = BOX("20-frontend-group", "inbox");
const trace = (i: number) => `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

async function router(port: VaultPort = new NodeVault(v.dir), clock: () => number = () => now): Promise<Router> {
	const r = new Router(port, { clock });
	await r.loadRegistry();
	await r.indexSync.rescan();
	return r;
}
async function logRows(): Promise<string[]> {
	const out: string[] = [];
	for (const f of (await v.files("A2A/log")).sort()) out.push(...(await v.read(f)).split("\n").filter((l) => /^\| \d\d:/.test(l)).map((l) => `${f.slice(-13)} ${l}`));
	return out;
}

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
		expect(await v.files(BOX("20-frontend-group", "archive"))).toHaveLength(1);
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
