// Every link the plugin draws names a message as it was when the link was made, and the router
// moves notes on within milliseconds. These tests click every link of the sidebar and of the
// notices after the notes have moved: nothing is ever created, and each link opens the message
// where it is now (or says it is gone). Names with `#` open the file itself.
import { afterEach, describe, expect, it } from "vitest";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS } from "../../src/ui/agent-status-view";
import { BACKEND, FRONTEND, activate, boot, archiveOf, box, control, enter, fill, fillAll, filesIn, modal, onlyFileIn, requestNote, run, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

/** Every file of the vault (not the config folder), sorted. */
function vaultFiles(harness: Harness): string[] {
	return harness.host.app.vault
		.getFiles()
		.map((f) => f.path)
		.sort();
}

async function openView(harness: Harness): Promise<HTMLElement> {
	run(harness, "open-agent-status");
	await settle(harness);
	const view = harness.host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0]?.view;
	expect(view).toBeInstanceOf(AgentStatusView);
	return (view as AgentStatusView).contentEl;
}

/** Where the message with this id is now (the index), for a link that names it. */
function currentPaths(harness: Harness, messageId: string): string[] {
	return harness.parts.relay.router.index.withId(messageId).map((e) => e.path);
}

async function answer(harness: Harness, inboxPath: string): Promise<void> {
	await activate(harness, inboxPath);
	run(harness, "reply-to-message");
	const reply = await modal(harness, "Reply to message");
	fill(control(reply, "answer"), "Email and password");
	await enter(harness, reply, "status");
	await activate(harness, null);
	await settle(harness);
}

describe("links in the sidebar", () => {
	it("open each message where it is now after the router moved it on, and create nothing", async () => {
		const ask = requestNote({ from: BACKEND, to: FRONTEND });
		const lost = requestNote({ from: BACKEND, to: "99-nowhere-group" });
		h = await boot({
			settings: { viewShown: true },
			files: {
				[`${box(BACKEND, "outbox")}/ask.md`]: ask.text,
				[`${box(BACKEND, "outbox")}/lost.md`]: lost.text,
				"A2A/agents/Issue #42.md": "---\nagent_id: issue-42\nstatus: running\n---\n# Issue #42\n",
			},
		});
		const el = await openView(h);
		const inboxPath = await onlyFileIn(h, box(FRONTEND, "inbox"));
		// The links were drawn while the request sat in the frontend's inbox.
		const decisionLink = () => el.querySelector<HTMLElement>(`.a2a-decision a.a2a-note-link[data-message-id="${ask.messageId}"]`);
		expect(decisionLink()?.getAttribute("data-path")).toBe(inboxPath);

		// The request is answered: the router archives it and delivers the response.
		await answer(h, inboxPath);
		const archived = await onlyFileIn(h, archiveOf(FRONTEND));
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toEqual([]);
		const before = vaultFiles(h);

		// The section may be drawn again while we click (each link is looked up afresh by its place).
		const count = el.querySelectorAll("a.a2a-note-link").length;
		expect(count).toBeGreaterThanOrEqual(5);
		for (let i = 0; i < count; i++) {
			const link = el.querySelectorAll<HTMLElement>("a.a2a-note-link")[i];
			const opened = h.host.openedFiles.length;
			link.click();
			await settle(h);
			const id = link.getAttribute("data-message-id");
			const target = h.host.openedFiles.at(-1)?.path;
			expect(h.host.openedFiles.length, link.textContent ?? "").toBe(opened + 1);
			if (id) expect(currentPaths(h, id), link.textContent ?? "").toContain(target);
			else expect(h.host.app.vault.getFileByPath(target ?? ""), link.textContent ?? "").not.toBeNull();
			expect(vaultFiles(h), `after clicking ${link.textContent}`).toEqual(before);
		}
		// The stale link of the answered request opened the archived note, not an empty new one.
		decisionLink()?.click();
		await settle(h);
		expect(h.host.openedFiles.at(-1)?.path).toBe(archived);
		expect(h.host.openedLinks).toEqual([]);
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toEqual([]);

		// A name with `#` opens that very file.
		el.querySelector<HTMLElement>('.a2a-agent-row[data-agent="issue-42"] a.a2a-agent-name')?.click();
		await settle(h);
		expect(h.host.openedFiles.at(-1)?.path).toBe("A2A/agents/Issue #42.md");
		expect(vaultFiles(h)).toEqual(before);
	});

	it("say so when a message is gone, without creating it", async () => {
		const ask = requestNote({ from: BACKEND, to: FRONTEND });
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: ask.text } });
		const el = await openView(h);
		const inboxPath = await onlyFileIn(h, box(FRONTEND, "inbox"));
		await h.host.externalDelete(inboxPath);
		await settle(h);
		const before = vaultFiles(h);
		el.querySelector<HTMLElement>(`.a2a-decision a.a2a-note-link[data-message-id="${ask.messageId}"]`)?.click();
		await settle(h);
		expect(vaultFiles(h)).toEqual(before);
		expect(h.host.notices.at(-1)).toMatch(/is no longer in the vault\.$/);
	});

	it("after a restart the latest decisions come from the routing log, and their links still find the moved notes", async () => {
		const ask = requestNote({ from: BACKEND, to: FRONTEND });
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: ask.text } });
		const inboxPath = await onlyFileIn(h, box(FRONTEND, "inbox"));
		await answer(h, inboxPath);
		const archived = await onlyFileIn(h, archiveOf(FRONTEND));
		// This session's decisions are forgotten (as after a restart): the view reads the log.
		h.parts.relay.recent.length = 0;
		const el = await openView(h);
		const link = await waitFor("a log row for the request", () => el.querySelector<HTMLElement>(`.a2a-decision a.a2a-note-link[data-message-id="${ask.messageId}"]`));
		expect(link.hasAttribute("data-path")).toBe(false);
		const before = vaultFiles(h);
		link.click();
		await settle(h);
		expect(h.host.openedFiles.at(-1)?.path).toBe(archived);
		expect(vaultFiles(h)).toEqual(before);
		// The row shows what became of the message since.
		expect(link.closest(".a2a-decision")?.querySelector(".a2a-state")?.textContent).toBe("answered");
	});
});

describe("links in notices", () => {
	it("the Request written notice opens the request where the router delivered it", async () => {
		h = await boot({ settings: { viewShown: true, graceSeconds: 0 } });
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		fillAll(m, { from: BACKEND, to: FRONTEND, text: "Which fields?" });
		for (const name of ["from", "to"]) control(m, name).dispatchEvent(new Event("blur"));
		await enter(h, m, "timeout");
		const delivered = await waitFor("the delivered request", async () => (await filesIn(h as Harness, box(FRONTEND, "inbox")))[0], 10_000);
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual([]);
		const before = vaultFiles(h);
		const link = Array.from(document.querySelectorAll<HTMLElement>(".notice-container a.a2a-notice-link")).at(-1);
		expect(link?.getAttribute("data-path")).toMatch(new RegExp(`^${box(BACKEND, "outbox")}/`));
		link?.click();
		await settle(h);
		expect(h.host.openedFiles.at(-1)?.path).toBe(`${box(FRONTEND, "inbox")}/${delivered}`);
		expect(vaultFiles(h)).toEqual(before);
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual([]);
	});
});

describe("links in the trace view", () => {
	it("open each message of the conversation where it is now after the router moved it on, and create nothing", async () => {
		const ask = requestNote({ from: BACKEND, to: FRONTEND });
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: ask.text } });
		const inboxPath = await onlyFileIn(h, box(FRONTEND, "inbox"));
		await activate(h, inboxPath);
		expect(run(h, "show-trace")).toBe(true);
		await settle(h);
		const el = (h.host.app.workspace.getLeavesOfType("a2a-trace")[0]?.view as unknown as { contentEl: HTMLElement }).contentEl;
		await waitFor("the request in the trace", () => el.querySelector(`a.a2a-note-link[data-message-id="${ask.messageId}"]`));
		// The trace's links as they were drawn while the request sat in the inbox.
		const drawnBefore = Array.from(el.querySelectorAll<HTMLElement>("a.a2a-note-link")).map((a) => a.cloneNode(true) as HTMLElement);
		expect(drawnBefore.map((a) => a.getAttribute("data-path"))).toEqual([inboxPath]);

		// Answered: the router archives the request and delivers the response, and the trace follows.
		await answer(h, inboxPath);
		const archived = await onlyFileIn(h, archiveOf(FRONTEND));
		const response = await onlyFileIn(h, box(BACKEND, "inbox"));
		await waitFor("the response in the trace", () => el.querySelectorAll(".a2a-trace-row").length === 2);
		expect(await h.host.exists(inboxPath)).toBe(false);
		// A link drawn before the move, clicked after it (the view had not drawn again yet).
		const stale = el.createDiv({ cls: "a2a-stale-links" });
		for (const link of drawnBefore) stale.appendChild(link);
		const before = vaultFiles(h);

		const links = () => Array.from(el.querySelectorAll<HTMLElement>("a.a2a-note-link"));
		expect(links().map((a) => a.getAttribute("data-path"))).toEqual([archived, response, inboxPath]);
		const opened: string[] = [];
		// Opening a note of the trace draws it again (it follows the active note): each link is
		// looked up afresh by its place.
		for (let i = 0; i < 3; i++) {
			const link = links()[i];
			const count = h.host.openedFiles.length;
			link.click();
			await settle(h);
			expect(h.host.openedFiles.length, link.textContent ?? "").toBe(count + 1);
			const target = h.host.openedFiles.at(-1)?.path ?? "";
			expect(currentPaths(h, link.getAttribute("data-message-id") ?? ""), link.textContent ?? "").toContain(target);
			expect(vaultFiles(h), `after clicking ${link.textContent}`).toEqual(before);
			opened.push(target);
		}
		expect(opened).toEqual([archived, response, archived]);
		expect(h.host.openedLinks).toEqual([]);
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toEqual([]);
	});
});
