// Page helpers for the browser test's checks of the plugin's UI surfaces (test/browser/ui-checks.mjs):
// the trace view with its Mermaid diagram, the reading view of a message, the sidebar's header
// actions and a row's context menu, and the tap targets at phone width. They use the host that
// page.ts started (window.a2a).
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { shownMenu } from "../../test-support/fake-obsidian/menu";

export interface UiPageApi {
	/**
	 * Plays a conversation on the trace of a delivered request, as agents would write it: the
	 * target forwards it to a third group, which answers; then the target answers the requester.
	 * Resolves when the router has delivered all of it.
	 */
	converse(requestPath: string): Promise<number>;
	/** A delivered request in a group's inbox (the first one), or null. */
	deliveredRequest(): string | null;
	/** The path of the first dead letter with that error code, or null. */
	deadLetterWith(code: string): string | null;
	/** What the trace view shows: the diagram's text, and per message its state, marks and error. */
	traceShown(): { diagram: string; rows: { state: string; marks: string[]; error: string }[] };
	/** Opens the note and runs Show trace; resolves when the diagram is drawn. */
	showTrace(path: string): Promise<{ svg: boolean; rows: number; text: string }>;
	/** Tells the views the theme changed (Obsidian's css-change); resolves when redrawn. */
	themeChanged(): Promise<void>;
	/** Renders the note as the reading view does, in the root split; returns the header's text. */
	readingView(path: string): Promise<string>;
	/** The labels of the agent status view's header actions. */
	headerActions(): string[];
	/** Right-clicks the first routing decision's link; returns the menu's titles. */
	openRowMenu(): string[];
	closeMenu(): void;
	/** The smallest side (width or height), in px, of every tap target of the sidebar and the trace view (visible links, buttons, fields, chips). */
	tapTargets(): { min: number; count: number; smallest: string[] };
}

declare global {
	interface Window {
		a2aUi: UiPageApi;
	}
}

const host = (): FakeHost => (window as unknown as { a2a: { host: FakeHost } }).a2a.host;
const settle = (): Promise<void> => (window as unknown as { a2a: { settle(): Promise<void> } }).a2a.settle();

async function until(probe: () => boolean, ms = 5000): Promise<void> {
	const start = performance.now();
	while (!probe() && performance.now() - start < ms) await new Promise((r) => setTimeout(r, 20));
}

const traceContent = (): HTMLElement | null => document.querySelector('.workspace-leaf-content[data-type="a2a-trace"] .view-content');

function fm(path: string): Record<string, unknown> {
	return (host().fakeApp.metadataCache.getCache(path)?.frontmatter ?? {}) as Record<string, unknown>;
}

function noteText(fields: Record<string, string | number>, body: string): string {
	return `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`).join("\n")}\n---\n\n${body}\n`;
}

async function routed(count: number, traceId: string): Promise<number> {
	const relay = (window as unknown as { a2a: { host: FakeHost } }).a2a.host.plugins[0] as unknown as { parts: { relay: { router: { index: { inTrace(id: string): { deliveredAt?: string }[] } } } } };
	const delivered = () => relay.parts.relay.router.index.inTrace(traceId).filter((e) => e.deliveredAt !== undefined).length;
	await until(() => delivered() >= count, 15_000);
	await settle();
	return delivered();
}

window.a2aUi = {
	async converse(requestPath) {
		const request = fm(requestPath);
		const traceId = String(request.trace_id);
		const from = String(request.source_group);
		const to = String(request.target_group);
		const third = "30-devops-group";
		const forwardId = "browser-forward-1";
		await host().externalWrite(
			`A2A/groups/${to}/outbox/ask-devops.md`,
			noteText({ message_id: forwardId, trace_id: traceId, parent_id: String(request.message_id), hop_count: 1, source_group: to, target_group: third, request_type: "task", priority: "medium" }, "## Task\nWhich fields does the API validate?\n"),
		);
		await routed(2, traceId);
		await host().externalWrite(
			`A2A/groups/${third}/outbox/devops-answer.md`,
			noteText({ message_id: "browser-answer-1", trace_id: traceId, in_reply_to: forwardId, source_group: third, target_group: to, status: "success" }, "## Answer\nemail and password\n"),
		);
		await routed(3, traceId);
		await host().externalWrite(
			`A2A/groups/${to}/outbox/answer.md`,
			noteText({ message_id: "browser-answer-2", trace_id: traceId, in_reply_to: String(request.message_id), source_group: to, target_group: from, status: "success" }, "## Answer\nemail, password and name\n"),
		);
		return routed(4, traceId);
	},
	deliveredRequest() {
		const files = host().fakeApp.vault.getFiles().map((f) => f.path);
		return files.find((p) => /^A2A\/groups\/[^/]+\/inbox\//.test(p) && !p.includes("error")) ?? null;
	},
	deadLetterWith(code) {
		const files = host().fakeApp.vault.getFiles().map((f) => f.path);
		return files.find((p) => p.startsWith("A2A/dead-letter/") && fm(p).error_code === code) ?? null;
	},
	traceShown() {
		const el = traceContent();
		return {
			// Mermaid draws a wrapped text as one element (text or tspan) per line: lines are joined by a space.
			diagram: Array.from(el?.querySelectorAll(".mermaid svg text") ?? [])
				.map((t) => (t.querySelector("tspan") ? Array.from(t.querySelectorAll("tspan")).map((span) => span.textContent ?? "").join(" ") : (t.textContent ?? "")))
				.join(" ")
				.replace(/\s+/g, " "),
			rows: Array.from(el?.querySelectorAll(".a2a-trace-row") ?? []).map((row) => ({
				state: row.querySelector(".a2a-state")?.textContent ?? "",
				marks: Array.from(row.querySelectorAll(".a2a-mark")).map((m) => m.textContent ?? ""),
				error: row.querySelector(".a2a-trace-error")?.textContent ?? "",
			})),
		};
	},
	async showTrace(path) {
		await host().setActiveFile(host().file(path));
		host().executeCommand("a2a-relay:show-trace");
		await settle();
		await until(() => !!traceContent()?.querySelector(".mermaid svg"));
		const el = traceContent();
		return { svg: !!el?.querySelector(".mermaid svg"), rows: el?.querySelectorAll(".a2a-trace-row").length ?? 0, text: el?.textContent ?? "" };
	},
	async themeChanged() {
		const before = traceContent()?.querySelector(".mermaid svg");
		host().fakeApp.workspace.trigger("css-change");
		await settle();
		await until(() => {
			const now = traceContent()?.querySelector(".mermaid svg");
			return !!now && now !== before;
		});
	},
	async readingView(path) {
		for (const old of Array.from(document.querySelectorAll(".fake-reading-view"))) old.remove();
		const el = await host().renderReadingView(path);
		return el.querySelector(".a2a-message-header")?.textContent ?? "";
	},
	headerActions() {
		return Array.from(document.querySelectorAll('.workspace-leaf-content[data-type="a2a-agent-status"] .view-actions .view-action')).map((el) => el.getAttribute("aria-label") ?? "");
	},
	openRowMenu() {
		const link = document.querySelector<HTMLElement>(".a2a-status-view .a2a-decision a.a2a-note-link");
		const rect = link?.getBoundingClientRect();
		link?.dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true, clientX: (rect?.left ?? 0) + 20, clientY: (rect?.bottom ?? 0) + 2 }));
		return shownMenu()?.titles ?? [];
	},
	closeMenu() {
		shownMenu()?.hide();
	},
	tapTargets() {
		const views = Array.from(document.querySelectorAll(".a2a-status-view, .a2a-trace-view"));
		const targets = views.flatMap((view) => Array.from(view.querySelectorAll<HTMLElement>("a.a2a-note-link, button, select, input, summary, [role='button']"))).filter((el) => el.getClientRects().length > 0);
		// Each target's smaller side: its height, and its width too (an icon button, a chip, a short
		// link); a row as wide as the view passes on width.
		const sized = targets.map((el) => {
			const r = el.getBoundingClientRect();
			return { el, side: Math.min(r.height, r.width), size: `${r.width.toFixed(1)}×${r.height.toFixed(1)}px` };
		});
		sized.sort((a, b) => a.side - b.side);
		return {
			min: sized[0]?.side ?? 0,
			count: sized.length,
			smallest: sized.slice(0, 5).map(({ el, size }) => `${el.tagName.toLowerCase()}.${Array.from(el.classList).join(".")} "${(el.textContent ?? "").trim().slice(0, 20)}" ${size}`),
		};
	},
};
