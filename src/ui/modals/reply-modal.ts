import { planReply, writeReply } from "../../commands/reply-to-message";
import type { ActiveInboxRequest } from "../../commands/context";
import type { RelayServices } from "../../services";
import { ArtifactsField } from "./artifacts-field";
import { FormModal } from "./form";

// Reply to message: status, answer, artifacts, for the request open in an inbox.

export class ReplyModal extends FormModal {
	private artifacts: ArtifactsField | null = null;

	constructor(
		private readonly services: RelayServices,
		private readonly target: ActiveInboxRequest,
	) {
		super(services.app);
		this.setTitle("Reply to message");
	}

	protected submitLabel(): string {
		return "Send reply";
	}

	protected build(el: HTMLElement): void {
		const { entry, group } = this.target;
		el.createEl("p", {
			cls: "a2a-modal-summary",
			text: `${group} answers ${entry.sourceGroup ?? "the requester"} (${entry.requestType ?? "request"}, trace ${entry.traceId ?? "unknown"}).`,
		});
		this.dropdown(el, "status", "Status", { success: "Success", error: "Error" }, { value: "success" });
		this.textArea(el, "answer", "Answer", { rows: 5, desc: "With status error, this is the error message." });
		this.artifacts = new ArtifactsField(this.app, el);
	}

	protected submit(): Promise<boolean> {
		this.clearErrors();
		const planned = planReply(
			this.services,
			this.target.entry,
			this.target.group,
			{ status: this.field("status").value(), answer: this.field("answer").value(), artifacts: this.artifacts?.values() ?? [] },
			Date.now(),
		);
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return Promise.resolve(false);
		}
		return writeReply(this.services, planned).then(() => true);
	}
}
