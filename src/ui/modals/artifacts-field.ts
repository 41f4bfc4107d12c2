import { Setting } from "obsidian";
import type { App } from "obsidian";
import { FileSuggest } from "../suggest/file-suggest";
import { uniqueId } from "./form";
import { FORM_TEXT } from "../strings";

// Several artifacts (vault files) for a message: an input with file suggestions; choosing a file
// adds it to the list below as a link (Obsidian's own link format, so it is clickable, shows in
// backlinks and follows renames), each with a remove button. Text left in the input counts too,
// so a path (or a [[wikilink]]) can also be typed in full.

export class ArtifactsField {
	readonly inputEl: HTMLInputElement;
	private readonly listEl: HTMLElement;
	private readonly items: string[] = [];

	constructor(app: App, containerEl: HTMLElement, initial: string[] = []) {
		const setting = new Setting(containerEl)
			.setName(FORM_TEXT.artifacts.name)
			.setDesc(FORM_TEXT.artifacts.desc);
		setting.settingEl.addClass("a2a-field", "a2a-field-artifacts");
		const nameId = uniqueId("a2a-label");
		setting.nameEl.id = nameId;
		let input!: HTMLInputElement;
		setting.addText((t) => {
			input = t.inputEl;
			t.setPlaceholder(FORM_TEXT.artifacts.placeholder);
		});
		this.inputEl = input;
		input.setAttr("aria-labelledby", nameId);
		input.setAttr("name", "artifacts");
		this.listEl = containerEl.createEl("ul", { cls: "a2a-artifact-list", attr: { "aria-label": FORM_TEXT.artifacts.added } });
		new FileSuggest(app, input, (file) => {
			this.add(app.fileManager.generateMarkdownLink(file, ""));
			input.value = "";
		});
		for (const item of initial) this.add(item);
	}

	add(path: string): void {
		const value = path.trim();
		if (value === "" || this.items.includes(value)) return;
		this.items.push(value);
		this.render();
	}

	/** The artifacts: the list, then whatever is still typed in the input. */
	values(): string[] {
		const typed = this.inputEl.value.trim();
		return typed !== "" && !this.items.includes(typed) ? [...this.items, typed] : [...this.items];
	}

	private render(): void {
		this.listEl.empty();
		for (const item of this.items) {
			const li = this.listEl.createEl("li", { cls: "a2a-artifact" });
			li.createSpan({ cls: "a2a-artifact-path", text: item });
			const remove = li.createEl("button", { cls: "a2a-artifact-remove", text: FORM_TEXT.artifacts.remove, attr: { "aria-label": `${FORM_TEXT.artifacts.remove} ${item}` } });
			remove.addEventListener("click", () => {
				this.items.splice(this.items.indexOf(item), 1);
				this.render();
				this.inputEl.focus();
			});
		}
	}
}
