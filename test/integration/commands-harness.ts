// Shared set-up for the command and settings tests: the real plugin (main.ts) on the fake
// Obsidian over a real temp folder, and small helpers to drive modals through the DOM.
import { expect } from "vitest";
import { createTempHost } from "../../test-support/fake-obsidian/node-host";
import type { TempHost } from "../../test-support/fake-obsidian/node-host";
import type { Modal } from "../../test-support/fake-obsidian/modal";
import manifest from "../../manifest.json";
import type A2ARelayPlugin from "../../main";
import type { PluginParts } from "../../src/plugin/start";
import type { RelaySettings } from "../../src/settings";
import { buildRequest } from "../../src/core/compose";
import type { RequestDraft } from "../../src/core/compose";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { archiveMonth } from "../../src/core/layout";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { parseBodySections } from "../../src/core/body";
import { serialiseMessage } from "../../src/core/message-serialise";
import type { Payload } from "../../src/core/message";

export const BACKEND = "10-backend-group";
export const FRONTEND = "20-frontend-group";
export const DEVOPS = "30-devops-group";
export const SECURITY = "40-security-group";

export const box = (group: string, which: "inbox" | "outbox" | "archive") => `A2A/groups/${group}/${which}`;
/** The month folder a note archived now goes to (`archive/YYYY-MM`, UTC). */
export const archiveOf = (group: string) => `${box(group, "archive")}/${archiveMonth(new Date())}`;

export interface Harness {
	host: TempHost;
	plugin: A2ARelayPlugin;
	parts: PluginParts;
}

/**
 * The plugin as Obsidian loads it. main.js (the build) sits next to main.ts and the test resolver
 * prefers .js, so the TypeScript entry is imported by its full name.
 */
async function pluginClass(): Promise<typeof A2ARelayPlugin> {
	const entry = "../../main" + ".ts";
	const mod = (await import(/* @vite-ignore */ entry)) as { default: typeof A2ARelayPlugin };
	return mod.default;
}

export interface BootOptions {
	/** Files of the vault before Obsidian starts (the example registry is added unless `registry: false`). */
	files?: Record<string, string>;
	registry?: string | false;
	settings?: Partial<RelaySettings>;
}

export async function boot(options: BootOptions = {}): Promise<Harness> {
	const files: Record<string, string> = { ...(options.files ?? {}) };
	if (options.registry !== false) files["A2A/registry.yaml"] = options.registry ?? EXAMPLE_REGISTRY;
	// Notes written by a test are a moment old: without a grace period the router takes them at once
	// (the tests of the grace period set it).
	files[".obsidian/plugins/a2a-relay/data.json"] ??= JSON.stringify({ graceSeconds: 0, ...options.settings });
	const host = await createTempHost({ files, prefix: "a2a-commands-", logErrors: false });
	const plugin = await host.loadPlugin(await pluginClass(), manifest);
	await host.loadVault();
	await host.setLayoutReady();
	const h = { host, plugin, parts: plugin.parts };
	await settle(h);
	return h;
}

/** Waits until vault events, the relay's passes and the host's tracked work are all done. */
export async function settle(h: Harness): Promise<void> {
	for (let i = 0; i < 3; i++) {
		await h.host.settled();
		await h.parts.relay.whenIdle();
	}
	await h.host.settled();
}

export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 5000): Promise<NonNullable<T>> {
	const start = Date.now();
	for (;;) {
		const value = await probe();
		if (value) return value as NonNullable<T>;
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

export function run(h: Harness, id: string): boolean {
	return h.host.executeCommand(`a2a-relay:${id}`);
}

/** Whether a command is available now (its checkCallback with checking = true). */
export function available(h: Harness, id: string): boolean {
	const command = h.host.fakeApp.commands.findCommand(`a2a-relay:${id}`);
	if (!command) throw new Error(`no command ${id}`);
	if (command.checkCallback) return command.checkCallback(true) === true;
	return true;
}

export async function activate(h: Harness, path: string | null): Promise<void> {
	await h.host.setActiveFile(path === null ? null : h.host.file(path));
}

/** The modal opened last (waits for one to open). */
export async function modal(h: Harness, title?: string): Promise<Modal> {
	return waitFor(`a modal${title ? ` "${title}"` : ""}`, () => {
		const open = h.host.openModals().filter((m) => title === undefined || m.titleEl.textContent === title);
		return open[open.length - 1];
	});
}

export function control<T extends HTMLElement = HTMLInputElement>(m: Modal, name: string): T {
	const el = m.contentEl.querySelector<T>(`[name="${name}"]`);
	if (!el) throw new Error(`no field ${name} in the modal "${m.titleEl.textContent}"`);
	return el;
}

/** Types into an input or text area (an 'input' event) or picks a dropdown value (a 'change' event). */
export function fill(el: HTMLElement, value: string): void {
	(el as HTMLInputElement).value = value;
	el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
}

export function fillAll(m: Modal, values: Record<string, string>): void {
	for (const [name, value] of Object.entries(values)) fill(control(m, name), value);
}

export function press(el: HTMLElement, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
	const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
	el.dispatchEvent(event);
	return event;
}

/** Presses Enter in a field and waits until the submission finished and its writes settled. */
export async function enter(h: Harness, m: Modal, name: string, init: KeyboardEventInit = {}): Promise<void> {
	press(control(m, name), "Enter", init);
	await (m as unknown as { submission: Promise<void> }).submission;
	await settle(h);
}

/** The inline error shown next to a field ("" when none). */
export function fieldError(m: Modal, name: string): string {
	const input = control<HTMLElement>(m, name);
	const id = input.getAttribute("aria-describedby");
	const el = id ? m.contentEl.querySelector(`#${id}`) : null;
	return el?.textContent ?? "";
}

export function formError(m: Modal): string {
	return m.contentEl.querySelector(".a2a-form-error")?.textContent ?? "";
}

export function isOpen(m: Modal): boolean {
	return (m as unknown as { isOpen: boolean }).isOpen;
}

/** Files directly in a folder on disk (names), sorted. */
export async function filesIn(h: Harness, folder: string): Promise<string[]> {
	if (!(await h.host.exists(folder))) return [];
	const listing = await h.host.disk.list(folder);
	return listing.files.map((f) => f.slice(f.lastIndexOf("/") + 1)).filter((n) => !n.startsWith(".")).sort();
}

export async function onlyFileIn(h: Harness, folder: string): Promise<string> {
	const files = await filesIn(h, folder);
	expect(files, `files in ${folder}`).toHaveLength(1);
	return `${folder}/${files[0]}`;
}

export async function frontmatter(h: Harness, path: string): Promise<Record<string, unknown>> {
	return readFrontmatter(await h.host.read(path)) ?? {};
}

export async function body(h: Harness, path: string): Promise<Payload> {
	return parseBodySections(splitNote(await h.host.read(path)).body);
}

/** A request note as an agent would write it. */
export function requestNote(draft: Partial<RequestDraft> & { from: string; to: string }, extra: Record<string, unknown> = {}): { text: string; messageId: string; traceId: string } {
	const message = buildRequest({ type: "query", question: "Which fields does the form need?", ...draft }, Date.now());
	Object.assign(message.extra, extra);
	return { text: serialiseMessage(message), messageId: message.envelope.message_id as string, traceId: message.envelope.trace_id };
}

export function noticeLink(path: string): HTMLAnchorElement | null {
	return Array.from(document.querySelectorAll<HTMLAnchorElement>("a.a2a-notice-link")).find((a) => a.getAttribute("data-path") === path) ?? null;
}

/**
 * The text of the newest notice on screen. (host.notices records "" for a notice built from a
 * DocumentFragment, as the links of noticeWithLink are: the fake reads the fragment's text after
 * moving its nodes into the notice. So the DOM is read instead.)
 */
export function lastNotice(h: Harness): string {
	void h;
	const shown = Array.from(document.querySelectorAll(".notice-container .notice-message"));
	return shown[shown.length - 1]?.textContent ?? "";
}
