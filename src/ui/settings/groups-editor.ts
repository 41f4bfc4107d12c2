import { SecretComponent, Setting, TFolder } from "obsidian";
import type { App } from "obsidian";
import type { ActionVault } from "../../actions/vault";
import { VaultLayout } from "../../core/layout";
import { parseRegistry, parseRegistryNote } from "../../core/registry";
import type { Registry } from "../../core/registry";
import type { CommunicationKey, RegistryEdit } from "../../core/registry-edit";
import type { RelayState } from "../../obsidian/relay-state";
import { SecretApprovals } from "../../obsidian/secret-approvals";
import { SETTINGS_TEXT } from "../strings";
import { readRegistryFile, writeRegistryEdit } from "./registry-writer";

// The Groups section of the settings: the registry's communication settings and its groups (add,
// rename, describe, point to a remote agent and name the secret holding its token, remove), each change written to the registry at once
// through the vault port. So nobody has to edit YAML by hand (registry.yaml is hidden in Obsidian
// unless all file extensions are shown, and cannot be edited on a phone at all).

const COMMUNICATION: { key: CommunicationKey; name: string; desc: string }[] = [
	{ key: "max_hops", name: SETTINGS_TEXT.maxHops, desc: SETTINGS_TEXT.maxHopsDesc },
	{ key: "timeout_seconds", name: SETTINGS_TEXT.timeout, desc: SETTINGS_TEXT.timeoutDesc },
	{ key: "retry_attempts", name: SETTINGS_TEXT.retries, desc: SETTINGS_TEXT.retriesDesc },
];

export class GroupsEditor {
	private messageEl: HTMLElement | null = null;

	constructor(
		private readonly app: App,
		private readonly el: HTMLElement,
		private readonly state: RelayState,
		private readonly vault: Pick<ActionVault, "read" | "replace">,
	) {
		el.addClass("a2a-groups-editor");
	}

	async render(): Promise<void> {
		const layout = new VaultLayout(this.state.layout().root);
		const file = await readRegistryFile(this.vault, layout);
		this.el.empty();
		this.messageEl = null;
		if (!file) {
			this.el.createDiv({ cls: "a2a-empty", text: SETTINGS_TEXT.noRegistryFile });
			return;
		}
		const registry = file.note ? parseRegistryNote(file.text, layout.root) : parseRegistry(file.text, layout.root);
		if (!registry.usable) {
			this.el.createDiv({ cls: "a2a-field-error", text: SETTINGS_TEXT.unreadableRegistry(registry.errors.map((e) => `${e.where}: ${e.message}`).join("; ")) });
			return;
		}
		this.el.createDiv({ cls: "setting-item-description", text: SETTINGS_TEXT.groupsDesc(file.path) });
		this.messageEl = this.el.createDiv({ cls: "a2a-form-error", attr: { role: "alert" } });
		this.renderCommunication(registry);
		for (const group of registry.groups.values()) this.renderGroup(group.id, group.description ?? "", group.url ?? "", group.tokenSecret ?? "");
		this.renderAdd();
	}

	private async save(edit: RegistryEdit, after?: () => Promise<void>): Promise<boolean> {
		const error = await writeRegistryEdit(this.vault, new VaultLayout(this.state.layout().root), edit);
		if (error) {
			this.messageEl?.setText(error);
			return false;
		}
		if (after) await after();
		await this.render();
		return true;
	}

	private renderCommunication(registry: Registry): void {
		new Setting(this.el).setName(SETTINGS_TEXT.communicationHeading).setHeading();
		for (const row of COMMUNICATION) {
			new Setting(this.el).setName(row.name).setDesc(row.desc).addText((text) => {
				text.setValue(String(registry.communication[row.key]));
				text.inputEl.setAttr("inputmode", "numeric");
				text.inputEl.setAttr("name", `registry-${row.key}`);
				text.inputEl.addEventListener("change", () => void this.save({ op: "set-communication", key: row.key, value: Number(text.getValue().trim()) }));
			});
		}
	}

	private renderGroup(id: string, description: string, url: string, tokenSecret: string): void {
		const setting = new Setting(this.el).setName(id);
		setting.settingEl.addClass("a2a-group-row");
		setting.settingEl.setAttr("data-group", id);
		setting.addText((text) => {
			text.setPlaceholder(SETTINGS_TEXT.groupDescription).setValue(description);
			text.inputEl.setAttr("aria-label", `${SETTINGS_TEXT.groupDescription}: ${id}`);
			text.inputEl.setAttr("name", "description");
			text.inputEl.addEventListener("change", () => void this.save({ op: "set-group", id, field: "description", value: text.getValue() }));
		});
		setting.addText((text) => {
			text.setPlaceholder(SETTINGS_TEXT.groupUrl).setValue(url);
			text.inputEl.setAttr("aria-label", `${SETTINGS_TEXT.groupUrl}: ${id}`);
			text.inputEl.setAttr("name", "url");
			text.inputEl.setAttr("inputmode", "url");
			text.inputEl.addEventListener("change", () => {
				const next = text.getValue().trim();
				// The user moves the group on this device: its secret may follow it to the new address.
				void this.save({ op: "set-group", id, field: "url", value: next }, async () => {
					if (tokenSecret !== "") new SecretApprovals(this.app).approve(tokenSecret, next);
				});
			});
		});
		// A remote group's token: the registry names a secret of Obsidian's secret storage (kept on this device, never in the vault).
		if (url !== "") {
			setting.addComponent((el) =>
				new SecretComponent(this.app, el).setValue(tokenSecret).onChange(
					(value) =>
						void this.save({ op: "set-group", id, field: "token_secret", value }, async () => {
							// Chosen here, on this device: this secret may go to this group's address.
							if (value !== "") new SecretApprovals(this.app).approve(value, url);
						}),
				),
			);
		}
		setting.addButton((button) => button.setButtonText(SETTINGS_TEXT.rename).onClick(() => this.renameRow(setting, id)));
		setting.addButton((button) =>
			button
				.setButtonText(SETTINGS_TEXT.remove)
				.setClass("mod-warning")
				.onClick(() => {
					// The first click asks, the second removes (the group's folders stay).
					if (button.buttonEl.getAttribute("data-confirm") !== "yes") {
						button.buttonEl.setAttribute("data-confirm", "yes");
						button.setButtonText(`${SETTINGS_TEXT.remove} ${id}?`);
						return;
					}
					void this.save({ op: "remove-group", id });
				}),
		);
	}

	private renameRow(setting: Setting, id: string): void {
		setting.controlEl.empty();
		const input = setting.controlEl.createEl("input", { type: "text", cls: "a2a-rename-input", attr: { name: "rename", "aria-label": `${SETTINGS_TEXT.renameTo}: ${id}`, value: id } });
		const apply = setting.controlEl.createEl("button", { cls: "mod-cta", text: SETTINGS_TEXT.apply });
		const cancel = setting.controlEl.createEl("button", { text: SETTINGS_TEXT.cancel });
		const run = () => {
			const to = input.value.trim();
			if (to === id) return void this.render();
			void this.save({ op: "rename-group", id, to }, () => this.moveFolder(id, to));
		};
		apply.addEventListener("click", run);
		input.addEventListener("keydown", (evt) => {
			if (evt.key === "Enter") run();
			else if (evt.key === "Escape") void this.render();
		});
		cancel.addEventListener("click", () => void this.render());
		input.focus();
	}

	/** A renamed group keeps its messages: its folder follows the new id when that name is free. */
	private async moveFolder(from: string, to: string): Promise<void> {
		const layout = this.state.layout();
		const folder = this.app.vault.getAbstractFileByPath(`${layout.groupsFolder}/${from}`);
		const target = `${layout.groupsFolder}/${to}`;
		if (folder instanceof TFolder && this.app.vault.getAbstractFileByPath(target) === null) await this.app.fileManager.renameFile(folder, target);
	}

	private renderAdd(): void {
		let id = "";
		let description = "";
		const setting = new Setting(this.el).setName(SETTINGS_TEXT.addGroup);
		setting.settingEl.addClass("a2a-add-group");
		setting.addText((text) => {
			text.setPlaceholder(SETTINGS_TEXT.newGroupId).onChange((value) => (id = value));
			text.inputEl.setAttr("name", "new-group-id");
			text.inputEl.setAttr("aria-label", SETTINGS_TEXT.newGroupId);
		});
		setting.addText((text) => {
			text.setPlaceholder(SETTINGS_TEXT.groupDescription).onChange((value) => (description = value));
			text.inputEl.setAttr("name", "new-group-description");
			text.inputEl.setAttr("aria-label", SETTINGS_TEXT.groupDescription);
		});
		setting.addButton((button) => button.setButtonText(SETTINGS_TEXT.addGroup).setCta().onClick(() => void this.save({ op: "add-group", id, description: description.trim() || undefined })));
	}
}
