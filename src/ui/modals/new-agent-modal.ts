import type { App } from "obsidian";
import { planAgent } from "../../actions/new-agent";
import type { ActionVault } from "../../actions/vault";
import type { RelayState } from "../../obsidian/relay-state";
import type { SettingsStore } from "../../obsidian/settings-store";
import { GroupSuggest } from "../suggest/group-suggest";
import { FormModal } from "./form";
import { FORM_TEXT } from "../strings";

// Create agent note: name, role, group, objective.

export class NewAgentModal extends FormModal {
	constructor(
		app: App,
		private readonly state: RelayState,
		private readonly settings: SettingsStore,
		private readonly vault: Pick<ActionVault, "create" | "exists">,
	) {
		super(app);
		this.setTitle(FORM_TEXT.newAgent.title);
	}

	protected submitLabel(): string {
		return FORM_TEXT.newAgent.submit;
	}

	protected build(el: HTMLElement): void {
		this.text(el, "name", FORM_TEXT.newAgent.name, { placeholder: FORM_TEXT.newAgent.namePlaceholder, desc: FORM_TEXT.newAgent.nameDesc });
		this.text(el, "role", FORM_TEXT.newAgent.role, { placeholder: FORM_TEXT.newAgent.rolePlaceholder });
		const group = this.text(el, "group", FORM_TEXT.newAgent.group, { placeholder: FORM_TEXT.newAgent.groupPlaceholder });
		new GroupSuggest(this.app, group.control as HTMLInputElement, () => [...this.state.registry().groups.values()]);
		this.textArea(el, "objective", FORM_TEXT.newAgent.objective, { rows: 3 });
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const values = {
			name: this.field("name").value(),
			role: this.field("role").value(),
			group: this.field("group").value(),
			objective: this.field("objective").value(),
		};
		const planned = await planAgent(this.vault, this.settings.current.rootFolder, values, Date.now());
		if (!planned.ok) {
			this.showErrors(planned.errors);
			return false;
		}
		// The name may have been taken meanwhile: create never overwrites.
		if (!(await this.vault.create(planned.path, planned.text))) {
			this.showErrors({ name: FORM_TEXT.newAgent.exists(values.name.trim()) });
			return false;
		}
		const file = this.app.vault.getFileByPath(planned.path);
		if (file) await this.app.workspace.getLeaf(false).openFile(file);
		return true;
	}
}
