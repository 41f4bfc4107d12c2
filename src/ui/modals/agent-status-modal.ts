import type { App, TFile } from "obsidian";
import { planAgentStatus, writeAgentStatus } from "../../actions/set-status";
import type { ActionVault } from "../../actions/vault";
import { LIFECYCLE_LABELS } from "../../core/labels";
import type { LifecycleState } from "../../core/lifecycle";
import type { AgentEntry } from "../../obsidian/agent-store";
import { FormModal } from "./form";
import { FORM_TEXT } from "../strings";

// Set agent status: only the moves the lifecycle allows from the agent's status, progress and
// last action.

export class AgentStatusModal extends FormModal {
	constructor(
		app: App,
		private readonly vault: Pick<ActionVault, "read" | "replace">,
		private readonly file: TFile,
		private readonly agent: AgentEntry,
		private readonly legal: readonly LifecycleState[],
	) {
		super(app);
		this.setTitle(FORM_TEXT.status.title);
	}

	protected submitLabel(): string {
		return FORM_TEXT.status.submit;
	}

	protected build(el: HTMLElement): void {
		el.createEl("p", { cls: "a2a-modal-summary", text: FORM_TEXT.status.summary(this.agent.name, this.agent.status) });
		const choices: Record<string, string> = {};
		for (const state of this.legal) choices[state] = state === this.agent.status ? FORM_TEXT.status.sameStatus(LIFECYCLE_LABELS[state]) : LIFECYCLE_LABELS[state];
		// The agent's status when it may stay (a progress update), else the first move it may make.
		this.dropdown(el, "status", FORM_TEXT.status.status, choices, { value: this.legal.includes(this.agent.status as LifecycleState) ? this.agent.status : this.legal[0] });
		this.text(el, "progress", FORM_TEXT.status.progress, {
			value: this.agent.progress !== undefined ? String(this.agent.progress) : "",
			placeholder: "0-100",
		}).control.setAttr("inputmode", "decimal");
		// The current values as values (edited in place), not as placeholders.
		this.text(el, "last_action", FORM_TEXT.status.lastAction, { value: this.agent.lastAction ?? "", placeholder: FORM_TEXT.status.lastActionPlaceholder });
	}

	/** The status is what the modal is for: it has the focus, whatever else is empty. */
	protected focusFirst(): void {
		this.contentEl.querySelector<HTMLElement>('[name="status"]')?.focus();
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
		await writeAgentStatus(this.vault, this.file.path, planned.updates, now);
		return true;
	}
}
