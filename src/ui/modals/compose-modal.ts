import type { App } from "obsidian";
import { mainTextKey, planRequest } from "../../actions/compose";
import type { ComposeValues } from "../../actions/compose";
import type { ActionVault } from "../../actions/vault";
import { writePlannedNote } from "../../actions/write-note";
import { PRIORITY_LABELS, REQUEST_TYPE_LABELS } from "../../core/labels";
import { PRIORITIES, REQUEST_TYPES } from "../../core/protocol";
import type { RelayState } from "../../obsidian/relay-state";
import type { SettingsStore } from "../../obsidian/settings-store";
import { gatewayGroup } from "../../core/registry";
import { GroupSuggest } from "../suggest/group-suggest";
import { ArtifactsField } from "./artifacts-field";
import type { ComposedMessages } from "../../obsidian/composed-messages";
import { announceWritten, messageIdOf } from "../notices/message-notice";
import { FORM_TEXT, NOTICE_TEXT } from "../strings";
import { FormModal } from "./form";
import type { Field } from "./form";

// Compose message: from, to, type, priority, timeout, the question or task, context, artifacts.

export class ComposeModal extends FormModal {
	private artifacts: ArtifactsField | null = null;

	constructor(
		app: App,
		private readonly state: RelayState,
		private readonly settings: SettingsStore,
		private readonly vault: Pick<ActionVault, "create">,
		private readonly composed: ComposedMessages,
	) {
		super(app);
		this.setTitle(FORM_TEXT.compose.title);
	}

	protected submitLabel(): string {
		return FORM_TEXT.compose.submit;
	}

	private groups() {
		const layout = this.state.layout();
		return [...this.state.registry().groups.values()].filter((g) => layout.hasGroup(g.id));
	}

	protected build(el: HTMLElement): void {
		const settings = this.settings.current;
		const lastFrom = this.state.layout().hasGroup(settings.lastFromGroup) ? settings.lastFromGroup : "";
		const from = this.text(el, "from", FORM_TEXT.compose.from, { value: lastFrom, placeholder: FORM_TEXT.compose.fromPlaceholder, desc: FORM_TEXT.compose.fromDesc });
		const to = this.text(el, "to", FORM_TEXT.compose.to, { placeholder: FORM_TEXT.compose.toPlaceholder });
		new GroupSuggest(this.app, from.control as HTMLInputElement, () => this.groups());
		// The gateway group answers no request: it is never suggested as a target.
		new GroupSuggest(this.app, to.control as HTMLInputElement, () => this.groups().filter((g) => g.id !== from.value().trim() && g.id !== gatewayGroup(this.state.registry())));
		const typeChoices: Record<string, string> = {};
		for (const t of REQUEST_TYPES) typeChoices[t] = REQUEST_TYPE_LABELS[t];
		const type = this.dropdown(el, "type", FORM_TEXT.compose.type, typeChoices, { value: "query" });
		const priorityChoices: Record<string, string> = {};
		for (const p of PRIORITIES) priorityChoices[p] = PRIORITY_LABELS[p];
		this.dropdown(el, "priority", FORM_TEXT.compose.priority, priorityChoices, { value: settings.defaultPriority });
		// Blank means the registry's default, shown as the placeholder.
		this.text(el, "timeout", FORM_TEXT.compose.timeout, {
			value: settings.defaultTimeoutSeconds > 0 ? String(settings.defaultTimeoutSeconds) : "",
			placeholder: String(this.state.registry().communication.timeout_seconds),
			desc: FORM_TEXT.compose.timeoutDesc,
		}).control.setAttr("inputmode", "numeric");
		const text = this.textArea(el, "text", FORM_TEXT.compose.question, { rows: 4 });
		const relabel = () => this.relabel(text, type.value());
		type.control.addEventListener("change", relabel);
		relabel();
		this.textArea(el, "context", FORM_TEXT.compose.context, { rows: 3, desc: FORM_TEXT.compose.contextDesc });
		this.artifacts = new ArtifactsField(this.app, el);
	}

	private relabel(field: Field, type: string): void {
		const question = mainTextKey(type) === "question";
		field.setting.setName(question ? FORM_TEXT.compose.question : FORM_TEXT.compose.task);
		field.setting.setDesc(question ? FORM_TEXT.compose.questionDesc : FORM_TEXT.compose.taskDesc);
	}

	protected async submit(): Promise<boolean> {
		const values: ComposeValues = {
			from: this.field("from").value(),
			to: this.field("to").value(),
			type: this.field("type").value(),
			priority: this.field("priority").value(),
			timeout: this.field("timeout").value(),
			text: this.field("text").value(),
			context: this.field("context").value(),
			artifacts: this.artifacts?.values() ?? [],
		};
		this.clearErrors();
		const planned = planRequest(this.state.routing(Date.now()), values);
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return false;
		}
		const path = await writePlannedNote(this.vault, planned);
		const from = values.from.trim();
		if (this.settings.current.lastFromGroup !== from) await this.settings.update({ lastFromGroup: from });
		announceWritten(this.app, this.state, this.composed, NOTICE_TEXT.requestWritten, path, messageIdOf(planned.text));
		return true;
	}
}
