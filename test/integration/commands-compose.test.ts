import { afterEach, describe, expect, it } from "vitest";
import { BACKEND, DEVOPS, FRONTEND, boot, body, box, control, enter, fieldError, fill, fillAll, filesIn, formError, frontmatter, isOpen, lastNotice, modal, noticeLink, onlyFileIn, press, run, settle } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	await h?.host.cleanup();
	h = undefined;
});

describe("compose-message", () => {
	it("is in the palette before groups exist and says what is missing; with groups it opens the form", async () => {
		h = await boot({ registry: false });
		expect(run(h, "compose-message")).toBe(true);
		expect(lastNotice(h)).toContain("Compose needs groups to send between");
		expect(h.host.openModals()).toHaveLength(0);
		await h.host.cleanup();
		h = await boot({ registry: "communication:\n  max_hops: 5\ngroups:\n  only-one: {}\n" });
		expect(run(h, "compose-message")).toBe(true);
		expect(lastNotice(h)).toContain("Compose needs at least two groups");
		expect(h.host.openModals()).toHaveLength(0);
		await h.host.cleanup();
		h = await boot();
		expect(run(h, "compose-message")).toBe(true);
		const m = await modal(h, "Compose message");
		expect(document.activeElement).toBe(control(m, "from"));
	});

	it("writes a request into the sender's outbox, links it in a notice, remembers the sender, and the relay delivers it", async () => {
		h = await boot({ settings: { autoRoute: false, defaultPriority: "high", defaultTimeoutSeconds: 0 } });
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		expect(control<HTMLSelectElement>(m, "priority").value).toBe("high");
		// blank: the registry's default, shown as the placeholder
		expect(control(m, "timeout").value).toBe("");
		expect(control(m, "timeout").placeholder).toBe("30");
		fillAll(m, { from: BACKEND, to: FRONTEND, type: "task", text: "Build the registration form", context: "Users table is ready" });
		// the label follows the request type
		expect(m.contentEl.querySelector(".a2a-field-text .setting-item-name")?.textContent).toBe("Task");
		const artifacts = control(m, "artifacts");
		fill(artifacts, "docs/schema.md");
		await enter(h, m, "timeout");
		expect(isOpen(m)).toBe(false);

		const path = await onlyFileIn(h, box(BACKEND, "outbox"));
		const fm = await frontmatter(h, path);
		expect(fm).toMatchObject({ kind: "request", hop_count: 0, source_group: BACKEND, target_group: FRONTEND, request_type: "task", priority: "high" });
		expect(fm.timeout_seconds).toBeUndefined();
		expect(typeof fm.message_id).toBe("string");
		expect(await body(h, path)).toEqual({ task: "Build the registration form", context: "Users table is ready", artifacts: ["docs/schema.md"] });
		expect(h.parts.settings.current.lastFromGroup).toBe(BACKEND);

		const link = noticeLink(path);
		expect(link).not.toBeNull();
		link?.click();
		await settle(h);
		expect(h.host.openedFiles.map((l) => l.path)).toContain(path);
		expect(h.host.openedLinks).toEqual([]);

		// the next compose starts from the same sender
		run(h, "compose-message");
		const again = await modal(h, "Compose message");
		expect(control(again, "from").value).toBe(BACKEND);
		again.close();

		await h.parts.relay.routeNow();
		await settle(h);
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual([]);
		const delivered = await onlyFileIn(h, box(FRONTEND, "inbox"));
		expect(await frontmatter(h, delivered)).toMatchObject({ state: "delivered", message_id: fm.message_id });
	});

	it("shows each error next to its field and writes nothing until everything is valid", async () => {
		h = await boot();
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		fillAll(m, { from: "99-nobody", to: "bad group!", timeout: "soon" });
		await enter(h, m, "timeout");
		expect(isOpen(m)).toBe(true);
		expect(fieldError(m, "from")).toContain("not in the registry");
		expect(fieldError(m, "to")).toContain("not a group id");
		expect(fieldError(m, "timeout")).toContain("whole number");
		expect(fieldError(m, "text")).toBe("Write the question, or give a context or an artifact.");
		for (const name of ["from", "to", "timeout", "text"]) expect(control(m, name).getAttribute("aria-invalid")).toBe("true");
		expect(control(m, "context").getAttribute("aria-invalid")).toBeNull();
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual([]);

		// fixing one field clears its error; the sender cannot send to itself
		fillAll(m, { from: BACKEND, to: BACKEND, timeout: "45", text: "Which fields?" });
		expect(fieldError(m, "from")).toBe("");
		await enter(h, m, "timeout");
		expect(fieldError(m, "to")).toContain("cannot send a request to itself");
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual([]);

		// Ctrl+Enter from a text area submits; a plain Enter there is a new line
		fill(control(m, "to"), DEVOPS);
		const plain = press(control(m, "text"), "Enter");
		expect(plain.defaultPrevented).toBe(false);
		expect(isOpen(m)).toBe(true);
		await enter(h, m, "text", { ctrlKey: true });
		expect(isOpen(m)).toBe(false);
		expect(formError(m)).toBe("");
		// automatic routing is on: the relay delivered it already
		const path = await onlyFileIn(h, box(DEVOPS, "inbox"));
		expect(await frontmatter(h, path)).toMatchObject({ source_group: BACKEND, target_group: DEVOPS, timeout_seconds: 45, request_type: "query", state: "delivered" });
		expect(await body(h, path)).toEqual({ question: "Which fields?" });
	});

	it("suggests registry groups for the target, without the sender and the gateway group", async () => {
		h = await boot();
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		fill(control(m, "from"), BACKEND);
		const to = control(m, "to");
		fill(to, "");
		const titles = () => Array.from(to.parentElement?.querySelectorAll(".suggestion-container .a2a-suggestion-title") ?? []).map((e) => e.textContent);
		expect(titles()).toEqual([FRONTEND, DEVOPS, "40-security-group"]);
		fill(to, "devops");
		expect(titles()[0]).toBe(DEVOPS);
		// Enter picks the suggestion (and does not submit)
		press(to, "Enter");
		expect(to.value).toBe(DEVOPS);
		expect(isOpen(m)).toBe(true);
		// The list is closed and the next field has the focus: nothing covers it.
		expect(to.parentElement?.querySelectorAll(".suggestion-container .a2a-suggestion-title").length ?? 0).toBe(0);
		expect(document.activeElement).toBe(control(m, "type"));
		m.close();
	});

	it("an artifact picked from the vault is written as a link (clickable, in backlinks, follows renames)", async () => {
		h = await boot({ settings: { autoRoute: false }, files: { "docs/schema.md": "# Schema\n" } });
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		fillAll(m, { from: BACKEND, to: FRONTEND, text: "See the schema" });
		const artifacts = control(m, "artifacts");
		fill(artifacts, "schema");
		const pick = Array.from(artifacts.parentElement?.querySelectorAll<HTMLElement>(".suggestion-container .suggestion-item") ?? []).find((el) => el.textContent?.includes("schema.md"));
		expect(pick).toBeDefined();
		pick?.click();
		expect(m.contentEl.querySelector(".a2a-artifact-path")?.textContent).toBe("[[schema]]");
		for (const name of ["from", "to"]) control(m, name).dispatchEvent(new Event("blur"));
		await enter(h, m, "timeout");
		const path = await onlyFileIn(h, box(BACKEND, "outbox"));
		expect(await body(h, path)).toMatchObject({ artifacts: ["[[schema]]"] });
	});

	it("escape cancels without writing", async () => {
		h = await boot();
		run(h, "compose-message");
		const m = await modal(h, "Compose message");
		fillAll(m, { from: BACKEND, to: FRONTEND, text: "Hello" });
		press(control(m, "context"), "Escape");
		expect(isOpen(m)).toBe(false);
		await settle(h);
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual([]);
	});
});
