import { afterEach, describe, expect, it, vi } from "vitest";
import type { TFile } from "obsidian";
import { ARCHIVED, BOX, REGISTRY, requestNote } from "../helpers/temp-vault";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";
import { fsError } from "../helpers/failing-reads";

// The plugin meets what the CLI meets (test/cli/unreadable-notes.test.ts), in the same words: a
// note that is there but cannot be read (Obsidian's read rejects with the file system's error)
// concerns that note alone; work that failed as a whole is tried again by itself, without waiting
// for a vault event that may never come.

let b: Booted | undefined;
afterEach(async () => {
	vi.restoreAllMocks();
	await b?.host.cleanup();
	b = undefined;
});

const OUT = BOX("10-backend-group", "outbox");
const IN = BOX("20-frontend-group", "inbox");

/** Obsidian's reads of the paths `failing` holds reject as the file system does (`code`) while it holds them, at most `times` times each. */
function failReads(booted: Booted, failing: Set<string>, code: string, times = Infinity): { failed: () => number } {
	const vault = booted.host.app.vault;
	const read = vault.read.bind(vault);
	const failed = new Map<string, number>();
	vi.spyOn(vault, "read").mockImplementation((file: TFile) => {
		if (!failing.has(file.path) || (failed.get(file.path) ?? 0) >= times) return read(file);
		failed.set(file.path, (failed.get(file.path) ?? 0) + 1);
		return Promise.reject(fsError(code));
	});
	return { failed: () => [...failed.values()].reduce((a, n) => a + n, 0) };
}

/** The router's reads of `path` (through its vault port) fail with `code` while `failing` is true, at most `times` times; counts the router's reads of it. */
function failRouterReads(booted: Booted, path: string, code: string, times = Infinity): { failing: boolean; reads: number } {
	const state = { failing: true, reads: 0 };
	const port = booted.plugin.parts.relay.router.port;
	const read = port.read.bind(port);
	let failed = 0;
	port.read = (p, options) => {
		if (p !== path) return read(p, options);
		state.reads++;
		if (!state.failing || failed >= times) return read(p, options);
		failed++;
		return Promise.reject(fsError(code));
	};
	return state;
}

describe("a note Obsidian cannot read", () => {
	it("in an outbox: it stays, one notice says why, the other notes are routed; once it can be read it is routed", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const failing = new Set([`${OUT}/locked.md`]);
		failReads(b, failing, "EACCES");
		await b.host.externalWrite(`${OUT}/locked.md`, requestNote({ message_id: "locked-1" }));
		await b.host.externalWrite(`${OUT}/open.md`, requestNote({ message_id: "open-1" }));
		await b.quiet();
		expect(await b.frontmatter(`${IN}/open.md`)).toMatchObject({ message_id: "open-1", state: "delivered" });
		expect(await b.host.exists(`${OUT}/locked.md`)).toBe(true);
		const said = b.host.notices.filter((n) => n.includes("locked.md"));
		expect(said).toEqual([`A2A Relay could not route ${OUT}/locked.md: it cannot be read (permission denied, EACCES): it stays in its outbox, and is routed once it can be read`]);
		// Routed again while it still cannot be read: not said again (the pass reports no failure).
		expect((await b.plugin.parts.relay.routeNow()).failures).toEqual([]);
		expect((await b.plugin.parts.relay.routeNow()).failures).toEqual([]);
		failing.clear();
		await b.plugin.parts.relay.routeNow();
		expect(await b.frontmatter(`${IN}/locked.md`)).toMatchObject({ message_id: "locked-1", state: "delivered" });
	});

	it("in an archive: the router goes on without it, and a notice says so", async () => {
		const archived = `${ARCHIVED("20-frontend-group")}/old.md`;
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, [archived]: requestNote({ message_id: "old-1", state: "answered" }) }, { layoutReady: false });
		failReads(b, new Set([archived]), "EIO");
		await b.host.setLayoutReady();
		await b.quiet();
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "new-1" }));
		await b.quiet();
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "new-1", state: "delivered" });
		expect(b.host.notices).toContain(`A2A Relay: ${archived} cannot be read (input/output error, EIO): the router goes on without what it says, and reads it again when it next looks at it`);
	});

	it("in an inbox, a delivered request: it stays delivered there (never taken for a note the router did not deliver)", async () => {
		// A request delivered before Obsidian started, which it cannot read at first.
		const delivered = `${IN}/ask.md`;
		const now = Date.now();
		const fields = { message_id: "held-1", state: "delivered", attempt: 1, route: ["10-backend-group", "20-frontend-group"], timeout_seconds: 3600, delivered_at: new Date(now - 60_000).toISOString(), expires_at: new Date(now + 3_540_000).toISOString() };
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, [delivered]: requestNote(fields) }, { layoutReady: false });
		// Busy once: the read when the inboxes are listed fails, the next one would succeed.
		failReads(b, new Set([delivered]), "EBUSY", 1);
		await b.host.setLayoutReady();
		await b.quiet();
		expect(b.host.notices).toContain(`A2A Relay: ${delivered} cannot be read (busy, EBUSY): the router goes on without what it says, and reads it again when it next looks at it`);
		expect(await b.frontmatter(delivered)).toMatchObject({ message_id: "held-1", state: "delivered" });
		await b.plugin.parts.relay.routeNow();
		expect(await b.frontmatter(delivered)).toMatchObject({ message_id: "held-1", state: "delivered" });
		expect(b.files("A2A/dead-letter")).toEqual([]);
		expect(b.files(BOX("10-backend-group", "inbox"))).toEqual([]);
	});

	it("in an inbox, a request coming due: its step is said once while it cannot be read, and taken once it can", async () => {
		const delivered = `${IN}/ask.md`;
		const now = Date.now();
		const fields = { message_id: "due-1", state: "delivered", attempt: 1, route: ["10-backend-group", "20-frontend-group"], timeout_seconds: 1, delivered_at: new Date(now - 60_000).toISOString(), expires_at: new Date(now + 1500).toISOString() };
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, [delivered]: requestNote(fields) });
		const failing = new Set([delivered]);
		failReads(b, failing, "EACCES");
		await new Promise((r) => setTimeout(r, 1600));
		await b.quiet();
		const relay = b.plugin.parts.relay;
		const first = await relay.routeNow();
		const second = await relay.routeNow();
		const said = b.host.notices.filter((n) => n.includes(delivered));
		// Once by its step, once by the index (Route now reads every inbox note again), each while it lasts.
		expect(said.sort()).toEqual([
			`A2A Relay could not route ${delivered}: permission denied, EACCES: it stays as it is, and is tried again at every pass`,
			`A2A Relay: ${delivered} cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`,
		]);
		expect([...first.failures, ...second.failures]).toEqual([]);
		failing.clear();
		await relay.routeNow();
		expect(await b.frontmatter(delivered)).toMatchObject({ message_id: "due-1", state: "retrying", attempt: 2 });
	});
});

describe("routing that failed as a whole", () => {
	it("is tried again by itself after a pause that nothing else ends, keeps the lease, and delivers without another vault event", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		// A lease renewed every 250 ms: its renewal does not end a pause either.
		await b.plugin.parts.settings.update({ syncMarginSeconds: 1 });
		await b.quiet();
		const router = failRouterReads(b, `${OUT}/ask.md`, "EMFILE");
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "retried-1" }));
		await b.quiet();
		expect(b.host.notices.some((n) => n.startsWith("A2A Relay could not finish routing: EMFILE"))).toBe(true);
		expect(await b.host.exists(`${OUT}/ask.md`)).toBe(true);
		// One timer waits for the retry: no polling meanwhile.
		expect(b.plugin.parts.relay.armedTimers).toBe(1);
		// The first pause is 2 s: nothing is tried before it ends (a pass would read the note again).
		await new Promise((r) => setTimeout(r, 1500));
		expect(router.reads).toBe(1);
		const until = async (what: string, ok: () => Promise<boolean> | boolean) => {
			const end = Date.now() + 10_000;
			while (!(await ok())) {
				if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
				await new Promise((r) => setTimeout(r, 50));
			}
		};
		// The retry fails too; the next pause is 4 s, and the lease stays this device's.
		await until("the retry", () => router.reads === 2);
		await new Promise((r) => setTimeout(r, 1000));
		expect(router.reads).toBe(2);
		expect(await b.frontmatter("A2A/router.md")).toMatchObject({ released: false });
		router.failing = false;
		await until("the note to be delivered", () => (b as Booted).host.exists(`${IN}/ask.md`));
		await b.quiet();
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "retried-1", state: "delivered" });
	});

	it("an inbox note changed in place while its read failed is read by the retry", async () => {
		const path = `${IN}/ask.md`;
		const now = Date.now();
		const fields = { message_id: "moved-1", state: "delivered", attempt: 1, route: ["10-backend-group", "20-frontend-group"], timeout_seconds: 3600, delivered_at: new Date(now - 60_000).toISOString(), expires_at: new Date(now + 3_540_000).toISOString() };
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, [path]: requestNote(fields) });
		// Its expiry moved to the past by another writer; the read of that change fails once.
		failRouterReads(b, path, "EMFILE", 1);
		await b.host.externalWrite(path, requestNote({ ...fields, expires_at: new Date(now - 1000).toISOString() }));
		await b.quiet();
		expect(b.host.notices.some((n) => n.startsWith("A2A Relay could not finish routing: EMFILE"))).toBe(true);
		const end = Date.now() + 10_000;
		while ((await b.frontmatter(path)).state !== "retrying" && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
		expect(await b.frontmatter(path)).toMatchObject({ message_id: "moved-1", state: "retrying", attempt: 2 });
	});
});
