import type { App, Setting } from "obsidian";
import { safeRelativeFolder } from "../../core/paths";
import type { SettingsStore } from "../../obsidian/settings-store";
import { SETTINGS_TEXT } from "../strings";
import { uniqueId } from "../modals/form";
import { FolderSuggest } from "../suggest/folder-suggest";

// The root folder, chosen with a folder suggester and applied only when confirmed (the button, or
// Enter): typing a path never rebuilds the router against half of it. A warning says that what
// the old folder holds stays there.

export function renderRootFolderRow(app: App, setting: Setting, settings: SettingsStore): void {
	setting.setName(SETTINGS_TEXT.rootFolder).setDesc(SETTINGS_TEXT.rootFolderDesc);
	setting.settingEl.addClass("a2a-field", "a2a-field-rootFolder");
	setting.nameEl.id = uniqueId("a2a-label");
	const errorEl = setting.infoEl.createDiv({ cls: "a2a-field-error", attr: { id: uniqueId("a2a-error"), "aria-live": "polite" } });
	const warningEl = setting.infoEl.createDiv({ cls: "a2a-root-warning a2a-hidden", text: SETTINGS_TEXT.rootWarning });
	let input!: HTMLInputElement;
	setting.addText((text) => {
		input = text.inputEl;
		text.setPlaceholder(SETTINGS_TEXT.placeholders.root).setValue(settings.current.rootFolder);
	});
	input.setAttr("name", "rootFolder");
	input.setAttr("aria-labelledby", setting.nameEl.id);
	input.setAttr("aria-describedby", errorEl.id);
	new FolderSuggest(app, input);
	let apply!: HTMLButtonElement;
	setting.addButton((button) => {
		apply = button.buttonEl;
		button.setButtonText(SETTINGS_TEXT.rootApply).setDisabled(true);
	});
	apply.addClass("a2a-root-apply");
	const check = (): string | null => {
		const folder = safeRelativeFolder(input.value);
		const changed = folder !== null && folder !== settings.current.rootFolder;
		errorEl.setText(folder === null ? SETTINGS_TEXT.rootInvalid : "");
		if (folder === null) input.setAttr("aria-invalid", "true");
		else input.removeAttribute("aria-invalid");
		setting.settingEl.toggleClass("a2a-has-error", folder === null);
		apply.disabled = !changed;
		warningEl.toggleClass("a2a-hidden", !changed);
		return changed ? folder : null;
	};
	const confirm = async () => {
		const folder = check();
		if (folder === null) return;
		await settings.update({ rootFolder: folder });
		check();
	};
	input.addEventListener("input", () => void check());
	input.addEventListener("keydown", (evt) => {
		if (evt.key !== "Enter" || evt.isComposing) return;
		evt.preventDefault();
		void confirm();
	});
	apply.addEventListener("click", () => void confirm());
}
