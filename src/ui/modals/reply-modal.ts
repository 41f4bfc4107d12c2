import type { App } from "obsidian";
import { planReply } from "../../actions/reply";
import type { ActionVault } from "../../actions/vault";
import { writePlannedNote } from "../../actions/write-note";
import { parseBodySections } from "../../core/body";
import { splitNote } from "../../core/frontmatter";
import { RESPONSE_STATUS_LABELS } from "../../core/labels";
import type { ActiveInboxRequest } from "../../obsidian/active-note";
import type { RelayState } from "../../obsidian/relay-state";
import { ArtifactsField } from "./artifacts-field";
import type { ComposedMessages } from "../../obsidian/composed-messages";
import { announceWritten, messageIdOf } from "../notices/message-notice";
import { FORM_TEXT, NOTICE_TEXT } from "../strings";
import { FormModal } from "./form";

// Reply to message: the question it answers, then status, answer (focused: the first empty field)
// and artifacts, for the request open in an inbox.

/** How much of the request the reply modal quotes. */
const QUOTED = 600;

/** The request's question (or task, then context), as the modal quotes it. */
function requestText(note: string): string {
	const payload = parseBodySections(splitNote(note).body);
	const first = [payload.question, payload.task, payload.context].find((v): v is string => typeof v === "string" && v.trim() !== "") ?? "";
	return first.length > QUOTED ? `${first.slice(0, QUOTED)}…` : first;
}

export class ReplyModal extends FormModal {
	private artifacts: ArtifactsField | null = null;

	constructor(
		app: App,
		private readonly state: RelayState,
		private readonly vault: Pick<ActionVault, "create">,
		private readonly target: ActiveInboxRequest,
		private readonly composed: ComposedMessages,
	) {
		super(app);
		this.setTitle(FORM_TEXT.reply.title);
	}

	protected submitLabel(): string {
		return FORM_TEXT.reply.submit;
	}

	protected build(el: HTMLElement): void {
		const { entry, group } = this.target;
		el.createEl("p", {
			cls: "a2a-modal-summary",
			text: FORM_TEXT.reply.summary(group, entry.sourceGroup, entry.requestType, entry.traceId),
		});
		// The question it answers, as the requester wrote it (read once the modal is open).
		const question = el.createEl("blockquote", { cls: "a2a-reply-question", attr: { "aria-label": FORM_TEXT.reply.question } });
		void this.app.vault.cachedRead(this.target.file).then((text) => question.setText(requestText(text)));
		this.dropdown(el, "status", FORM_TEXT.reply.status, { success: RESPONSE_STATUS_LABELS.success, error: RESPONSE_STATUS_LABELS.error }, { value: "success" });
		this.textArea(el, "answer", FORM_TEXT.reply.answer, { rows: 5, desc: FORM_TEXT.reply.answerDesc });
		this.artifacts = new ArtifactsField(this.app, el);
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const planned = planReply(this.state.routing(Date.now()), this.target.entry, this.target.group, {
			status: this.field("status").value(),
			answer: this.field("answer").value(),
			artifacts: this.artifacts?.values() ?? [],
		});
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return false;
		}
		const path = await writePlannedNote(this.vault, planned);
		announceWritten(this.app, this.state, this.composed, NOTICE_TEXT.responseWritten, path, messageIdOf(planned.text));
		return true;
	}
}
