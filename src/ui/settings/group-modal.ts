import { SecretComponent, Setting } from "obsidian";
import type { App } from "obsidian";
import { remoteUrl } from "../../core/registry";
import type { RegistryEdit } from "../../core/registry-edit";
import { SecretApprovals } from "../../obsidian/secret-approvals";
import { FormModal } from "../modals/form";
import { SETTINGS_TEXT } from "../strings";

// Edit group (and Add group): the group's id, description and remote agent URL in labelled fields,
// each error next to its field (an invalid URL is marked before anything is written). Saving runs
// the registry edits one by one through `save`, which answers null when written, else why not.

export interface GroupValues {
	id: string;
	description: string;
	url: string;
	/** The secret of Obsidian's secret storage that holds the remote agent's token ("" for none). */
	tokenSecret: string;
}

export type GroupSave = (edit: RegistryEdit) => Promise<string | null>;

export class GroupModal extends FormModal {
	private secret: string;

	constructor(
		app: App,
		/** The group as it is (null: a new group). */
		private readonly group: GroupValues | null,
		private readonly save: GroupSave,
		/** After the registry was written (renames also move the group's folder). */
		private readonly saved: (renamed: { from: string; to: string } | null) => Promise<void>,
	) {
		super(app);
		this.secret = group?.tokenSecret ?? "";
		this.setTitle(group ? SETTINGS_TEXT.editGroupTitle(group.id) : SETTINGS_TEXT.addGroup);
	}

	protected submitLabel(): string {
		return this.group ? SETTINGS_TEXT.save : SETTINGS_TEXT.addGroup;
	}

	protected build(el: HTMLElement): void {
		const group = this.group;
		this.text(el, "id", SETTINGS_TEXT.groupId, { desc: SETTINGS_TEXT.groupIdDesc, value: group?.id ?? "", placeholder: SETTINGS_TEXT.groupIdPlaceholder });
		this.text(el, "description", SETTINGS_TEXT.groupDescription, { value: group?.description ?? "" });
		const url = this.text(el, "url", SETTINGS_TEXT.groupUrl, { desc: SETTINGS_TEXT.groupUrlDesc, value: group?.url ?? "", placeholder: SETTINGS_TEXT.groupUrlPlaceholder });
		url.control.setAttr("inputmode", "url");
		// A remote group's token: the registry names a secret of Obsidian's secret storage (kept on this device, never in the vault).
		const secret = new Setting(el).setName(SETTINGS_TEXT.groupSecret).setDesc(SETTINGS_TEXT.groupSecretDesc);
		secret.settingEl.addClass("a2a-group-secret");
		secret.addComponent((control) => new SecretComponent(this.app, control).setValue(this.secret).onChange((value) => (this.secret = value)));
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const before = this.group;
		const id = this.field("id").value().trim();
		const description = this.field("description").value().trim();
		const url = this.field("url").value().trim();
		if (id === "") {
			this.showErrors({ id: SETTINGS_TEXT.groupIdMissing });
			return false;
		}
		if (url !== "" && remoteUrl(url) === null) {
			this.showErrors({ url: SETTINGS_TEXT.groupUrlInvalid });
			return false;
		}
		const steps: { edit: RegistryEdit; field: string }[] = [];
		if (!before) steps.push({ edit: { op: "add-group", id, description: description || undefined }, field: "id" });
		else {
			if (id !== before.id) steps.push({ edit: { op: "rename-group", id: before.id, to: id }, field: "id" });
			if (description !== before.description) steps.push({ edit: { op: "set-group", id, field: "description", value: description }, field: "description" });
		}
		if (url !== (before?.url ?? "")) steps.push({ edit: { op: "set-group", id, field: "url", value: url }, field: "url" });
		if (this.secret !== (before?.tokenSecret ?? "")) steps.push({ edit: { op: "set-group", id, field: "token_secret", value: this.secret }, field: "url" });
		for (const step of steps) {
			const error = await this.save(step.edit);
			if (error) {
				this.showErrors({ [step.field]: error });
				return false;
			}
		}
		// Chosen here, on this device: this secret may go to this group's address (and follows it when it moves).
		if (this.secret !== "" && url !== "") new SecretApprovals(this.app).approve(this.secret, url);
		await this.saved(before && id !== before.id ? { from: before.id, to: id } : null);
		return true;
	}
}
