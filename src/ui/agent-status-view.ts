import { ItemView } from "obsidian";
import type { App, WorkspaceLeaf } from "obsidian";
import type { RelayServices } from "../services";

export const VIEW_TYPE_AGENT_STATUS = "a2a-agent-status";

/** PLACEHOLDER, being replaced: the agent status sidebar. */
export class AgentStatusView extends ItemView {
	constructor(
		leaf: WorkspaceLeaf,
		private readonly services: RelayServices,
	) {
		super(leaf);
	}

	getViewType(): string {
		return VIEW_TYPE_AGENT_STATUS;
	}

	getDisplayText(): string {
		return "Agent status";
	}

	getIcon(): string {
		return "radio-tower";
	}

	async onOpen(): Promise<void> {
		this.contentEl.empty();
		this.contentEl.createEl("p", { text: `${this.services.agents.all().length} agents` });
	}
}

/** Opens the view in the right sidebar, or reveals it when it is already open. */
export async function openAgentStatus(app: App): Promise<void> {
	const existing = app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0];
	const leaf = existing ?? app.workspace.getRightLeaf(false);
	if (!leaf) return;
	if (!existing) await leaf.setViewState({ type: VIEW_TYPE_AGENT_STATUS, active: true });
	await app.workspace.revealLeaf(leaf);
}
