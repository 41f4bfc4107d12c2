// The first minute on a vault without A2A folders: the plugin starts without a notice, the sidebar
// opens by itself with one welcome card (three steps, one button: the next step's), and each step
// is ticked as it is done: the folders by the card's button, an agent and a first message as the
// user (or an agent) writes them. The real plugin on the fake Obsidian over a temp vault.
import { afterEach, expect, test, vi } from "vitest";
import A2ARelayPlugin from "../../main";
import manifest from "../../manifest.json";
import { AgentStatusView, VIEW_TYPE_AGENT_STATUS } from "../../src/ui/agent-status-view";
import { createTempHost, type TempHost } from "../../test-support/fake-obsidian/node-host";

let host: TempHost | null = null;
let plugin: A2ARelayPlugin | null = null;

afterEach(async () => {
	await plugin?.parts.relay.whenIdle();
	await host?.settled();
	await host?.cleanup();
	host = null;
	plugin = null;
});

const shown = (el: Element | null): boolean => !!el && !el.closest(".a2a-hidden");

async function idle(): Promise<void> {
	for (let i = 0; i < 3; i++) {
		await host?.settled();
		await plugin?.parts.relay.whenIdle();
	}
}

function card(el: HTMLElement) {
	const welcome = el.querySelector<HTMLElement>(".a2a-welcome");
	return {
		shown: shown(welcome),
		buttons: Array.from(welcome?.querySelectorAll<HTMLButtonElement>("button") ?? []).filter(shown).map((b) => b.textContent),
		done: Array.from(welcome?.querySelectorAll<HTMLElement>(".a2a-welcome-step") ?? []).map((li) => `${li.dataset.step}=${li.dataset.done}`),
	};
}

test("an empty vault: no notice, one welcome card with one button, each step ticked as it is done", async () => {
	host = await createTempHost({ files: { "Notes/Hello.md": "# Hello\n" }, prefix: "a2a-first-" });
	plugin = await host.loadPlugin(A2ARelayPlugin, manifest);
	await host.loadVault();
	await host.setLayoutReady();
	await idle();

	expect(host.notices).toEqual([]);
	const leaf = host.app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0];
	expect(leaf?.view).toBeInstanceOf(AgentStatusView);
	const el = (leaf.view as AgentStatusView).contentEl;
	await vi.waitFor(() => expect(card(el).shown).toBe(true), { timeout: 5000, interval: 5 });
	expect(card(el)).toEqual({ shown: true, buttons: ["Create the A2A folders"], done: ["folders=false", "agent=false", "message=false"] });
	// Nothing else competes with it: no empty agents list, no empty message flow.
	expect(shown(el.querySelector(".a2a-agents"))).toBe(false);
	expect(shown(el.querySelector(".a2a-flow"))).toBe(false);
	expect(Array.from(el.querySelectorAll("button")).filter(shown).length).toBe(1);

	el.querySelector<HTMLButtonElement>(".a2a-welcome button")?.click();
	await idle();
	await vi.waitFor(() => expect(card(el).done).toEqual(["folders=true", "agent=false", "message=false"]), { timeout: 5000, interval: 5 });
	// The step is ticked once the registry exists; the notice comes when the whole init is done.
	await vi.waitFor(() => expect(host?.notices.length).toBeGreaterThan(0), { timeout: 5000, interval: 5 });
	expect(host.notices.at(-1)).toMatch(/^A2A is ready: 5 groups can send each other messages \(10-backend-group, .* and 1 more\), each with an inbox and an outbox\. Two bases list the messages and the agents\. Next: create an agent\.$/);
	expect(card(el).buttons).toEqual(["Create agent note…"]);
	expect(shown(el.querySelector(".a2a-flow"))).toBe(true);

	await host.externalWrite("A2A/agents/helper.md", `---\nagent_id: helper\nstatus: spawned\ngroup: 10-backend-group\n---\n`);
	await idle();
	await vi.waitFor(() => expect(card(el).done).toEqual(["folders=true", "agent=true", "message=false"]), { timeout: 5000, interval: 5 });
	expect(card(el).buttons).toEqual(["Compose message…"]);

	await host.externalWrite("A2A/groups/10-backend-group/outbox/hello.md", `---\ntrace_id: "a1b2c3d4-e5f6-4890-abcd-ef1234567890"\nhop_count: 0\nsource_group: "10-backend-group"\ntarget_group: "20-frontend-group"\nrequest_type: "query"\n---\n## Question\nHello?\n`);
	await idle();
	await vi.waitFor(() => expect(card(el).shown).toBe(false), { timeout: 5000, interval: 5 });
	expect(host.notices.filter((n) => n.includes("registry"))).toEqual([]);
});
