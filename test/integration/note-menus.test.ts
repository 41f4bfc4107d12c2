// A note's actions where the user is: its file menu, the editor's menu and its view's header. The
// tests open the menu of a delivered request, an answered one, a dead letter and an agent note,
// and run each offered action through to the file it writes.
import { afterEach, describe, expect, it } from "vitest";
import type { Menu } from "../../test-support/fake-obsidian/menu";
import { MenuItem } from "../../test-support/fake-obsidian/menu";
import { VIEW_TYPE_TRACE } from "../../src/ui/trace/trace-view";
import { BACKEND, DEVOPS, FRONTEND, activate, boot, archiveOf, box, control, enter, fill, fillAll, filesIn, frontmatter, isOpen, modal, onlyFileIn, requestNote, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

const AGENT = "A2A/agents/alpha.md";

function item(menu: Menu, title: string): MenuItem {
	const found = menu.items.find((i): i is MenuItem => i instanceof MenuItem && i.title === title);
	if (!found) throw new Error(`no menu item "${title}" in [${menu.titles.join(", ")}]`);
	return found;
}

/** Clicks a menu item and waits for what it started. */
async function pick(harness: Harness, menu: Menu, title: string): Promise<void> {
	item(menu, title).handleEvent(new MouseEvent("click"));
	await settle(harness);
}

const ACTION_TITLES = ["Reply…", "Forward…", "Retry…", "Show trace", "Export trace as note", "Set status…", "Append finding…"];
const actionsOf = (menu: Menu) => menu.titles.filter((t) => ACTION_TITLES.includes(t));

async function bootVault(): Promise<{ harness: Harness; inboxPath: string; deadPath: string; traceId: string }> {
	const ask = requestNote({ from: BACKEND, to: FRONTEND });
	const lost = requestNote({ from: BACKEND, to: "99-nowhere-group" });
	const harness = await boot({
		settings: { viewShown: true, graceSeconds: 0 },
		files: {
			[`${box(BACKEND, "outbox")}/ask.md`]: ask.text,
			[`${box(BACKEND, "outbox")}/lost.md`]: lost.text,
			[AGENT]: "---\nagent_id: alpha\nstatus: active\nprogress_percent: 10\n---\n# alpha\n",
		},
	});
	return { harness, inboxPath: await onlyFileIn(harness, box(FRONTEND, "inbox")), deadPath: await onlyFileIn(harness, "A2A/dead-letter"), traceId: ask.traceId };
}

describe("the file menu of a message or agent note", () => {
	it("a delivered request: Reply… and Forward… write their notes, Show trace opens the trace, Export trace writes a note and never overwrites", async () => {
		const { harness, inboxPath, traceId } = await bootVault();
		h = harness;
		const menu = h.host.fileMenu(h.host.file(inboxPath));
		expect(actionsOf(menu)).toEqual(["Reply…", "Forward…", "Show trace", "Export trace as note"]);

		await pick(h, h.host.fileMenu(h.host.file(inboxPath)), "Forward…");
		const forward = await modal(h, "Forward message");
		fillAll(forward, { to: DEVOPS, note: "Ops knows" });
		control(forward, "to").dispatchEvent(new Event("blur"));
		await enter(h, forward, "to");
		expect(isOpen(forward)).toBe(false);
		const forwarded = await waitFor("the forward in the devops inbox", async () => (await filesIn(h as Harness, box(DEVOPS, "inbox")))[0]);
		expect(await frontmatter(h, `${box(DEVOPS, "inbox")}/${forwarded}`)).toMatchObject({ trace_id: traceId, source_group: FRONTEND, target_group: DEVOPS, hop_count: 1 });

		await pick(h, h.host.fileMenu(h.host.file(inboxPath)), "Reply…");
		const reply = await modal(h, "Reply to message");
		fill(control(reply, "answer"), "Email and password");
		await enter(h, reply, "status");
		const response = await waitFor("the response in the backend inbox", async () => (await filesIn(h as Harness, box(BACKEND, "inbox"))).find((n) => n !== undefined && !n.includes("error")));
		expect(await frontmatter(h, `${box(BACKEND, "inbox")}/${response}`)).toMatchObject({ kind: "response", trace_id: traceId, status: "success" });

		await pick(h, menu, "Show trace");
		const traceLeaf = h.host.app.workspace.getLeavesOfType(VIEW_TYPE_TRACE)[0];
		expect(traceLeaf?.view.getState()).toMatchObject({ traceId });

		const archived = await onlyFileIn(h, archiveOf(FRONTEND));
		await pick(h, h.host.fileMenu(h.host.file(archived)), "Export trace as note");
		await pick(h, h.host.fileMenu(h.host.file(archived)), "Export trace as note");
		const exported = await filesIn(h, "A2A/traces");
		expect(exported).toHaveLength(2);
		const first = await h.host.read(`A2A/traces/${exported[0]}`);
		expect(first).toContain("```mermaid\nsequenceDiagram");
		expect(first).toContain(`| 1 | `);
		expect(first).toContain(`trace: "${traceId}"`);
		expect(await h.host.read(`A2A/traces/${exported[1]}`)).not.toBe("");
	});

	it("an answered request offers the trace only; a dead letter offers Retry…, which puts it back into the sender's outbox", async () => {
		const { harness, inboxPath, deadPath } = await bootVault();
		h = harness;
		await activate(h, inboxPath);
		h.host.executeCommand("a2a-relay:reply-to-message");
		const reply = await modal(h, "Reply to message");
		fill(control(reply, "answer"), "Done");
		await enter(h, reply, "status");
		await activate(h, null);
		const archived = await waitFor("the archived request", async () => (await filesIn(h as Harness, archiveOf(FRONTEND)))[0]);
		expect(actionsOf(h.host.fileMenu(h.host.file(`${archiveOf(FRONTEND)}/${archived}`)))).toEqual(["Show trace", "Export trace as note"]);

		const deadMenu = h.host.fileMenu(h.host.file(deadPath));
		expect(actionsOf(deadMenu)).toEqual(["Retry…", "Show trace", "Export trace as note"]);
		await h.parts.settings.update({ autoRoute: false });
		await pick(h, deadMenu, "Retry…");
		const retry = await modal(h, "Retry undelivered message");
		fill(control(retry, "target_group"), FRONTEND);
		control(retry, "target_group").dispatchEvent(new Event("blur"));
		await enter(h, retry, "target_group");
		expect(isOpen(retry)).toBe(false);
		const requeued = await onlyFileIn(h, box(BACKEND, "outbox"));
		expect(await frontmatter(h, requeued)).toMatchObject({ target_group: FRONTEND, retry_count: 1 });
		expect(await filesIn(h, "A2A/dead-letter")).toEqual([]);
	});

	it("an agent note: Set status… and Append finding… write into the note; an ordinary note gets no actions", async () => {
		const { harness } = await bootVault();
		h = harness;
		h.host.fakeApp.vault.create("Notes/plain.md", "# Plain\n");
		await settle(h);
		expect(actionsOf(h.host.fileMenu(h.host.file("Notes/plain.md")))).toEqual([]);
		const menu = h.host.fileMenu(h.host.file(AGENT));
		expect(actionsOf(menu)).toEqual(["Set status…", "Append finding…"]);

		await pick(h, menu, "Set status…");
		const status = await modal(h, "Set agent status");
		fillAll(status, { status: "running", progress: "40", last_action: "Parsing" });
		await enter(h, status, "progress");
		expect(await frontmatter(h, AGENT)).toMatchObject({ status: "running", progress_percent: 40, last_action: "Parsing" });

		await pick(h, h.host.fileMenu(h.host.file(AGENT)), "Append finding…");
		const finding = await modal(h, "Append finding");
		fill(control(finding, "action"), "Schema designed");
		await enter(h, finding, "action");
		expect(await h.host.read(AGENT)).toMatch(/## \[\d{4}-\d\d-\d\dT[^\]]+\] Schema designed/);
	});
});

describe("the editor menu and the view header", () => {
	it("offer the same actions while a message note is open, and follow it as it is routed", async () => {
		const { harness, inboxPath } = await bootVault();
		h = harness;
		const menu = await h.host.editorMenu(inboxPath);
		expect(actionsOf(menu)).toEqual(["Reply…", "Forward…", "Show trace", "Export trace as note"]);
		await settle(h);
		const leaf = h.host.app.workspace.getMostRecentLeaf();
		const header = () => Array.from(leaf?.view.containerEl.querySelectorAll<HTMLElement>(".a2a-header-action") ?? []).map((el) => el.getAttribute("aria-label"));
		expect(header()).toEqual(["Reply…", "Forward…", "Show trace"]);
		// Answered (by another process): the note moves to the archive and Reply… goes away.
		const fm = await frontmatter(h, inboxPath);
		await h.host.externalWrite(
			`${box(FRONTEND, "outbox")}/answer.md`,
			`---\nmessage_id: answer-1\ntrace_id: ${String(fm.trace_id)}\nin_reply_to: ${String(fm.message_id)}\nsource_group: ${FRONTEND}\ntarget_group: ${BACKEND}\nstatus: success\n---\n\n## Answer\n\nyes\n`,
		);
		await waitFor("the request archived", async () => (await filesIn(h as Harness, archiveOf(FRONTEND))).length === 1);
		await settle(h);
		expect(header()).toEqual(["Show trace"]);
		// An ordinary note: no buttons.
		h.host.fakeApp.vault.create("Notes/plain.md", "# Plain\n");
		await settle(h);
		await activate(h, "Notes/plain.md");
		await settle(h);
		expect(header()).toEqual([]);
	});
});
