import { Setting, TFolder } from "obsidian";
import type { App } from "obsidian";
import type { ActionVault } from "../../actions/vault";
import { VaultLayout } from "../../core/layout";
import { parseRegistry, parseRegistryNote } from "../../core/registry";
import type { Registry } from "../../core/registry";
import type { CommunicationKey, RegistryEdit } from "../../core/registry-edit";
import type { RelayState } from "../../obsidian/relay-state";
import { makeField } from "../modals/form";
import { SETTINGS_TEXT } from "../strings";
import { GroupModal } from "./group-modal";
import type { GroupValues } from "./group-modal";
import { readRegistryFile, writeRegistryEdit } from "./registry-writer";

// The registry in the settings, so nobody has to edit YAML by hand (registry.yaml is hidden in
// Obsidian unless all file extensions are shown, and cannot be edited on a phone at all). Two
// parts, each written to the registry at once through the vault port:
//   - GroupsEditor (the Groups section): one row per group (id, description, remote agent URL and
//     the secret holding its token)
//     with two icon buttons, Edit group… (a modal with labelled fields and inline errors) and
//     Remove group (a second click confirms); and Add group, the same modal empty;
//   - RegistryLimits (the New messages section): how long a request waits for its answer, how often
//     it is delivered again, how many times it may be passed on, for every group.

type Loaded = { ok: true; registry: Registry; path: string } | { ok: false; message: string };

async function loadRegistry(state: RelayState, vault: Pick<ActionVault, "read">): Promise<Loaded> {
	const layout = new VaultLayout(state.layout().root);
	const file = await readRegistryFile(vault, layout);
	if (!file) return { ok: false, message: SETTINGS_TEXT.noRegistryFile };
	const registry = file.note ? parseRegistryNote(file.text, layout.root) : parseRegistry(file.text, layout.root);
	if (!registry.usable) return { ok: false, message: SETTINGS_TEXT.unreadableRegistry(registry.errors.map((e) => `${e.where}: ${e.message}`).join("; ")) };
	return { ok: true, registry, path: file.path };
}

abstract class RegistryPart {
	protected messageEl: HTMLElement | null = null;

	constructor(
		protected readonly app: App,
		protected readonly el: HTMLElement,
		protected readonly state: RelayState,
		protected readonly vault: Pick<ActionVault, "read" | "replace">,
	) {}

	async render(): Promise<void> {
		const loaded = await loadRegistry(this.state, this.vault);
		this.el.empty();
		this.messageEl = null;
		if (!loaded.ok) {
			const empty = this.el.createDiv({ cls: "a2a-empty", text: loaded.message });
			empty.addClass("setting-item-description");
			return;
		}
		this.build(loaded.registry, loaded.path);
		this.messageEl = this.el.createDiv({ cls: "a2a-form-error", attr: { role: "alert" } });
	}

	protected abstract build(registry: Registry, path: string): void;

	/** Writes one edit; null when written, else why not. */
	protected write(edit: RegistryEdit): Promise<string | null> {
		return writeRegistryEdit(this.vault, new VaultLayout(this.state.layout().root), edit);
	}

	/** Writes one edit and shows it, or the error under this part. */
	protected async save(edit: RegistryEdit): Promise<boolean> {
		const error = await this.write(edit);
		if (error) {
			this.messageEl?.setText(error);
			return false;
		}
		await this.render();
		return true;
	}
}

export class GroupsEditor extends RegistryPart {
	constructor(app: App, el: HTMLElement, state: RelayState, vault: Pick<ActionVault, "read" | "replace">) {
		super(app, el, state, vault);
		el.addClass("a2a-groups-editor");
	}

	protected build(registry: Registry, path: string): void {
		this.el.createDiv({ cls: "setting-item-description", text: SETTINGS_TEXT.groupsDesc(path) });
		for (const group of registry.groups.values()) this.renderGroup({ id: group.id, description: group.description ?? "", url: group.url ?? "", tokenSecret: group.tokenSecret ?? "" });
		new Setting(this.el).setClass("a2a-add-group").addButton((button) => button.setButtonText(SETTINGS_TEXT.addGroup).setCta().onClick(() => this.openModal(null)));
	}

	private renderGroup(group: GroupValues): void {
		const setting = new Setting(this.el).setName(group.id);
		setting.settingEl.addClass("a2a-group-row");
		setting.settingEl.setAttr("data-group", group.id);
		const desc = createFragment((frag) => {
			if (group.description) frag.createDiv({ cls: "a2a-group-description", text: group.description });
			if (group.url) frag.createDiv({ cls: "a2a-group-url", text: SETTINGS_TEXT.remoteAt(group.url) });
		});
		setting.setDesc(desc);
		setting.addExtraButton((button) => button.setIcon("pencil").setTooltip(SETTINGS_TEXT.editGroup(group.id)).onClick(() => this.openModal(group)));
		setting.addExtraButton((button) =>
			button
				.setIcon("trash-2")
				.setTooltip(SETTINGS_TEXT.removeGroup(group.id))
				.onClick(() => {
					// The first click asks, the second removes (the group's folders stay).
					const el = button.extraSettingsEl;
					if (el.getAttribute("data-confirm") !== "yes") {
						el.setAttribute("data-confirm", "yes");
						el.addClass("a2a-confirm");
						button.setTooltip(SETTINGS_TEXT.removeGroupConfirm(group.id));
						this.messageEl?.setText(SETTINGS_TEXT.removeGroupConfirm(group.id));
						return;
					}
					void this.save({ op: "remove-group", id: group.id });
				}),
		);
	}

	private openModal(group: GroupValues | null): void {
		new GroupModal(this.app, group, (edit) => this.write(edit), async (renamed) => {
			if (renamed) await this.moveFolder(renamed.from, renamed.to);
			await this.render();
		}).open();
	}

	/** A renamed group keeps its messages: its folder follows the new id when that name is free. */
	private async moveFolder(from: string, to: string): Promise<void> {
		const layout = this.state.layout();
		const folder = this.app.vault.getAbstractFileByPath(`${layout.groupsFolder}/${from}`);
		const target = `${layout.groupsFolder}/${to}`;
		if (folder instanceof TFolder && this.app.vault.getAbstractFileByPath(target) === null) await this.app.fileManager.renameFile(folder, target);
	}
}

const LIMITS: { key: CommunicationKey; name: string; desc: string }[] = [
	{ key: "timeout_seconds", name: SETTINGS_TEXT.timeout, desc: SETTINGS_TEXT.timeoutDesc },
	{ key: "retry_attempts", name: SETTINGS_TEXT.retries, desc: SETTINGS_TEXT.retriesDesc },
	{ key: "max_hops", name: SETTINGS_TEXT.maxHops, desc: SETTINGS_TEXT.maxHopsDesc },
];

export class RegistryLimits extends RegistryPart {
	protected build(registry: Registry): void {
		for (const row of LIMITS) {
			const field = makeField(
				this.el,
				`registry-${row.key}`,
				row.name,
				(setting) => {
					let input!: HTMLInputElement;
					setting.addText((text) => {
						input = text.inputEl;
					});
					return input;
				},
				{ desc: row.desc, value: String(registry.communication[row.key]) },
			);
			field.control.setAttr("inputmode", "numeric");
			// A refused value is marked at its own field, not at the top of the section.
			field.control.addEventListener("change", () => {
				void this.write({ op: "set-communication", key: row.key, value: Number(field.value().trim()) }).then((error) => {
					field.setError(error);
					if (!error) void this.render();
				});
			});
		}
	}
}
