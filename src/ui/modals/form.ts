import { Modal, Setting } from "obsidian";
import type { App } from "obsidian";
import { FORM_TEXT } from "../strings";

// The shared shape of every modal of the plugin: labelled rows built with Setting, an inline error
// next to each field (with aria-invalid on its control), one form-level message, and keyboard
// submission: Enter from a single-line input or a dropdown, Ctrl/Cmd+Enter from anywhere (so from
// a text area too). Escape is the Modal's own. Nothing is written until submit() says so.

export type FieldControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface Field {
	key: string;
	setting: Setting;
	control: FieldControl;
	errorEl: HTMLElement;
	value(): string;
	setValue(value: string): void;
	setError(message: string | null): void;
	hasError(): boolean;
}

export interface FieldOptions {
	desc?: string;
	value?: string;
	placeholder?: string;
	/** Extra class on the row (a2a-field-<key> is always added). */
	cls?: string;
}

let nextId = 1;
/** An id unique in the document, for aria-labelledby and aria-describedby. */
export const uniqueId = (prefix: string): string => `${prefix}-${nextId++}`;

/** A form row: a Setting whose control is labelled by its name and described by its inline error. */
export function makeField(containerEl: HTMLElement, key: string, name: string, control: (setting: Setting) => FieldControl, options: FieldOptions = {}): Field {
	const setting = new Setting(containerEl).setName(name);
	if (options.desc) setting.setDesc(options.desc);
	setting.settingEl.addClass("a2a-field", `a2a-field-${key}`);
	if (options.cls) setting.settingEl.addClass(options.cls);
	const nameId = uniqueId("a2a-label");
	setting.nameEl.id = nameId;
	const errorEl = setting.infoEl.createDiv({ cls: "a2a-field-error", attr: { id: uniqueId("a2a-error"), "aria-live": "polite" } });
	const el = control(setting);
	el.setAttr("aria-labelledby", nameId);
	el.setAttr("aria-describedby", errorEl.id);
	el.setAttr("name", key);
	if (options.placeholder && !(el instanceof HTMLSelectElement)) el.placeholder = options.placeholder;
	if (options.value !== undefined) el.value = options.value;
	const field: Field = {
		key,
		setting,
		control: el,
		errorEl,
		value: () => el.value,
		setValue: (value) => {
			el.value = value;
		},
		setError: (message) => {
			errorEl.setText(message ?? "");
			setting.settingEl.toggleClass("a2a-has-error", message !== null);
			if (message === null) el.removeAttribute("aria-invalid");
			else el.setAttr("aria-invalid", "true");
		},
		hasError: () => el.getAttribute("aria-invalid") === "true",
	};
	// Editing a field clears its own error; the next submit checks everything again.
	el.addEventListener(el instanceof HTMLSelectElement ? "change" : "input", () => field.setError(null));
	return field;
}

export abstract class FormModal extends Modal {
	protected readonly fields = new Map<string, Field>();
	protected formErrorEl: HTMLElement | null = null;
	protected submitButton: HTMLButtonElement | null = null;
	private busy = false;
	/** The latest submission; resolves when it finished (written, or stopped by an error). */
	submission: Promise<void> = Promise.resolve();

	constructor(app: App) {
		super(app);
	}

	/** Builds the rows into `el` (with the field helpers); called on open. */
	protected abstract build(el: HTMLElement): void;

	/** Checks everything and writes; returns true to close the modal. */
	protected abstract submit(): Promise<boolean>;

	/** The text of the main button. */
	protected abstract submitLabel(): string;

	onOpen(): void {
		this.modalEl.addClass("a2a-modal");
		this.contentEl.empty();
		this.fields.clear();
		const form = this.contentEl.createDiv({ cls: "a2a-form" });
		this.build(form);
		this.formErrorEl = this.contentEl.createDiv({ cls: "a2a-form-error", attr: { role: "alert" } });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container a2a-form-buttons" });
		const submit = buttons.createEl("button", { cls: "mod-cta", text: this.submitLabel() });
		submit.addEventListener("click", () => this.requestSubmit());
		this.submitButton = submit;
		const cancel = buttons.createEl("button", { text: FORM_TEXT.cancel });
		cancel.addEventListener("click", () => this.close());
		this.contentEl.addEventListener("keydown", (evt) => this.onKeydown(evt));
		this.focusFirst();
	}

	onClose(): void {
		this.contentEl.empty();
	}

	/** Focuses the first empty field (what is left to fill in), else the first field, else the main button. */
	protected focusFirst(): void {
		const controls = Array.from(this.contentEl.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>("input:not([disabled]), textarea:not([disabled]), select:not([disabled])"));
		const empty = controls.find((el) => !(el instanceof HTMLSelectElement) && el.value.trim() === "");
		(empty ?? controls[0] ?? this.submitButton)?.focus();
	}

	private onKeydown(evt: KeyboardEvent): void {
		if (evt.key !== "Enter" || evt.defaultPrevented || evt.isComposing || evt.shiftKey || evt.altKey) return;
		const mod = evt.ctrlKey || evt.metaKey;
		const target = evt.target;
		// Buttons act on Enter themselves; a text area keeps Enter for new lines.
		if (target instanceof HTMLButtonElement) return;
		const singleLine = target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== "checkbox");
		if (!singleLine && !mod) return;
		evt.preventDefault();
		this.requestSubmit();
	}

	/** Runs submit() once at a time; a thrown error is shown in the form, never swallowed silently. */
	requestSubmit(): void {
		if (this.busy) return;
		this.busy = true;
		this.setFormError(null);
		if (this.submitButton) this.submitButton.disabled = true;
		this.submission = (async () => {
			try {
				if (await this.submit()) this.close();
			} catch (error) {
				console.error("A2A Relay:", error);
				this.setFormError(FORM_TEXT.couldNotFinish(error instanceof Error ? error.message : String(error)));
			} finally {
				this.busy = false;
				if (this.submitButton) {
					this.submitButton.disabled = false;
					this.submitButton.setText(this.submitLabel());
				}
			}
		})();
	}

	protected setFormError(message: string | null): void {
		this.formErrorEl?.setText(message ?? "");
	}

	protected addField(field: Field): Field {
		this.fields.set(field.key, field);
		return field;
	}

	protected field(key: string): Field {
		const field = this.fields.get(key);
		if (!field) throw new Error(`no field ${key}`);
		return field;
	}

	protected text(container: HTMLElement, key: string, name: string, options: FieldOptions = {}): Field {
		return this.addField(makeField(container, key, name, (s) => {
			let input!: HTMLInputElement;
			s.addText((t) => {
				input = t.inputEl;
			});
			return input;
		}, options));
	}

	protected textArea(container: HTMLElement, key: string, name: string, options: FieldOptions & { rows?: number } = {}): Field {
		return this.addField(makeField(container, key, name, (s) => {
			let area!: HTMLTextAreaElement;
			s.addTextArea((t) => {
				area = t.inputEl;
			});
			area.rows = options.rows ?? 3;
			area.addClass("a2a-textarea");
			return area;
		}, options));
	}

	protected dropdown(container: HTMLElement, key: string, name: string, choices: Record<string, string>, options: FieldOptions = {}): Field {
		return this.addField(makeField(container, key, name, (s) => {
			let select!: HTMLSelectElement;
			s.addDropdown((d) => {
				d.addOptions(choices);
				select = d.selectEl;
			});
			return select;
		}, options));
	}

	protected clearErrors(): void {
		for (const field of this.fields.values()) field.setError(null);
		this.setFormError(null);
	}

	/** Shows each error next to its field (unknown keys go to the form message); focuses the first. */
	protected showErrors(errors: Record<string, string>): void {
		const general: string[] = [];
		let first: Field | null = null;
		for (const [key, message] of Object.entries(errors)) {
			const field = this.fields.get(key);
			if (field) {
				field.setError(message);
				first ??= field;
			} else general.push(message);
		}
		this.setFormError(general.length > 0 ? general.join(" ") : null);
		first?.control.focus();
	}
}
