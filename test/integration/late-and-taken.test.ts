// What agents do to a conversation shows where the user looks: an answer that came after its
// request timed out is marked late, a response its requester took is shown as taken (in the
// requester's archive), in the trace view, the sidebar's decisions and the note's reading view.
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { stampTaken } from "../../src/core/stamps";
import { updateFrontmatterText } from "../../src/core/frontmatter";
import { VIEW_TYPE_TRACE } from "../../src/ui/trace/trace-view";
import { BACKEND, FRONTEND, activate, boot, archiveOf, box, filesIn, requestNote, run, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

function answerText(traceId: string, requestId: string, id: string): string {
	return `---\nmessage_id: ${id}\ntrace_id: ${traceId}\nin_reply_to: ${requestId}\nsource_group: ${FRONTEND}\ntarget_group: ${BACKEND}\nstatus: success\n---\n\n## Answer\n\nyes\n`;
}

async function traceEl(harness: Harness): Promise<HTMLElement> {
	const leaf = harness.host.app.workspace.getLeavesOfType(VIEW_TYPE_TRACE)[0];
	expect(leaf).toBeDefined();
	return (leaf.view as unknown as { contentEl: HTMLElement }).contentEl;
}

describe("late and taken answers", () => {
	it("a late answer is marked late and a taken response taken, in the trace (diagram and rows) and in the reading view", async () => {
		const ask = requestNote({ from: BACKEND, to: FRONTEND, timeoutSeconds: 1 });
		const registry = EXAMPLE_REGISTRY.replace("retry_attempts: 3", "retry_attempts: 0");
		h = await boot({ registry, settings: { viewShown: true, graceSeconds: 0 }, files: { [`${box(BACKEND, "outbox")}/ask.md`]: ask.text } });
		// No answer within a second: the request times out.
		const dead = await waitFor("the timed-out request", async () => (await filesIn(h as Harness, "A2A/dead-letter"))[0], 10_000);
		// The answer comes anyway: delivered, marked late.
		await h.host.externalWrite(`${box(FRONTEND, "outbox")}/late.md`, answerText(ask.traceId, ask.messageId, "late-1"));
		const lateName = await waitFor("the late answer", async () => (await filesIn(h as Harness, box(BACKEND, "inbox"))).find((n) => n.includes("late")), 10_000);
		const inboxPath = `${box(BACKEND, "inbox")}/${lateName}`;
		expect(h.parts.relay.router.index.get(inboxPath)?.late).toBe(true);

		// The reading view's header says what the note is.
		const header = (await h.host.renderReadingView(inboxPath)).querySelector(".a2a-message-header");
		expect(header?.querySelector(".a2a-header-kind")?.textContent).toBe("Response: success");
		expect(header?.querySelector(".a2a-header-route")?.textContent).toBe(`${FRONTEND} → ${BACKEND}`);
		expect(header?.querySelector(".a2a-mark-late")?.textContent).toBe("late");

		// The requester takes it (a2a take): it moves to its archive as taken.
		const taken = `${archiveOf(BACKEND)}/${lateName}`;
		await h.host.externalWrite(taken, updateFrontmatterText(await h.host.read(inboxPath), stampTaken));
		await h.host.externalDelete(inboxPath);
		await settle(h);
		await activate(h, taken);
		run(h, "show-trace");
		await settle(h);
		const el = await traceEl(h);
		await waitFor("the trace rows", () => el.querySelectorAll(".a2a-trace-row").length >= 2);
		const diagram = el.querySelector(".mermaid")?.textContent ?? "";
		expect(diagram).toMatch(/->>.*: query · .*timed out/);
		expect(diagram).toMatch(/-->>.*: success · .*late · taken/);
		const rows = Array.from(el.querySelectorAll<HTMLElement>(".a2a-trace-row"));
		const row = rows.find((r) => r.getAttribute("data-path") === taken);
		expect(row?.querySelector(".a2a-state")?.textContent).toBe("taken");
		expect(row?.querySelector(".a2a-mark-late")?.textContent).toBe("late");
		expect(rows.find((r) => r.getAttribute("data-path") === `A2A/dead-letter/${dead}`)?.querySelector(".a2a-state")?.textContent).toBe("timed out");
		const takenHeader = (await h.host.renderReadingView(taken)).querySelector(".a2a-message-header");
		expect(takenHeader?.querySelector(".a2a-state")?.textContent).toBe("taken");
	});

	it("the trace view follows the active message note, like Backlinks, and keeps the last trace on other notes", async () => {
		const one = requestNote({ from: BACKEND, to: FRONTEND });
		const two = requestNote({ from: FRONTEND, to: BACKEND });
		h = await boot({ settings: { viewShown: true }, files: { [`${box(BACKEND, "outbox")}/one.md`]: one.text, [`${box(FRONTEND, "outbox")}/two.md`]: two.text, "Notes/plain.md": "# Plain\n" } });
		const first = `${box(FRONTEND, "inbox")}/${(await filesIn(h, box(FRONTEND, "inbox")))[0]}`;
		const second = `${box(BACKEND, "inbox")}/${(await filesIn(h, box(BACKEND, "inbox")))[0]}`;
		await activate(h, first);
		run(h, "show-trace");
		await settle(h);
		const el = await traceEl(h);
		expect(el.querySelector(".a2a-trace-summary [title]")?.getAttribute("title")).toBe(one.traceId);
		await activate(h, second);
		await settle(h);
		expect(el.querySelector(".a2a-trace-summary [title]")?.getAttribute("title")).toBe(two.traceId);
		await activate(h, "Notes/plain.md");
		await settle(h);
		expect(el.querySelector(".a2a-trace-summary [title]")?.getAttribute("title")).toBe(two.traceId);
	});
});
