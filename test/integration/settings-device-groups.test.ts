// The settings that reach beyond data.json: this device's part in routing (route on this device,
// the sync margin, the device's name in the lease, and what the sidebar says about who routes),
// and the Groups section, which edits the registry itself.
import { afterEach, describe, expect, it } from "vitest";
import { SecretApprovals } from "../../src/obsidian/secret-approvals";
import { SecretComponent } from "../../test-support/fake-obsidian/secret-storage";
import { BACKEND, FRONTEND, boot, box, control, fill, modal, settle, waitFor } from "./commands-harness";
import type { Harness } from "./commands-harness";

let h: Harness | undefined;
afterEach(async () => {
	h?.host.closeSettings();
	await h?.host.cleanup();
	h = undefined;
});

const DATA = ".obsidian/plugins/a2a-relay/data.json";

function input<T extends HTMLElement = HTMLInputElement>(root: HTMLElement, key: string): T {
	const el = root.querySelector<T>(`[name="${key}"]`);
	if (!el) throw new Error(`no setting ${key}`);
	return el;
}

/** Types a value, then leaves the field (input + change). */
function commit(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
	fill(el, value);
	el.dispatchEvent(new Event("change", { bubbles: true }));
}

async function saved(harness: Harness): Promise<Record<string, unknown>> {
	await settle(harness);
	return (await harness.host.exists(DATA)) ? (JSON.parse(await harness.host.read(DATA)) as Record<string, unknown>) : {};
}

describe("this device", () => {
	it("routing on this device, the sync margin and the device name are saved and rebuild the router; the sidebar says who routes", async () => {
		h = await boot({ settings: { viewShown: true } });
		const tab = h.host.openSettings("a2a-relay");
		commit(input(tab, "deviceName"), "Work laptop");
		commit(input(tab, "syncMarginSeconds"), "90");
		expect(await saved(h)).toMatchObject({ deviceName: "Work laptop", syncMarginSeconds: 90 });
		await h.parts.relay.routeNow();
		await settle(h);
		expect(await h.host.read("A2A/router.md")).toContain("router_name: Work laptop");
		h.host.closeSettings();
		h.host.executeCommand("a2a-relay:open-agent-status");
		await settle(h);
		const status = () => document.querySelector(".a2a-router-status")?.textContent ?? "";
		expect(status()).toBe("Routing: This device routes (Work laptop).");

		const again = h.host.openSettings("a2a-relay");
		fill(input<HTMLSelectElement>(again, "routeOnDevice"), "never");
		expect(await saved(h)).toMatchObject({ routeOnDevice: "never" });
		await h.parts.relay.routeNow();
		await settle(h);
		expect(h.parts.relay.standby).toContain("never");
	});

	it("the device's id in the lease is random, kept in this app's local storage for the vault; the name is only for people", async () => {
		const ids: string[] = [];
		for (let device = 0; device < 2; device++) {
			// Two devices given one name (as two machines share one host name): two ids.
			h = await boot({ settings: { deviceName: "raspberrypi" } });
			await h.parts.relay.routeNow();
			await settle(h);
			const text = await h.host.read("A2A/router.md");
			const id = /router_device: (\S+)/.exec(text)?.[1] ?? "";
			expect(id).toMatch(/^obsidian-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
			expect(text).toContain("router_name: raspberrypi");
			expect(h.host.fakeApp.loadLocalStorage("a2a-relay-device-id")).toBe(id);
			ids.push(id);
			await h.host.cleanup();
			h = undefined;
		}
		expect(ids[0]).not.toBe(ids[1]);
	});

	it("warns when a sync conflict copy of the lease note shows two devices routing", async () => {
		h = await boot({ settings: { viewShown: true }, files: { "A2A/router.sync-conflict-20260101-120000-ABCDEFG.md": "---\nrouter_device: other\n---\n" } });
		h.host.executeCommand("a2a-relay:open-agent-status");
		await settle(h);
		await waitFor("the warning", () => document.querySelector(".a2a-router-warning"));
		expect(document.querySelector(".a2a-router-warning")?.textContent).toContain("Two devices may both be delivering messages");
	});
});

describe("the Groups section", () => {
	async function groupsTab(harness: Harness): Promise<HTMLElement> {
		const tab = harness.host.openSettings("a2a-relay");
		await waitFor("the Groups editor", () => tab.querySelector(".a2a-group-row"));
		return tab;
	}

	it("adds, describes, renames (with its folder) and removes groups and sets max_hops in registry.yaml, keeping its comments; the router follows", async () => {
		h = await boot({ files: { [`${box(BACKEND, "inbox")}/kept.txt`]: "kept\n" } });
		let tab = await groupsTab(h);
		expect(Array.from(tab.querySelectorAll(".a2a-group-row")).map((r) => r.getAttribute("data-group"))).toEqual([BACKEND, FRONTEND, "30-devops-group", "40-security-group", "a2a-gateway"]);
		// Add group: the Edit group modal, empty; its fields are labelled, not only by placeholders.
		(tab.querySelector(".a2a-add-group button") as HTMLElement).click();
		let m = await modal(h, "Add group");
		expect(Array.from(m.contentEl.querySelectorAll(".setting-item-name")).map((e) => e.textContent)).toEqual(["Group id", "Description", "Remote agent URL", "Token secret"]);
		fill(control(m, "id"), "50-qa-group");
		fill(control(m, "description"), "Tests the app");
		fill(control(m, "url"), "not a url");
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		// An invalid URL is marked at its field, and nothing is written.
		await waitFor("the URL error", () => control(m, "url").getAttribute("aria-invalid") === "true");
		expect(m.contentEl.querySelector(".a2a-field-url .a2a-field-error")?.textContent).toBe("Enter an http:// or https:// address, or leave the field empty.");
		expect(await h.host.read("A2A/registry.yaml")).not.toContain("50-qa-group");
		fill(control(m, "url"), "");
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		await waitFor("the new group row", () => tab.querySelector('.a2a-group-row[data-group="50-qa-group"]'));

		// Edit group (an icon button with a tooltip): the URL.
		const editButton = (id: string) => tab.querySelector<HTMLElement>(`.a2a-group-row[data-group="${id}"] .clickable-icon[aria-label="Edit group ${id}"]`) as HTMLElement;
		editButton(FRONTEND).click();
		m = await modal(h, `Edit group ${FRONTEND}`);
		expect(control(m, "id").value).toBe(FRONTEND);
		fill(control(m, "url"), "https://ui.example/a2a/");
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		await waitFor("the url saved", async () => (await h?.host.read("A2A/registry.yaml"))?.includes("url: https://ui.example/a2a/"));
		await waitFor("the row says so", () => tab.querySelector(`.a2a-group-row[data-group="${FRONTEND}"] .a2a-group-url`)?.textContent === "Remote agent at https://ui.example/a2a/");

		// The registry's limits sit with New messages.
		commit(input(tab, "registry-max_hops"), "8");
		await waitFor("max_hops saved", async () => (await h?.host.read("A2A/registry.yaml"))?.includes("max_hops: 8"));
		commit(input(tab, "registry-timeout_seconds"), "0");
		// A refused value is marked at its own field.
		await waitFor("an error", () => input(tab, "registry-timeout_seconds").getAttribute("aria-invalid") === "true");
		expect(input(tab, "registry-timeout_seconds").closest(".a2a-field")?.querySelector(".a2a-field-error")?.textContent).toContain("at least 1");

		// Rename in the modal: the key changes in place, the group's folder follows.
		editButton(BACKEND).click();
		m = await modal(h, `Edit group ${BACKEND}`);
		fill(control(m, "id"), "11-api-group");
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		await waitFor("the renamed row", () => tab.querySelector('.a2a-group-row[data-group="11-api-group"]'));
		await settle(h);
		expect(await h.host.read("A2A/groups/11-api-group/inbox/kept.txt")).toBe("kept\n");

		// Remove (an icon button) asks once, then removes.
		tab = await groupsTab(h);
		const security = () => tab.querySelector<HTMLElement>('.a2a-group-row[data-group="40-security-group"]');
		const remove = () => security()?.querySelector<HTMLElement>('.clickable-icon[aria-label^="Remove"]') as HTMLElement;
		expect(remove().getAttribute("aria-label")).toBe("Remove group 40-security-group");
		remove().click();
		expect(remove().getAttribute("aria-label")).toBe("Remove 40-security-group from the registry? Click the bin again to remove it (its folders stay).");
		remove().click();
		await waitFor("the row removed", () => security() === null);

		const text = await h.host.read("A2A/registry.yaml");
		expect(text.startsWith("# A2A Relay registry:")).toBe(true);
		expect(text).toContain("max_hops: 8");
		expect(text).toContain("timeout_seconds: 30");
		const groups = ["11-api-group", FRONTEND, "30-devops-group", "50-qa-group", "a2a-gateway"].sort().join(",");
		await waitFor("the router's registry", () => [...(h?.parts.relay.router.layout.groupIds() ?? [])].sort().join(",") === groups);
		expect(h.parts.relay.router.registry.groups.get("50-qa-group")?.description).toBe("Tests the app");
		expect(h.parts.relay.router.registry.communication.max_hops).toBe(8);
	});

	it("a remote group's token is a secret of Obsidian's secret storage: picked or created in Edit group, named in the registry, never written to the vault", async () => {
		h = await boot({ files: {} });
		const tab = await groupsTab(h);
		const edit = async () => {
			(tab.querySelector(`.a2a-group-row[data-group="${FRONTEND}"] .clickable-icon[aria-label="Edit group ${FRONTEND}"]`) as HTMLElement).click();
			return modal(h as Harness, `Edit group ${FRONTEND}`);
		};
		let m = await edit();
		fill(control(m, "url"), "https://ui.example/a2a/");
		const picker = m.contentEl.querySelector(".a2a-group-secret .secret-component");
		SecretComponent.of(picker)?.createSecret("frontend-token", "tok-FRONTEND-0123456789");
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		await waitFor("the secret named", async () => (await h?.host.read("A2A/registry.yaml"))?.includes("token_secret: frontend-token"));
		expect(await h.host.read("A2A/registry.yaml")).toContain("url: https://ui.example/a2a/");
		expect(h.host.app.secretStorage.getSecret("frontend-token")).toBe("tok-FRONTEND-0123456789");
		await settle(h);
		for (const file of h.host.app.vault.getFiles()) expect(await h.host.read(file.path)).not.toContain("tok-FRONTEND");
		await waitFor("the router's registry", () => h?.parts.relay.router.registry.groups.get(FRONTEND)?.tokenSecret === "frontend-token");
		// Chosen here: this device may send it to that group's address, and only there.
		expect(new SecretApprovals(h.host.app).approved("frontend-token", "https://ui.example/other/")).toBe(true);
		expect(new SecretApprovals(h.host.app).approved("frontend-token", "https://elsewhere.example/a2a/")).toBe(false);
		// Choosing "None" takes the name out of the registry again.
		await waitFor("the edited row", () => tab.querySelector(`.a2a-group-row[data-group="${FRONTEND}"] .a2a-group-url`));
		m = await edit();
		const select = m.contentEl.querySelector<HTMLSelectElement>(".a2a-group-secret .secret-component") as HTMLSelectElement;
		expect(select.value).toBe("frontend-token");
		select.value = "";
		select.dispatchEvent(new Event("change", { bubbles: true }));
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		await waitFor("the secret unnamed", async () => !(await h?.host.read("A2A/registry.yaml"))?.includes("token_secret"));
	});

	it("edits registry.md when the registry is a note, and says what to do when there is none", async () => {
		h = await boot({ registry: false, files: { "A2A/registry.md": "---\ngroups:\n  red: {}\n---\n# Our registry\n" } });
		const tab = await groupsTab(h);
		(tab.querySelector(".a2a-add-group button") as HTMLElement).click();
		const m = await modal(h, "Add group");
		fill(control(m, "id"), "blue");
		(m.contentEl.querySelector("button.mod-cta") as HTMLElement).click();
		await waitFor("the new row", () => tab.querySelector('.a2a-group-row[data-group="blue"]'));
		expect(await h.host.read("A2A/registry.md")).toBe("---\ngroups:\n  red: {}\n  blue: {}\n---\n# Our registry\n");
		expect(await h.host.exists("A2A/registry.yaml")).toBe(false);
		h.host.closeSettings();
		await h.host.cleanup();

		h = await boot({ registry: false });
		const empty = h.host.openSettings("a2a-relay");
		await waitFor("the empty state", () => empty.querySelector(".a2a-groups-editor .a2a-empty"));
		expect(empty.querySelector(".a2a-groups-editor .a2a-empty")?.textContent).toContain("Create registry and group folders");
	});
});
