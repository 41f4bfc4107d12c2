import { afterEach, describe, expect, it, vi } from "vitest";
import type { TFile } from "obsidian";
import { ARCHIVED, BOX, REGISTRY, requestNote } from "../helpers/temp-vault";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";

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

/** Obsidian's reads of the paths `failing` holds reject as the file system does (`code`), while it holds them. */
function failReads(booted: Booted, failing: Set<string>, code: string): void {
	const vault = booted.host.app.vault;
	const read = vault.read.bind(vault);
	vi.spyOn(vault, "read").mockImplementation((file: TFile) => (failing.has(file.path) ? Promise.reject(Object.assign(new Error(`${code}: failed`), { code })) : read(file)));
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
		// Routed again while it still cannot be read: not said again.
		await b.plugin.parts.relay.routeNow();
		expect(b.host.notices.filter((n) => n.includes("locked.md"))).toHaveLength(1);
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
});

describe("routing that failed as a whole", () => {
	it("is tried again by itself after a pause, and the note is delivered without another vault event", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const failing = new Set([`${OUT}/ask.md`]);
		failReads(b, failing, "EMFILE");
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "retried-1" }));
		await b.quiet();
		expect(b.host.notices.some((n) => n.startsWith("A2A Relay could not finish routing: EMFILE"))).toBe(true);
		expect(await b.host.exists(`${OUT}/ask.md`)).toBe(true);
		// One timer waits for the retry: no polling meanwhile.
		expect(b.plugin.parts.relay.armedTimers).toBe(1);
		failing.clear();
		// The first pause is 2 s.
		await new Promise((r) => setTimeout(r, 2300));
		await b.quiet();
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "retried-1", state: "delivered" });
	});
});
