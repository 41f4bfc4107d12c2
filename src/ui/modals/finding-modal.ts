import { Notice } from "obsidian";
import type { App, TFile } from "obsidian";
import { planFinding, writeFinding } from "../../actions/append-finding";
import type { ActionVault } from "../../actions/vault";
import { FormModal } from "./form";
import { FORM_TEXT, NOTICE_TEXT } from "../strings";

// Append finding: the action and the four sections of the standard message structure.

export class FindingModal extends FormModal {
	constructor(
		app: App,
		private readonly vault: Pick<ActionVault, "read" | "replace">,
		private readonly file: TFile,
		private readonly agentName: string,
	) {
		super(app);
		this.setTitle(FORM_TEXT.finding.title);
	}

	protected submitLabel(): string {
		return FORM_TEXT.finding.submit;
	}

	protected build(el: HTMLElement): void {
		el.createEl("p", { cls: "a2a-modal-summary", text: FORM_TEXT.finding.summary(this.agentName) });
		this.text(el, "action", FORM_TEXT.finding.action, { placeholder: FORM_TEXT.finding.actionPlaceholder });
		this.textArea(el, "context", FORM_TEXT.finding.context);
		this.textArea(el, "data", FORM_TEXT.finding.data);
		this.textArea(el, "decisions", FORM_TEXT.finding.decisions);
		this.textArea(el, "next_steps", FORM_TEXT.finding.nextSteps);
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const planned = planFinding({
			action: this.field("action").value(),
			context: this.field("context").value(),
			data: this.field("data").value(),
			decisions: this.field("decisions").value(),
			nextSteps: this.field("next_steps").value(),
		});
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return false;
		}
		await writeFinding(this.vault, this.file.path, planned.finding, Date.now());
		new Notice(NOTICE_TEXT.findingAdded(this.file.basename));
		return true;
	}
}
