import { afterEach, describe, expect, it } from "vitest";
import { splitNote } from "../../src/core/frontmatter";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import {
	BACKEND,
	FRONTEND,
	activate,
	body,
	boot,
	archiveOf, box,
	control,
	enter,
	fieldError,
	fill,
	filesIn,
	formError,
	frontmatter,
	isOpen,
	lastNotice,
	modal,
	onlyFileIn,
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

const DEAD = "A2A/dead-letter";
const ROUTER_STAMPS = ["state", "delivered_at", "expires_at", "dead_at", "error_code", "error_message", "attempt", "quarantined"];

describe("retry-dead-letter", () => {
	it("GROUP_NOT_FOUND: shows why, lets the target group be corrected, and re-queues with the same message_id", async () => {
		const lost = requestNote({ from: BACKEND, to: "99-nowhere", question: "Anyone there?" });
		h = await boot({ files: { [`${box(BACKEND, "outbox")}/lost.md`]: lost.text } });
		const dead = await onlyFileIn(h, DEAD);
		expect(await frontmatter(h, dead)).toMatchObject({ error_code: "GROUP_NOT_FOUND", state: "dead" });
		await h.parts.settings.update({ autoRoute: false });

		await activate(h, dead);
		expect(run(h, "retry-dead-letter")).toBe(true);
		const m = await modal(h, "Retry undelivered message");
		expect(m.contentEl.querySelector(".a2a-retry-code")?.textContent).toBe("Why it was not delivered: GROUP_NOT_FOUND");
		expect(m.contentEl.querySelector(".a2a-retry-message")?.textContent).toContain('group "99-nowhere" is not in the registry');
		const target = control(m, "target_group");
		expect(document.activeElement).toBe(target);
		expect(target.value).toBe("99-nowhere");
		expect(fieldError(m, "target_group")).toContain("not in the registry");

		// still wrong: nothing moves
		target.dispatchEvent(new Event("blur"));
		await enter(h, m, "target_group");
		expect(isOpen(m)).toBe(true);
		expect(fieldError(m, "target_group")).toContain("not in the registry");
		expect(await filesIn(h, DEAD)).toHaveLength(1);

		fill(target, FRONTEND);
		target.dispatchEvent(new Event("blur"));
		await enter(h, m, "target_group");
		expect(isOpen(m)).toBe(false);
		expect(formError(m)).toBe("");
		expect(await filesIn(h, DEAD)).toEqual([]);
		const queued = await onlyFileIn(h, box(BACKEND, "outbox"));
		const fm = await frontmatter(h, queued);
		expect(fm).toMatchObject({ message_id: lost.messageId, trace_id: lost.traceId, target_group: FRONTEND, retry_count: 1 });
		expect(Number.isNaN(Date.parse(String(fm.retried_at)))).toBe(false);
		for (const stamp of ROUTER_STAMPS) expect(fm[stamp], stamp).toBeUndefined();
		expect(await body(h, queued)).toEqual({ question: "Anyone there?" });
		expect(lastNotice(h)).toContain("Back in the outbox");

		await h.parts.relay.routeNow();
		await settle(h);
		const delivered = await onlyFileIn(h, box(FRONTEND, "inbox"));
		expect(await frontmatter(h, delivered)).toMatchObject({ message_id: lost.messageId, state: "delivered", retry_count: 1 });

		// The error response's link to its dead letter names the note, not a path: clicked now, it opens
		// the note where the retry took it instead of creating an empty note in dead-letter/.
		const errorName = (await filesIn(h, box(BACKEND, "inbox"))).find((name) => name.startsWith("error-"));
		const errorResponse = `${box(BACKEND, "inbox")}/${errorName ?? "(none)"}`;
		const link = /^\[\[([^\]]+)\]\]$/.exec(String((await body(h, errorResponse)).dead_letter))?.[1] ?? "";
		expect(link).toBe("lost");
		expect(h.host.app.metadataCache.getFirstLinkpathDest(link, errorResponse)?.path).toBe(delivered);
	});

	it("INVALID_MESSAGE: offers the failing field (hop count), validates it, and the relay delivers the corrected note", async () => {
		const bad = requestNote({ from: BACKEND, to: FRONTEND, hopCount: -1 });
		// No grace period: the invalid note is rejected at once (with one, it would wait for its writer).
		h = await boot({ files: { [`${box(BACKEND, "outbox")}/bad.md`]: bad.text }, settings: { graceSeconds: 0 } });
		const dead = await onlyFileIn(h, DEAD);
		expect(await frontmatter(h, dead)).toMatchObject({ error_code: "INVALID_MESSAGE" });
		await activate(h, dead);
		run(h, "retry-dead-letter");
		const m = await modal(h, "Retry undelivered message");
		expect(m.contentEl.querySelectorAll(".a2a-field")).toHaveLength(1);
		const hop = control(m, "hop_count");
		expect(hop.value).toBe("-1");
		expect(fieldError(m, "hop_count")).toContain("hop_count must be an integer >= 0");
		fill(hop, "two");
		await enter(h, m, "hop_count");
		expect(fieldError(m, "hop_count")).toBe("Enter a whole number.");
		fill(hop, "-3");
		await enter(h, m, "hop_count");
		expect(fieldError(m, "hop_count")).toContain(">= 0");
		expect(await filesIn(h, DEAD)).toHaveLength(1);
		await h.parts.settings.update({ autoRoute: false });
		fill(hop, "0");
		await enter(h, m, "hop_count");
		expect(isOpen(m)).toBe(false);
		expect(await filesIn(h, DEAD)).toEqual([]);
		const queued = await onlyFileIn(h, box(BACKEND, "outbox"));
		expect(await frontmatter(h, queued)).toMatchObject({ message_id: bad.messageId, hop_count: 0, retry_count: 1 });
		const report = await h.parts.relay.routeNow();
		await settle(h);
		const delivery = report.decisions.find((d) => d.message_id === bad.messageId);
		expect(delivery).toMatchObject({ outcome: "delivered", path: `${box(FRONTEND, "inbox")}/bad.md` });
	});

	// The error response the router wrote at the rejection is a report, not an answer.
	it("a retried INVALID_MESSAGE request stays in the target's inbox until it is answered", async () => {
		const bad = requestNote({ from: BACKEND, to: FRONTEND, hopCount: -1 });
		// No grace period: the invalid note is rejected at once (with one, it would wait for its writer).
		h = await boot({ files: { [`${box(BACKEND, "outbox")}/bad.md`]: bad.text }, settings: { graceSeconds: 0 } });
		await activate(h, await onlyFileIn(h, DEAD));
		run(h, "retry-dead-letter");
		const m = await modal(h, "Retry undelivered message");
		fill(control(m, "hop_count"), "0");
		await enter(h, m, "hop_count");
		await waitFor("the retried request routed", async () => (await filesIn(h as Harness, box(BACKEND, "outbox"))).length === 0);
		await settle(h);
		expect(await filesIn(h, archiveOf(FRONTEND))).toEqual([]);
		expect(await filesIn(h, box(FRONTEND, "inbox"))).toEqual(["bad.md"]);
	});

	it("a quarantined note: says why it cannot be retried while its original does not parse; once fixed, the original text is restored", async () => {
		const broken = "---\nkind: request\nsource_group: 10-backend-group\n";
		h = await boot({ files: { [`${box(BACKEND, "outbox")}/broken.md`]: broken } });
		// (set after start: see the settings test about data.json at startup)
		await h.parts.settings.update({ graceSeconds: 0 });
		await settle(h);
		const dead = await onlyFileIn(h, DEAD);
		const quarantined = await frontmatter(h, dead);
		expect(quarantined).toMatchObject({ quarantined: true, error_code: "INVALID_MESSAGE" });
		await activate(h, dead);
		expect(run(h, "retry-dead-letter")).toBe(true);
		await waitFor("the notice", () => lastNotice(h as Harness).includes("cannot be retried as it is"));
		expect(lastNotice(h)).toContain("INVALID_MESSAGE");
		expect(h.host.openModals()).toHaveLength(0);

		// the user fixes the original text below the router's block
		const fixed = requestNote({ from: BACKEND, to: FRONTEND, question: "Fixed by hand" }).text.replace(/message_id: .*\n/, "");
		const text = await h.host.read(dead);
		await h.host.fakeApp.vault.modify(h.host.fakeApp.vault.getFileByPath(dead)!, text.replace(broken, fixed));
		await settle(h);
		await activate(h, dead);
		run(h, "retry-dead-letter");
		const m = await modal(h, "Retry undelivered message");
		expect(m.contentEl.textContent).toContain("restores the original text");
		expect(m.contentEl.querySelectorAll(".a2a-field")).toHaveLength(0);
		(m.contentEl.querySelector("button.mod-cta") as HTMLButtonElement).click();
		await (m as unknown as { submission: Promise<void> }).submission;
		await settle(h);
		const delivered = await waitFor("the restored request in the inbox", async () => (await filesIn(h as Harness, box(FRONTEND, "inbox")))[0]);
		const path = `${box(FRONTEND, "inbox")}/${delivered}`;
		const fm = await frontmatter(h, path);
		expect(fm).toMatchObject({ message_id: quarantined.message_id, source_group: BACKEND, target_group: FRONTEND, retry_count: 1, state: "delivered" });
		expect(fm.quarantined).toBeUndefined();
		expect(splitNote(await h.host.read(path)).body).toBe(splitNote(fixed).body);
	});

	it("TIMEOUT: re-queues a timed-out request without reading its own delivery as a cycle", async () => {
		const registry = EXAMPLE_REGISTRY.replace("retry_attempts: 3", "retry_attempts: 0");
		const slow = requestNote({ from: BACKEND, to: FRONTEND, timeoutSeconds: 1 });
		h = await boot({ registry, files: { [`${box(BACKEND, "outbox")}/slow.md`]: slow.text } });
		const deadPath = await waitFor(
			"the timed-out request",
			async () => {
				const name = (await filesIn(h as Harness, DEAD))[0];
				return name && (await frontmatter(h as Harness, `${DEAD}/${name}`)).error_code === "TIMEOUT" ? `${DEAD}/${name}` : null;
			},
			8000,
		);
		expect(await frontmatter(h, deadPath)).toMatchObject({ error_code: "TIMEOUT", state: "timed_out", route: [BACKEND, FRONTEND] });
		await settle(h);
		await h.parts.settings.update({ autoRoute: false });
		await activate(h, deadPath);
		run(h, "retry-dead-letter");
		const m = await modal(h, "Retry undelivered message");
		expect(m.contentEl.querySelector(".a2a-retry-code")?.textContent).toBe("Why it was not delivered: TIMEOUT");
		(m.contentEl.querySelector("button.mod-cta") as HTMLButtonElement).click();
		await (m as unknown as { submission: Promise<void> }).submission;
		await settle(h);
		expect(formError(m)).toBe("");
		const queued = await onlyFileIn(h, box(BACKEND, "outbox"));
		const fm = await frontmatter(h, queued);
		expect(fm).toMatchObject({ message_id: slow.messageId, route: [BACKEND], retry_count: 1 });
		await h.parts.relay.routeNow();
		await settle(h);
		const delivered = await onlyFileIn(h, box(FRONTEND, "inbox"));
		expect(await frontmatter(h, delivered)).toMatchObject({ message_id: slow.messageId, state: "delivered" });
	});
});
