// The plugin's other surfaces: notices for rejected and timed-out messages (only those written in
// this app by default, a burst as one counting notice, a link to where the message is now and a
// Retry… button), the status bar counter, the ribbon menu, the view opening once on first
// install, hover previews and dragging a row into a note.
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { shownMenu } from "../../test-support/fake-obsidian/menu";
import { VIEW_TYPE_AGENT_STATUS } from "../../src/ui/agent-status-view";
import { BACKEND, FRONTEND, boot, box, control, enter, fillAll, filesIn, modal, requestNote, run, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

const NO_RETRIES = EXAMPLE_REGISTRY.replace("retry_attempts: 3", "retry_attempts: 0");
const noticeEls = () => Array.from(document.querySelectorAll<HTMLElement>(".notice-container .notice"));

describe("notices for rejected and timed-out messages", () => {
	it("by default only a message written in this app notifies; its notice links to where it is now and offers Retry…", async () => {
		const lost = requestNote({ from: BACKEND, to: "99-nowhere-group" });
		h = await boot({ registry: NO_RETRIES, settings: { viewShown: true, graceSeconds: 0 } });
		const before = noticeEls().length;
		await h.host.externalWrite(`${box(BACKEND, "outbox")}/lost.md`, lost.text);
		await waitFor("the dead letter", async () => (await filesIn(h as Harness, "A2A/dead-letter")).length === 1);
		await settle(h);
		expect(noticeEls().length).toBe(before);

		// Composed here, with a one-second timeout and no answer: it times out and notifies.
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		fillAll(m, { from: BACKEND, to: FRONTEND, timeout: "1", text: "Anyone?" });
		for (const name of ["from", "to"]) control(m, name).dispatchEvent(new Event("blur"));
		await enter(h, m, "timeout");
		const notice = await waitFor("the timeout notice", () => noticeEls().find((n) => n.textContent?.includes("timed out")), 10_000);
		const dead = (await filesIn(h, "A2A/dead-letter")).find((n) => !n.includes("lost"));
		expect(dead).toBeDefined();
		const link = notice.querySelector<HTMLElement>("a.a2a-notice-link");
		link?.click();
		await settle(h);
		expect(h.host.openedFiles.at(-1)?.path).toBe(`A2A/dead-letter/${dead}`);
		notice.querySelector<HTMLElement>("button.a2a-notice-button")?.click();
		const retry = await modal(h, "Retry undelivered message");
		expect(retry.contentEl.textContent).toContain("TIMEOUT");
		retry.close();
	});

	it("with notices for every message, a burst of rejections is one notice now and one that counts the rest", async () => {
		h = await boot({ settings: { viewShown: true, graceSeconds: 0, noticesForAll: true } });
		const before = noticeEls().length;
		for (let i = 0; i < 4; i++) await h.host.externalWrite(`${box(BACKEND, "outbox")}/lost-${i}.md`, requestNote({ from: BACKEND, to: "99-nowhere-group" }).text);
		await waitFor("four dead letters", async () => (await filesIn(h as Harness, "A2A/dead-letter")).length === 4);
		await settle(h);
		const shown = () => noticeEls().slice(before).map((n) => n.textContent ?? "");
		const counting = await waitFor("the counting notice", () => shown().find((t) => /^\d messages were rejected or timed out\. Latest: /.test(t)), 6000);
		expect(shown().length).toBeLessThanOrEqual(3);
		expect(counting).toContain("GROUP_NOT_FOUND");
		expect(shown().every((t) => t.includes("GROUP_NOT_FOUND"))).toBe(true);
	});
});

describe("the sidebar acts", () => {
	it("shows the flow counts at the top; a dead letter's Retry… opens the retry form; a right-click on a row offers its actions", async () => {
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: requestNote({ from: BACKEND, to: FRONTEND }).text, [`${box(BACKEND, "outbox")}/lost.md`]: requestNote({ from: BACKEND, to: "99-nowhere-group" }).text } });
		run(h, "open-agent-status");
		await settle(h);
		const el = (h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0].view as unknown as { contentEl: HTMLElement }).contentEl;
		const count = (key: string) => el.querySelector(`.a2a-flow-summary [data-count="${key}"]`)?.getAttribute("data-value");
		expect([count("in-flight"), count("overdue"), count("dead")]).toEqual(["1", "0", "1"]);
		// The dead count opens the dead letters.
		(el.querySelector('.a2a-flow-summary [data-count="dead"]') as HTMLElement).click();
		expect(el.querySelector<HTMLDetailsElement>(".a2a-dead-letters")?.open).toBe(true);
		// Its reason is in words, not only on hover; Retry… is right there.
		const dead = el.querySelector<HTMLElement>(".a2a-dead-item");
		expect(dead?.querySelector(".a2a-dead-reason")?.textContent).toContain("99-nowhere-group");
		(dead?.querySelector("button[data-a2a-action=retry]") as HTMLElement).click();
		const retry = await modal(h, "Retry undelivered message");
		expect(retry.contentEl.textContent).toContain("GROUP_NOT_FOUND");
		retry.close();
		// A right-click anywhere on a decision's row: opening, and the message's own actions.
		const row = el.querySelector<HTMLElement>('.a2a-decision[data-outcome="delivered"] .a2a-decision-time');
		row?.dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true }));
		expect(shownMenu()?.titles).toEqual(["Open in new tab", "Open to the right", "Reply…", "Forward…", "Show trace", "Export trace as note"]);
		shownMenu()?.hide();
	});
});

describe("status bar, ribbon, first install, hover and drag", () => {
	it("the status bar is hidden while nothing needs attention (a request waiting for its answer does not)", async () => {
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: requestNote({ from: BACKEND, to: FRONTEND }).text } });
		const bar = h.host.statusBarItems().find((el) => el.hasClass("a2a-status-bar"));
		expect(bar?.textContent).toBe("");
		expect(bar?.hasClass("a2a-hidden")).toBe(true);
	});

	it("the status bar shows only what needs attention (an undelivered message), and opens the view", async () => {
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: requestNote({ from: BACKEND, to: FRONTEND }).text, [`${box(BACKEND, "outbox")}/lost.md`]: requestNote({ from: BACKEND, to: "99-nowhere-group" }).text } });
		const bar = h.host.statusBarItems().find((el) => el.hasClass("a2a-status-bar"));
		expect(bar?.textContent).toBe("1 not delivered");
		expect(bar?.hasClass("a2a-hidden")).toBe(false);
		expect(h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)).toHaveLength(0);
		bar?.click();
		await settle(h);
		expect(h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)).toHaveLength(1);
	});

	it("the ribbon button offers Compose, Route now and Open agent status", async () => {
		h = await boot({ settings: { viewShown: true } });
		const ribbon = h.host.ribbonIcons().find((el) => el.getAttribute("aria-label") === "Agent messages");
		ribbon?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
		const menu = shownMenu();
		expect(menu?.titles).toEqual(["Compose message…", "Route now", "Open agent status"]);
		menu?.items[2]?.dom.click();
		await settle(h);
		expect(h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)).toHaveLength(1);
	});

	it("the view opens by itself once, the first time the plugin runs", async () => {
		h = await boot();
		expect(h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)).toHaveLength(1);
		expect(h.parts.settings.current.viewShown).toBe(true);
		for (const leaf of h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)) leaf.detach();
		await h.host.unloadPlugin(h.plugin);
		const again = await h.host.loadPlugin((h.plugin as unknown as { constructor: never }).constructor, { id: "a2a-relay", name: "A2A Relay" });
		await settle({ ...h, parts: (again as typeof h.plugin).parts, plugin: again as typeof h.plugin });
		expect(h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)).toHaveLength(0);
	});

	it("links preview on hover (Page preview) and drag into a note as a link", async () => {
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: requestNote({ from: BACKEND, to: FRONTEND }).text } });
		expect(h.host.fakeApp.hoverLinkSources.get("a2a-relay")).toMatchObject({ display: "A2A Relay", defaultMod: true });
		run(h, "open-agent-status");
		await settle(h);
		const view = h.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0].view as unknown as { contentEl: HTMLElement };
		const link = view.contentEl.querySelector<HTMLElement>(".a2a-decision a.a2a-note-link");
		const hovered: { linktext: string; source: string }[] = [];
		const ref = h.host.fakeApp.workspace.on("hover-link", (info: { linktext: string; source: string }) => hovered.push(info));
		link?.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
		h.host.fakeApp.workspace.offref(ref);
		const inbox = `${box(FRONTEND, "inbox")}/${(await filesIn(h, box(FRONTEND, "inbox")))[0]}`;
		expect(hovered).toEqual([expect.objectContaining({ linktext: inbox, source: "a2a-relay" })]);
		const data = new DataTransfer();
		// happy-dom drops dataTransfer from the event's init: set it as the browser would.
		const drag = new DragEvent("dragstart", { bubbles: true });
		Object.defineProperty(drag, "dataTransfer", { value: data });
		link?.dispatchEvent(drag);
		expect(data.getData("text/plain")).toMatch(/^\[\[.+\]\]$/);
	});
});
