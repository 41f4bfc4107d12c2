import { planAgent, writeAgent } from "../../commands/new-agent";
import type { RelayServices } from "../../services";
import { GroupSuggest } from "../suggest/group-suggest";
import { FormModal } from "./form";

// Create agent note: name, role, group, objective.

export class NewAgentModal extends FormModal {
	constructor(private readonly services: RelayServices) {
		super(services.app);
		this.setTitle("Create agent note");
	}

	protected submitLabel(): string {
		return "Create";
	}

	protected build(el: HTMLElement): void {
		this.text(el, "name", "Name", { placeholder: "backend-agent-1", desc: "The agent id, and the note's name." });
		this.text(el, "role", "Role", { placeholder: "Database designer" });
		const group = this.text(el, "group", "Group", { placeholder: "Group id" });
		new GroupSuggest(this.app, group.control as HTMLInputElement, () => [...this.services.relay.router.registry.groups.values()]);
		this.textArea(el, "objective", "Objective", { rows: 3 });
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const values = {
			name: this.field("name").value(),
			role: this.field("role").value(),
			group: this.field("group").value(),
			objective: this.field("objective").value(),
		};
		const planned = await planAgent(this.services, values, Date.now());
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return false;
		}
		if (!(await writeAgent(this.services, planned))) {
			this.showErrors({ name: `An agent named ${values.name.trim()} exists already.` });
			return false;
		}
		return true;
	}
}
