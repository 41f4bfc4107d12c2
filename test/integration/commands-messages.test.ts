import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import {
	BACKEND,
	DEVOPS,
	FRONTEND,
	activate,
	available,
	body,
	boot,
	archiveOf, box,
	control,
	enter,
	fieldError,
	fill,
	fillAll,
	filesIn,
	frontmatter,
	isOpen,
	lastNotice,
	modal,
	onlyFileIn,
	press,
	requestNote,
	run,
	settle,
	waitFor,
} from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

const MESSAGE_COMMANDS = ["reply-to-message", "forward-message", "show-trace", "set-agent-status", "append-finding", "retry-dead-letter"] as const;

function availability(harness: Harness): Record<string, boolean> {
	return Object.fromEntries(MESSAGE_COMMANDS.map((id) => [id, available(harness, id)]));
}

/** A vault where BACKEND asked FRONTEND something (delivered at startup). */
async function bootWithDelivered(registry = EXAMPLE_REGISTRY, hop = 0) {
	const req = requestNote({ from: BACKEND, to: FRONTEND, question: "Which fields does the form need?", context: "Designing the users table", hopCount: hop });
	const harness = await boot({ registry, files: { [`${box(BACKEND, "outbox")}/ask.md`]: req.text } });
	const inboxPath = await onlyFileIn(harness, box(FRONTEND, "inbox"));
	return { harness, req, inboxPath };
}

describe("availability of the message and agent commands", () => {
	it("follows the active note: inbox request, outbox note, response, dead letter, agent note, ordinary note, none", async () => {
		const req = requestNote({ from: BACKEND, to: FRONTEND });
		const lost = requestNote({ from: BACKEND, to: "99-nowhere" });
		h = await boot({
			files: {
				[`${box(BACKEND, "outbox")}/ask.md`]: req.text,
				[`${box(BACKEND, "outbox")}/lost.md`]: lost.text,
				"A2A/agents/alpha.md": "---\nagent_id: alpha\nstatus: active\n---\n# alpha\n",
				"Notes/plain.md": "# Just a note\n",
			},
		});
		const inboxRequest = await onlyFileIn(h, box(FRONTEND, "inbox"));
		const deadLetter = await onlyFileIn(h, "A2A/dead-letter");
		const errorResponse = await onlyFileIn(h, box(BACKEND, "inbox"));
		await h.parts.settings.update({ autoRoute: false });
		const pending = requestNote({ from: DEVOPS, to: FRONTEND });
		await h.host.fakeApp.vault.create(`${box(DEVOPS, "outbox")}/pending.md`, pending.text);
		await settle(h);

		await activate(h, inboxRequest);
		expect(availability(h)).toEqual({ "reply-to-message": true, "forward-message": true, "show-trace": true, "set-agent-status": false, "append-finding": false, "retry-dead-letter": false });
		await activate(h, `${box(DEVOPS, "outbox")}/pending.md`);
		// (show-trace follows the index, which may hold an outbox note before it is routed or not)
		expect(available(h, "reply-to-message")).toBe(false);
		expect(available(h, "forward-message")).toBe(false);
		expect(available(h, "retry-dead-letter")).toBe(false);
		expect(available(h, "set-agent-status")).toBe(false);
		await activate(h, errorResponse);
		expect(availability(h)).toEqual({ "reply-to-message": false, "forward-message": false, "show-trace": true, "set-agent-status": false, "append-finding": false, "retry-dead-letter": false });
		await activate(h, deadLetter);
		expect(availability(h)).toEqual({ "reply-to-message": false, "forward-message": false, "show-trace": true, "set-agent-status": false, "append-finding": false, "retry-dead-letter": true });
		await activate(h, "A2A/agents/alpha.md");
		expect(availability(h)).toEqual({ "reply-to-message": false, "forward-message": false, "show-trace": false, "set-agent-status": true, "append-finding": true, "retry-dead-letter": false });
		await activate(h, "Notes/plain.md");
		expect(availability(h)).toEqual(Object.fromEntries(MESSAGE_COMMANDS.map((id) => [id, false])));
		await activate(h, null);
		expect(availability(h)).toEqual(Object.fromEntries(MESSAGE_COMMANDS.map((id) => [id, false])));
		// always there
		for (const id of ["compose-message", "route-now", "new-agent", "init-vault", "open-agent-status"]) expect(available(h, id)).toBe(true);
		expect(run(h, "reply-to-message")).toBe(false);
	});
});

describe("reply-to-message", () => {
	it("writes the response into the responding group's outbox; the relay answers and archives the request", async () => {
		const { harness, req, inboxPath } = await bootWithDelivered();
		h = harness;
		await h.parts.settings.update({ autoRoute: false });
		await activate(h, inboxPath);
		expect(run(h, "reply-to-message")).toBe(true);
		const m = await modal(h, "Reply to message");
		// The answer is what is left to write: it has the focus; the question it answers is quoted above.
		expect(document.activeElement).toBe(control(m, "answer"));
		await waitFor("the quoted question", () => m.contentEl.querySelector(".a2a-reply-question")?.textContent);
		const quoted = m.contentEl.querySelector(".a2a-reply-question")?.textContent ?? "";
		expect(quoted.length).toBeGreaterThan(3);
		const request = await h.host.read(inboxPath);
		expect(request).toContain("## Question");
		expect(request.indexOf(quoted)).toBeGreaterThan(request.indexOf("## Question"));

		// nothing to say: an inline error, nothing written
		await enter(h, m, "status");
		expect(fieldError(m, "answer")).toBe("Write the answer, or give artifacts.");
		expect(control(m, "answer").getAttribute("aria-invalid")).toBe("true");
		expect(await filesIn(h, box(FRONTEND, "outbox"))).toEqual([]);

		fill(control(m, "answer"), "Email, password and a display name.");
		fill(control(m, "artifacts"), "specs/form.md");
		await enter(h, m, "answer", { metaKey: true });
		expect(isOpen(m)).toBe(false);
		expect(lastNotice(h)).toContain("Response written");

		const path = await onlyFileIn(h, box(FRONTEND, "outbox"));
		const fm = await frontmatter(h, path);
		expect(fm).toMatchObject({ kind: "response", trace_id: req.traceId, in_reply_to: req.messageId, source_group: FRONTEND, target_group: BACKEND, status: "success" });
		expect(await body(h, path)).toEqual({ answer: "Email, password and a display name.", artifacts: ["specs/form.md"] });

		await h.parts.relay.routeNow();
		await settle(h);
		const answered = await onlyFileIn(h, box(BACKEND, "inbox"));
		expect(await frontmatter(h, answered)).toMatchObject({ in_reply_to: req.messageId, state: "delivered" });
		const archived = await onlyFileIn(h, archiveOf(FRONTEND));
		expect(await frontmatter(h, archived)).toMatchObject({ message_id: req.messageId, state: "answered" });
	});

	it("an error reply carries the text as error_message", async () => {
		const { harness, inboxPath } = await bootWithDelivered();
		h = harness;
		await h.parts.settings.update({ autoRoute: false });
		await activate(h, inboxPath);
		run(h, "reply-to-message");
		const m = await modal(h, "Reply to message");
		fill(control(m, "status"), "error");
		await enter(h, m, "status");
		expect(fieldError(m, "answer")).toBe("Say what went wrong.");
		fill(control(m, "answer"), "The form spec is not written yet");
		await enter(h, m, "status");
		const path = await onlyFileIn(h, box(FRONTEND, "outbox"));
		expect(await frontmatter(h, path)).toMatchObject({ status: "error", error_message: "The form spec is not written yet" });
	});
});

describe("forward-message", () => {
	it("delegates the request on the same trace, one hop further, with the route extended; the relay delivers it", async () => {
		const { harness, req, inboxPath } = await bootWithDelivered();
		h = harness;
		await activate(h, inboxPath);
		expect(run(h, "forward-message")).toBe(true);
		const m = await modal(h, "Forward message");
		expect(document.activeElement).toBe(control(m, "to"));
		fillAll(m, { to: DEVOPS, note: "They own the schema" });
		expect(m.contentEl.querySelector(".a2a-forward-warning")?.textContent).toBe("");
		// the first Enter picks the highlighted suggestion, the second submits
		press(control(m, "to"), "Enter");
		expect(isOpen(m)).toBe(true);
		await enter(h, m, "to");
		expect(isOpen(m)).toBe(false);

		const delivered = await waitFor("the forward in the devops inbox", async () => (await filesIn(h as Harness, box(DEVOPS, "inbox")))[0]);
		const fm = await frontmatter(h, `${box(DEVOPS, "inbox")}/${delivered}`);
		expect(fm).toMatchObject({ trace_id: req.traceId, hop_count: 1, source_group: FRONTEND, target_group: DEVOPS, route: [BACKEND, FRONTEND, DEVOPS], state: "delivered" });
		expect(fm.message_id).not.toBe(req.messageId);
		const payload = await body(h, `${box(DEVOPS, "inbox")}/${delivered}`);
		expect(payload).toMatchObject({ question: "Which fields does the form need?", context: "Designing the users table", forward_note: "They own the schema" });
		// the original stays in the forwarding group's inbox
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toHaveLength(1);
	});

	it("warns before writing a forward the router would reject as a cycle; confirming writes it, and the router rejects it", async () => {
		const { harness, inboxPath } = await bootWithDelivered();
		h = harness;
		await activate(h, inboxPath);
		run(h, "forward-message");
		const m = await modal(h, "Forward message");
		fill(control(m, "to"), BACKEND);
		const warning = () => m.contentEl.querySelector(".a2a-forward-warning")?.textContent ?? "";
		expect(warning()).toContain("CYCLE_DETECTED");
		expect(warning()).toContain(`${BACKEND} is already on this request's chain`);
		control(m, "to").dispatchEvent(new Event("blur"));
		await enter(h, m, "to");
		expect(isOpen(m)).toBe(true);
		expect(await filesIn(h, box(FRONTEND, "outbox"))).toEqual([]);
		// Forward anyway is a warning now, not the primary button; the focus went to Cancel.
		expect(m.contentEl.querySelector("button.mod-cta")).toBeNull();
		expect(m.contentEl.querySelector("button.mod-warning")?.textContent).toBe("Forward anyway");
		expect((document.activeElement as HTMLElement | null)?.textContent).toBe("Cancel");
		(m.contentEl.querySelector("button.mod-warning") as HTMLButtonElement).click();
		await (m as unknown as { submission: Promise<void> }).submission;
		await settle(h);
		expect(isOpen(m)).toBe(false);
		const dead = await waitFor("the rejected forward", async () => (await filesIn(h as Harness, "A2A/dead-letter"))[0]);
		expect(await frontmatter(h, `A2A/dead-letter/${dead}`)).toMatchObject({ error_code: "CYCLE_DETECTED", state: "dead" });
	});

	it("warns about the hop limit with the registry's max_hops, and Escape cancels without writing", async () => {
		const registry = EXAMPLE_REGISTRY.replace("max_hops: 5", "max_hops: 2");
		const { harness, inboxPath } = await bootWithDelivered(registry, 1);
		h = harness;
		await activate(h, inboxPath);
		run(h, "forward-message");
		const m = await modal(h, "Forward message");
		fill(control(m, "to"), DEVOPS);
		control(m, "to").dispatchEvent(new Event("blur"));
		await enter(h, m, "to");
		const warning = m.contentEl.querySelector(".a2a-forward-warning")?.textContent ?? "";
		expect(warning).toContain("MAX_HOPS_EXCEEDED");
		expect(warning).toContain("at most 2 hops");
		press(control(m, "note"), "Escape");
		expect(isOpen(m)).toBe(false);
		await settle(h);
		expect(await filesIn(h, box(FRONTEND, "outbox"))).toEqual([]);
	});

	it("an unknown target is an inline error", async () => {
		const { harness, inboxPath } = await bootWithDelivered();
		h = harness;
		await activate(h, inboxPath);
		run(h, "forward-message");
		const m = await modal(h, "Forward message");
		fill(control(m, "to"), "77-ghosts");
		control(m, "to").dispatchEvent(new Event("blur"));
		await enter(h, m, "to");
		expect(fieldError(m, "to")).toContain("not in the registry");
		expect(await filesIn(h, box(FRONTEND, "outbox"))).toEqual([]);
	});
});

describe("show-trace", () => {
	it("opens the trace view in the sidebar: a sequence diagram and the messages in order, each link opening its note where it is now", async () => {
		const { harness, req, inboxPath } = await bootWithDelivered();
		h = harness;
		// FRONTEND answers; the relay archives the request and delivers the response
		await activate(h, inboxPath);
		run(h, "reply-to-message");
		const reply = await modal(h, "Reply to message");
		fill(control(reply, "answer"), "Email and password");
		await enter(h, reply, "status");
		const response = await waitFor("the response in the backend inbox", async () => (await filesIn(h as Harness, box(BACKEND, "inbox")))[0]);
		const responsePath = `${box(BACKEND, "inbox")}/${response}`;
		const archived = await onlyFileIn(h, archiveOf(FRONTEND));

		await activate(h, responsePath);
		expect(run(h, "show-trace")).toBe(true);
		await settle(h);
		const leaf = h.host.app.workspace.getLeavesOfType("a2a-trace")[0];
		expect(leaf?.getRoot()).toBe(h.host.app.workspace.rightSplit);
		const el = (leaf.view as unknown as { contentEl: HTMLElement }).contentEl;
		await waitFor("the trace rows", () => el.querySelectorAll(".a2a-trace-row").length === 2);
		// A short id in the heading, the full one on hover (and copied by its button).
		expect(el.querySelector(".a2a-trace-summary [title]")?.getAttribute("title")).toBe(req.traceId);
		expect(el.querySelector(".a2a-trace-summary")?.textContent).toContain(req.traceId.slice(0, 8));
		// The diagram: groups as lifelines, the request and the response as arrows.
		const diagram = el.querySelector(".a2a-trace-diagram .mermaid")?.textContent ?? "";
		expect(diagram).toContain(`participant g0 as ${BACKEND}`);
		expect(diagram).toMatch(/g0->>g1: query · \d{1,2}:\d{2}:\d{2}/);
		expect(diagram).toMatch(/g1-->>g0: success · /);
		const rows = Array.from(el.querySelectorAll<HTMLElement>(".a2a-trace-row"));
		expect(rows.map((r) => r.getAttribute("data-path"))).toEqual([archived, responsePath]);
		expect(rows[0].querySelector(".a2a-trace-route")?.textContent).toBe(`${BACKEND} → ${FRONTEND}`);
		expect(rows[0].querySelector(".a2a-state")?.textContent).toBe("answered");
		expect(rows[1].hasClass("is-current")).toBe(true);
		(rows[0].querySelector("a.a2a-note-link") as HTMLElement).click();
		await settle(h);
		expect(h.host.openedFiles.at(-1)?.path).toBe(archived);
		expect(h.host.openedLinks).toEqual([]);
	});
});
