import { mainTextKey, planRequest, writeRequest } from "../../commands/compose-message";
import { PRIORITIES, REQUEST_TYPES } from "../../core/protocol";
import type { RelayServices } from "../../services";
import { GroupSuggest } from "../suggest/group-suggest";
import { ArtifactsField } from "./artifacts-field";
import { FormModal } from "./form";
import type { Field } from "./form";

// Compose message: from, to, type, priority, timeout, the question or task, context, artifacts.

const TYPE_LABELS: Record<string, string> = { query: "Query", task: "Task", artifact: "Artifact" };
const PRIORITY_LABELS: Record<string, string> = { low: "Low", medium: "Medium", high: "High" };

export class ComposeModal extends FormModal {
	private artifacts: ArtifactsField | null = null;

	constructor(private readonly services: RelayServices) {
		super(services.app);
		this.setTitle("Compose message");
	}

	protected submitLabel(): string {
		return "Send";
	}

	private groups() {
		return [...this.services.relay.router.registry.groups.values()].filter((g) => this.services.relay.router.layout.hasGroup(g.id));
	}

	protected build(el: HTMLElement): void {
		const settings = this.services.settings;
		const layout = this.services.relay.router.layout;
		const lastFrom = layout.hasGroup(settings.lastFromGroup) ? settings.lastFromGroup : "";
		const from = this.text(el, "from", "From group", { value: lastFrom, placeholder: "Sending group", desc: "The group whose outbox gets the request." });
		const to = this.text(el, "to", "To group", { placeholder: "Target group" });
		new GroupSuggest(this.app, from.control as HTMLInputElement, () => this.groups());
		new GroupSuggest(this.app, to.control as HTMLInputElement, () => this.groups().filter((g) => g.id !== from.value().trim()));
		const typeChoices: Record<string, string> = {};
		for (const t of REQUEST_TYPES) typeChoices[t] = TYPE_LABELS[t] ?? t;
		const type = this.dropdown(el, "type", "Request type", typeChoices, { value: "query" });
		const priorityChoices: Record<string, string> = {};
		for (const p of PRIORITIES) priorityChoices[p] = PRIORITY_LABELS[p] ?? p;
		this.dropdown(el, "priority", "Priority", priorityChoices, { value: settings.defaultPriority });
		this.text(el, "timeout", "Timeout (seconds)", {
			value: String(settings.defaultTimeoutSeconds),
			desc: "0 uses the registry's timeout.",
		}).control.setAttr("inputmode", "numeric");
		const text = this.textArea(el, "text", "Question", { rows: 4 });
		const relabel = () => this.relabel(text, type.value());
		type.control.addEventListener("change", relabel);
		relabel();
		this.textArea(el, "context", "Context", { rows: 3, desc: "Background the other group needs." });
		this.artifacts = new ArtifactsField(this.app, el);
	}

	private relabel(field: Field, type: string): void {
		const question = mainTextKey(type) === "question";
		field.setting.setName(question ? "Question" : "Task");
		field.setting.setDesc(question ? "What you want to know." : "What the other group should do or produce.");
	}

	protected submit(): Promise<boolean> {
		const values = {
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
		const planned = planRequest(this.services, values, Date.now());
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return Promise.resolve(false);
		}
		return writeRequest(this.services, planned, values.from.trim()).then(() => true);
	}
}
