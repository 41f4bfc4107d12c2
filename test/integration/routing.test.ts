import { afterEach, describe, expect, it } from "vitest";
import { ARCHIVED, BOX, REGISTRY, requestNote } from "../helpers/temp-vault";
import { bootPlugin } from "./plugin-harness";
import type { Booted } from "./plugin-harness";

// The router inside Obsidian, driven by vault events alone (the fake copies the real app's event
// semantics: outside writes arrive asynchronously, an outside move as delete + create).

let b: Booted | undefined;
afterEach(async () => {
	await b?.host.cleanup();
	b = undefined;
});

const OUT = BOX("10-backend-group", "outbox");
const IN = BOX("20-frontend-group", "inbox");

describe("routing on vault events", () => {
	it("delivers a note another process writes into an outbox, with the router's fields", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "e-1" }));
		await b.quiet();
		expect(await b.host.exists(`${OUT}/ask.md`)).toBe(false);
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "e-1", state: "delivered", attempt: 1, route: ["10-backend-group", "20-frontend-group"] });
		expect(await b.body(`${IN}/ask.md`)).toBe("\n## Question\n\nWhat fields are mandatory?\n");
		expect(b.plugin.parts.relay.recent[0]).toMatchObject({ outcome: "delivered", message_id: "e-1" });
	});

	it("dead-letters a rejected note, answers the sender with an error response, and shows a notice (when asked for notes agents wrote)", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.plugin.parts.settings.update({ noticesForAll: true });
		await b.host.externalWrite(`${OUT}/lost.md`, requestNote({ message_id: "e-2", target_group: "99-none" }));
		await b.quiet();
		expect(await b.frontmatter("A2A/dead-letter/lost.md")).toMatchObject({ state: "dead", error_code: "GROUP_NOT_FOUND" });
		const [response] = b.files(BOX("10-backend-group", "inbox"));
		expect(await b.frontmatter(response)).toMatchObject({ status: "error", error_code: "GROUP_NOT_FOUND", in_reply_to: "e-2" });
		expect(b.host.notices.some((n) => n.includes("lost.md") && n.includes("GROUP_NOT_FOUND"))).toBe(true);
	});

	it("folds a burst of rejections into one summary notice instead of one each", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		// A note that parses but is invalid waits for its writer for the grace period (item 11): a short one here.
		await b.plugin.parts.settings.update({ graceSeconds: 1, noticesForAll: true });
		for (let i = 0; i < 20; i++) await b.host.externalWrite(`${OUT}/bad-${i}.md`, "---\nnot: a message\n---\n");
		await b.quiet();
		// The grace period (1 s), then the notifier's 3 s window in which a burst is folded.
		await new Promise((r) => setTimeout(r, 4500));
		await b.quiet();
		expect(b.files("A2A/dead-letter")).toHaveLength(20);
		const rejectionNotices = b.host.notices.filter((n) => n.includes("rejected"));
		expect(rejectionNotices.length).toBeLessThanOrEqual(2);
		expect(rejectionNotices.some((n) => /\d+ messages were rejected/.test(n)), rejectionNotices.join(" / ")).toBe(true);
	});

	it("routes a note moved into an outbox from outside (delete + create)", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, "Drafts/ask.md": requestNote({ message_id: "e-3" }) });
		await b.host.externalRename("Drafts/ask.md", `${OUT}/ask.md`);
		await b.quiet();
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ message_id: "e-3", state: "delivered" });
	});

	it("does nothing for files outside the A2A folders", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const note = requestNote({ message_id: "e-4" });
		await b.host.externalWrite("Notes/outbox/ask.md", note);
		await b.host.externalWrite("Elsewhere/groups/10-backend-group/outbox/ask.md", note);
		await b.quiet();
		expect(await b.host.read("Notes/outbox/ask.md")).toBe(note);
		expect(await b.host.read("Elsewhere/groups/10-backend-group/outbox/ask.md")).toBe(note);
		expect(b.files("A2A/groups")).toEqual([]);
		expect(b.plugin.parts.relay.recent).toEqual([]);
	});

	it("routes nothing before the layout is ready, and everything pending right after", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY, [`${OUT}/early.md`]: requestNote({ message_id: "e-5" }) }, { layoutReady: false });
		await b.quiet();
		expect(await b.host.exists(`${OUT}/early.md`)).toBe(true);
		await b.host.setLayoutReady();
		await b.quiet();
		expect(await b.frontmatter(`${IN}/early.md`)).toMatchObject({ message_id: "e-5", state: "delivered" });
	});

	it("answers, archives, and never loops on its own writes", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "e-6" }));
		await b.quiet();
		await b.host.externalWrite(`${BOX("20-frontend-group", "outbox")}/re.md`, "---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: e-6\nsource_group: 20-frontend-group\nstatus: success\n---\n\n## Answer\n\nyes\n");
		await b.quiet();
		expect(await b.frontmatter(`${BOX("10-backend-group", "inbox")}/re.md`)).toMatchObject({ state: "delivered", target_group: "10-backend-group" });
		expect(await b.frontmatter(`${ARCHIVED("20-frontend-group")}/ask.md`)).toMatchObject({ state: "answered" });
		const decisions = b.plugin.parts.relay.recent.length;
		await new Promise((r) => setTimeout(r, 300));
		await b.quiet();
		expect(b.plugin.parts.relay.recent.length).toBe(decisions);
		const log = await b.host.read(`A2A/log/${new Date().toISOString().slice(0, 10)}.md`);
		expect(log.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Time") && !l.startsWith("| ---"))).toHaveLength(2);
	});

	it("applies a registry edit at once: a group added while running receives messages", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		await b.host.externalWrite("A2A/registry.yaml", `${REGISTRY}  50-mobile-group:\n    description: Builds the app\n`);
		await b.quiet();
		await b.host.externalWrite(`${OUT}/mobile.md`, requestNote({ message_id: "e-7", target_group: "50-mobile-group" }));
		await b.quiet();
		expect(await b.frontmatter(`${BOX("50-mobile-group", "inbox")}/mobile.md`)).toMatchObject({ state: "delivered" });
	});

	it("makes no folders for a group id still being typed into the registry (Obsidian saves it as it is typed)", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		for (const typed of ["q", "qa", "qa-g"]) {
			await b.host.externalWrite("A2A/registry.yaml", `${REGISTRY}  ${typed}: {}\n`);
			await b.quiet();
		}
		for (const typed of ["q", "qa", "qa-g"]) expect(await b.host.exists(`A2A/groups/${typed}`), typed).toBe(false);
	});

	it("reports registry errors in a notice and keeps the rest of the registry working", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": `${REGISTRY}  "bad id!": {}\n` });
		expect(b.host.notices.some((n) => n.includes("bad id!"))).toBe(true);
		await b.host.externalWrite(`${OUT}/ask.md`, requestNote({ message_id: "e-8" }));
		await b.quiet();
		expect(await b.frontmatter(`${IN}/ask.md`)).toMatchObject({ state: "delivered" });
	});

	it("handles a burst of a thousand files in a few passes, each note in exactly one place", async () => {
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		const writes = [];
		for (let i = 0; i < 1000; i++) {
			writes.push(b.host.externalWrite(`${OUT}/m-${i}.md`, requestNote({ message_id: `burst-${i}`, trace_id: `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000` })));
		}
		await Promise.all(writes);
		await b.quiet();
		expect(b.files(OUT)).toEqual([]);
		expect(b.files(IN)).toHaveLength(1000);
		const logRows = (await b.host.read(`A2A/log/${new Date().toISOString().slice(0, 10)}.md`)).split("\n").filter((l) => l.includes("| delivered |"));
		expect(logRows).toHaveLength(1000);
	}, 120000);

	it("cleans up every event handler and timer on unload; idle, it keeps one timer (the next due time), and an interval only while the sidebar is open", async () => {
		const before = await bootPlugin({});
		const baseline = { listeners: before.host.listenerCount() };
		await before.host.cleanup();
		b = await bootPlugin({ "A2A/registry.yaml": REGISTRY });
		expect(b.host.listenerCount()).toBeGreaterThan(0);
		// The open sidebar refreshes its "3 min ago" times; closed, nothing ticks.
		expect(b.host.activeIntervals()).toBe(1);
		b.host.app.workspace.detachLeavesOfType("a2a-agent-status");
		await b.quiet();
		expect(b.host.activeIntervals()).toBe(0);
		expect(b.plugin.parts.relay.armedTimers).toBe(1);
		await b.host.unloadPlugin(b.plugin);
		expect(b.host.listenerCount()).toBe(0);
		expect(b.host.activeIntervals()).toBe(0);
		expect(b.plugin.parts.relay.armedTimers).toBe(0);
		expect(baseline.listeners).toBeGreaterThan(0);
	});
});
