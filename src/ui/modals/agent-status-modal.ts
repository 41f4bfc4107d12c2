import type { TFile } from "obsidian";
import { planAgentStatus, writeAgentStatus } from "../../commands/set-agent-status";
import type { LifecycleState } from "../../core/lifecycle";
import type { AgentView } from "../../obsidian/agent-store";
import type { RelayServices } from "../../services";
import { FormModal } from "./form";

// Set agent status: only the moves the lifecycle allows from the agent's status, progress and
// last action.

const STATUS_LABELS: Record<string, string> = {
	spawned: "Spawned",
	active: "Active",
	running: "Running",
	completed: "Completed",
	failed: "Failed",
};

export class AgentStatusModal extends FormModal {
	constructor(
		private readonly services: RelayServices,
		private readonly file: TFile,
		private readonly agent: AgentView,
		private readonly legal: readonly LifecycleState[],
	) {
		super(services.app);
		this.setTitle("Set agent status");
	}

	protected submitLabel(): string {
		return "Update";
	}

	protected build(el: HTMLElement): void {
		el.createEl("p", { cls: "a2a-modal-summary", text: `${this.agent.name} is ${this.agent.status}.` });
		const choices: Record<string, string> = {};
		for (const state of this.legal) choices[state] = state === this.agent.status ? `${STATUS_LABELS[state] ?? state} (progress update)` : (STATUS_LABELS[state] ?? state);
		this.dropdown(el, "status", "New status", choices, { value: this.legal[0] });
		this.text(el, "progress", "Progress (%)", {
			value: this.agent.progress !== undefined ? String(this.agent.progress) : "",
			placeholder: "0-100",
		}).control.setAttr("inputmode", "decimal");
		this.text(el, "last_action", "Last action", { placeholder: this.agent.lastAction ?? "What the agent just did" });
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const now = Date.now();
		const frontmatter = (this.app.metadataCache.getFileCache(this.file)?.frontmatter ?? {}) as Record<string, unknown>;
		const planned = planAgentStatus(
			this.agent,
			frontmatter,
			{ status: this.field("status").value(), progress: this.field("progress").value(), lastAction: this.field("last_action").value() },
			now,
		);
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return false;
		}
		await writeAgentStatus(this.services, this.file, planned.updates, now);
		return true;
	}
}
