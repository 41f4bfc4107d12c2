import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { RelaySettingTab } from "../../src/ui/settings-tab";
import { BACKEND, FRONTEND, available, boot, box, fill, filesIn, requestNote, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	h?.host.closeSettings();
	await h?.host.cleanup();
	h = undefined;
});

const DATA = ".obsidian/plugins/a2a-relay/data.json";
const TEAM_REGISTRY = "groups:\n  red:\n    description: Red team\n  blue: {}\n";

function input<T extends HTMLElement = HTMLInputElement>(tab: HTMLElement, key: string): T {
	const el = tab.querySelector<T>(`[name="${key}"]`);
	if (!el) throw new Error(`no setting ${key}`);
	return el;
}

function errorOf(tab: HTMLElement, key: string): string {
	const id = input(tab, key).getAttribute("aria-describedby");
	return (id && tab.querySelector(`#${id}`)?.textContent) || "";
}

function row(tab: HTMLElement, name: string): HTMLElement {
	const found = Array.from(tab.querySelectorAll<HTMLElement>(".setting-item")).find((el) => el.querySelector(".setting-item-name")?.textContent === name);
	if (!found) throw new Error(`no setting row ${name}`);
	return found;
}

/** Types a value, then leaves the field (input + change). */
function commit(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
	fill(el, value);
	el.dispatchEvent(new Event("change", { bubbles: true }));
}

async function saved(h: Harness): Promise<Record<string, unknown>> {
	await settle(h);
	return (await h.host.exists(DATA)) ? (JSON.parse(await h.host.read(DATA)) as Record<string, unknown>) : {};
}

describe("settings tab", () => {
	it("renders its sections with setHeading and sentence-case rows, keyboard-labelled", async () => {
		h = await boot();
		const tab = h.host.openSettings("a2a-relay");
		await settle(h);
		await waitFor("the Groups editor", () => tab.querySelector(".a2a-group-row"));
		expect(Array.from(tab.querySelectorAll(".setting-item-heading .setting-item-name")).map((e) => e.textContent)).toEqual(["Groups", "Folders", "New messages", "Agents", "Notices", "Advanced"]);
		expect(tab.querySelectorAll("h1, h2, h3, h4")).toHaveLength(0);
		const names = Array.from(tab.querySelectorAll(":scope > .setting-item:not(.setting-item-heading):not(.a2a-groups-setting) > .setting-item-info > .setting-item-name")).map((e) => e.textContent);
		expect(names).toEqual([
			"Root folder",
			"Extra agent folders",
			"Default priority",
			"Timeout Compose fills in",
			"Stale limit",
			"Routing notices",
			"Notices for every message",
			"Automatic routing",
			"Route on this device",
			"Sync margin",
			"Device name",
			"Grace period for half-written notes",
		]);
		const root = input(tab, "rootFolder");
		expect(root.value).toBe("A2A");
		expect(tab.querySelector(`#${root.getAttribute("aria-labelledby")}`)?.textContent).toBe("Root folder");
	});

	it("a new root folder takes effect without a restart: the registry there is used", async () => {
		const req = requestNote({ from: "red", to: "blue" });
		h = await boot({ files: { "Team/registry.yaml": TEAM_REGISTRY, "Team/groups/red/outbox/ask.md": req.text } });
		expect(h.parts.relay.router.layout.groupIds()).toEqual([BACKEND, FRONTEND, "30-devops-group", "40-security-group", "a2a-gateway"]);
		const tab = h.host.openSettings("a2a-relay");
		const root = input(tab, "rootFolder");
		const apply = tab.querySelector<HTMLButtonElement>("button.a2a-root-apply");
		// Typing applies nothing: every pause would otherwise rebuild the router on a partial path.
		commit(root, "Te");
		await settle(h);
		expect(h.parts.settings.current.rootFolder).toBe("A2A");
		commit(root, "Team");
		expect(errorOf(tab, "rootFolder")).toBe("");
		expect(apply?.disabled).toBe(false);
		expect(tab.querySelector(".a2a-root-warning")?.hasClass("a2a-hidden")).toBe(false);
		expect(tab.querySelector(".a2a-root-warning")?.textContent).toContain("stay where they are");
		apply?.click();
		expect(await saved(h)).toMatchObject({ rootFolder: "Team" });
		expect(h.parts.settings.current.rootFolder).toBe("Team");
		// The relay rebuilds its router in its queue, after any pass in flight.
		await waitFor("the new root applied", () => h?.parts.relay.router.layout.registryPath === "Team/registry.yaml");
		await waitFor("the registry there read", () => h?.parts.relay.router.layout.groupIds().join() === "red,blue");
		// and the relay routes there
		await waitFor("the request delivered under Team", async () => (await filesIn(h as Harness, "Team/groups/blue/inbox")).length === 1);
	});

	it("an invalid root folder or folder list is shown as an error and not saved", async () => {
		h = await boot();
		const tab = h.host.openSettings("a2a-relay");
		const root = input(tab, "rootFolder");
		commit(root, "../outside");
		expect(errorOf(tab, "rootFolder")).toContain("Enter a folder inside the vault");
		expect(root.getAttribute("aria-invalid")).toBe("true");
		expect(row(tab, "Root folder").classList.contains("a2a-has-error")).toBe(true);
		commit(root, "");
		expect(errorOf(tab, "rootFolder")).toContain("Enter a folder inside the vault");
		expect(tab.querySelector<HTMLButtonElement>("button.a2a-root-apply")?.disabled).toBe(true);
		expect(h.parts.settings.current.rootFolder).toBe("A2A");
		expect((await saved(h)).rootFolder ?? "A2A").toBe("A2A");

		const folders = input<HTMLTextAreaElement>(tab, "extraAgentFolders");
		commit(folders, "Runs, Other\n.hidden\n/abs");
		expect(errorOf(tab, "extraAgentFolders")).toBe('Not usable as folders: .hidden, /abs. Use folders inside the vault, without ".." or a leading "/".');
		expect(h.parts.settings.current.extraAgentFolders).toEqual([]);
		commit(folders, "Runs, Other");
		expect(errorOf(tab, "extraAgentFolders")).toBe("");
		expect(await saved(h)).toMatchObject({ extraAgentFolders: ["Runs", "Other"] });
	});

	it("extra agent folders are scanned at once", async () => {
		h = await boot({ files: { "Runs/qa/agent-1.md": "---\nstatus: running\nprogress_percent: 30\n---\n" } });
		expect(h.parts.agents.get("Runs/qa/agent-1.md")).toBeUndefined();
		const tab = h.host.openSettings("a2a-relay");
		commit(input<HTMLTextAreaElement>(tab, "extraAgentFolders"), "Runs");
		await settle(h);
		expect(h.parts.agents.get("Runs/qa/agent-1.md")?.status).toBe("running");
	});

	it("numbers are checked: garbage is an error state and never saved", async () => {
		h = await boot({ settings: { graceSeconds: 5 } });
		const tab = h.host.openSettings("a2a-relay");
		const stale = input(tab, "staleMinutes");
		for (const bad of ["abc", "0", "-5", "20000"]) {
			commit(stale, bad);
			expect(errorOf(tab, "staleMinutes"), bad).toBe("Enter a number of minutes from 0.1 to 10080.");
		}
		commit(stale, "12.5");
		expect(errorOf(tab, "staleMinutes")).toBe("");
		commit(input(tab, "graceSeconds"), "700");
		expect(errorOf(tab, "graceSeconds")).toBe("Enter a number of seconds from 0 to 600.");
		const timeout = input(tab, "defaultTimeoutSeconds");
		commit(timeout, "1.5");
		expect(errorOf(tab, "defaultTimeoutSeconds")).toBe("Enter a whole number of seconds from 0 to 604800.");
		commit(timeout, "90");
		const data = await saved(h);
		expect(data).toMatchObject({ staleMinutes: 12.5, graceSeconds: 5, defaultTimeoutSeconds: 90 });
		expect(h.parts.settings.current).toMatchObject({ staleMinutes: 12.5, graceSeconds: 5, defaultTimeoutSeconds: 90 });
	});

	it("toggles and the priority dropdown save at once; compose uses the new defaults", async () => {
		h = await boot();
		const tab = h.host.openSettings("a2a-relay");
		(row(tab, "Automatic routing").querySelector(".checkbox-container") as HTMLElement).click();
		(row(tab, "Routing notices").querySelector(".checkbox-container") as HTMLElement).click();
		fill(input<HTMLSelectElement>(tab, "defaultPriority"), "low");
		expect(await saved(h)).toMatchObject({ autoRoute: false, showNotices: false, defaultPriority: "low" });
		// automatic routing is off: a new outbox note stays where it is
		await h.host.fakeApp.vault.create(`${box(BACKEND, "outbox")}/wait.md`, requestNote({ from: BACKEND, to: FRONTEND }).text);
		await settle(h);
		expect(await filesIn(h, box(BACKEND, "outbox"))).toEqual(["wait.md"]);
		expect(available(h, "compose-message")).toBe(true);
	});

	it("a typed value is saved after a pause, or when the tab closes", async () => {
		h = await boot();
		const tab = h.host.openSettings("a2a-relay");
		fill(input(tab, "staleMinutes"), "7");
		h.host.closeSettings();
		expect(await saved(h)).toMatchObject({ staleMinutes: 7 });
		const again = h.host.openSettings("a2a-relay");
		fill(input(again, "defaultTimeoutSeconds"), "33");
		await waitFor("the debounced save", async () => (await saved(h as Harness)).defaultTimeoutSeconds === 33);
	});

	it("an outside edit of data.json (sync) is picked up: onExternalSettingsChange applies it", async () => {
		h = await boot({ files: { "Team/registry.yaml": TEAM_REGISTRY } });
		await h.host.externalWrite(DATA, JSON.stringify({ rootFolder: "Team", staleMinutes: 3, autoRoute: true }));
		await waitFor("the new root applied", () => h?.parts.relay.router.layout.registryPath === "Team/registry.yaml");
		await settle(h);
		expect(h.parts.settings.current).toMatchObject({ rootFolder: "Team", staleMinutes: 3 });
		expect(h.parts.relay.router.layout.groupIds()).toEqual(["red", "blue"]);
		// the tab shows the current values when opened
		expect(input(h.host.openSettings("a2a-relay"), "rootFolder").value).toBe("Team");
	});

	// The relay is built before data.json is read: its router must be made again at layout-ready.
	it("settings saved in data.json apply from startup", async () => {
		h = await boot({ settings: { rootFolder: "Team" }, files: { "Team/registry.yaml": TEAM_REGISTRY } });
		expect(h.parts.settings.current.rootFolder).toBe("Team");
		expect(h.parts.relay.router.layout.registryPath).toBe("Team/registry.yaml");
	});
});

describe("declarative settings (Obsidian 1.13+)", () => {
	it("describe the same rows, validate the same way and save through updateSettings", async () => {
		h = await boot();
		const tab = h.host.settingTabs().find((t) => t instanceof RelaySettingTab) as unknown as RelaySettingTab;
		const groups = tab.getSettingDefinitions() as { heading: string; items: { name: string; control: { key: string; type: string; validate?: (v: string) => string | undefined } }[] }[];
		expect(groups.map((g) => g.heading)).toEqual(["Groups", "Folders", "New messages", "Agents", "Notices", "Advanced"]);
		// The root folder, the Groups editor and the registry's limits render themselves (the same code as display()).
		expect(groups.flatMap((g) => g.items.filter((i) => "render" in i).map((i) => i.name))).toEqual(["Groups", "Root folder", "Answer timeout and retries"]);
		const controls = groups.flatMap((g) => g.items.filter((i) => i.control).map((i) => i.control));
		expect(controls.map((c) => `${c.key}:${c.type}`)).toEqual([
			"extraAgentFolders:textarea",
			"defaultPriority:dropdown",
			"defaultTimeoutSeconds:text",
			"staleMinutes:text",
			"showNotices:toggle",
			"noticesForAll:toggle",
			"autoRoute:toggle",
			"routeOnDevice:dropdown",
			"syncMarginSeconds:text",
			"deviceName:text",
			"graceSeconds:text",
		]);
		const byKey = Object.fromEntries(controls.map((c) => [c.key, c]));
		expect(byKey.syncMarginSeconds.validate?.("0")).toContain("1 to 86400");
		expect(byKey.staleMinutes.validate?.("0")).toContain("0.1 to 10080");
		expect(tab.getControlValue("extraAgentFolders")).toBe("");
		await tab.setControlValue("extraAgentFolders", "Runs\nMore");
		await tab.setControlValue("staleMinutes", "garbage");
		await tab.setControlValue("autoRoute", false);
		await tab.setControlValue("routeOnDevice", "never");
		await tab.setControlValue("routeOnDevice", "sometimes");
		expect(h.parts.settings.current).toMatchObject({ extraAgentFolders: ["Runs", "More"], staleMinutes: 5, autoRoute: false, routeOnDevice: "never" });
		expect(tab.getControlValue("extraAgentFolders")).toBe("Runs\nMore");
		expect(EXAMPLE_REGISTRY).toContain("groups:");
	});
});
