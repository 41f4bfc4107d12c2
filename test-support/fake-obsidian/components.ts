/**
 * The UI components (BaseComponent, ValueComponent, Text/TextArea/Search/Dropdown/Toggle/Slider/
 * Button/ExtraButton/Color/ProgressBar/MomentFormat) with real DOM. onChange fires from DOM
 * events ('input' for text, 'change' for select/slider/color, a click on the toggle) so tests
 * drive them through the DOM; setValue does not fire onChange (except the toggle, like Obsidian).
 */
import { setIcon } from "./icons";
import { currentRuntime } from "./runtime";
import { setTooltip, type TooltipOptions } from "./utils";

function track(value: unknown, source: string): void {
	currentRuntime().track(value, source);
}

export abstract class BaseComponent {
	disabled = false;

	then(cb: (component: this) => unknown): this {
		cb(this);
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		return this;
	}
}

export abstract class ValueComponent<T> extends BaseComponent {
	registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
		listeners[key] = (value?: T) => {
			if (value !== undefined) this.setValue(value);
			return this.getValue();
		};
		return this;
	}

	abstract getValue(): T;

	abstract setValue(value: T): this;
}

export class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
	inputEl: T;
	private changeCallback: ((value: string) => unknown) | null = null;

	constructor(inputEl: T) {
		super();
		this.inputEl = inputEl;
		inputEl.addEventListener("input", () => this.onChanged());
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.inputEl.disabled = disabled;
		return this;
	}

	getValue(): string {
		return this.inputEl.value;
	}

	setValue(value: string): this {
		this.inputEl.value = value;
		return this;
	}

	setPlaceholder(placeholder: string): this {
		this.inputEl.placeholder = placeholder;
		return this;
	}

	onChanged(): void {
		if (this.changeCallback) track(this.changeCallback(this.getValue()), "text onChange");
	}

	onChange(callback: (value: string) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
	constructor(containerEl: HTMLElement) {
		super(containerEl.createEl("input", { type: "text" }));
	}
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
	constructor(containerEl: HTMLElement) {
		super(containerEl.createEl("textarea"));
	}
}

export class SearchComponent extends AbstractTextComponent<HTMLInputElement> {
	clearButtonEl: HTMLElement;

	constructor(containerEl: HTMLElement) {
		const wrapper = containerEl.createDiv({ cls: "search-input-container" });
		super(wrapper.createEl("input", { type: "search" }));
		this.clearButtonEl = wrapper.createDiv({ cls: "search-input-clear-button" });
		this.clearButtonEl.addEventListener("click", () => {
			this.setValue("");
			this.onChanged();
		});
	}

	onChanged(): void {
		this.clearButtonEl.toggle(this.getValue() !== "");
		super.onChanged();
	}
}

export class MomentFormatComponent extends TextComponent {
	sampleEl: HTMLElement;
	private defaultFormat = "";

	constructor(containerEl: HTMLElement) {
		super(containerEl);
		this.sampleEl = containerEl.createSpan({ cls: "u-pop" });
	}

	setDefaultFormat(defaultFormat: string): this {
		this.defaultFormat = defaultFormat;
		this.updateSample();
		return this;
	}

	setSampleEl(sampleEl: HTMLElement): this {
		this.sampleEl = sampleEl;
		this.updateSample();
		return this;
	}

	setValue(value: string): this {
		super.setValue(value);
		this.updateSample();
		return this;
	}

	onChanged(): void {
		this.updateSample();
		super.onChanged();
	}

	updateSample(): void {
		this.sampleEl.setText(this.getValue() || this.defaultFormat);
	}
}

export class DropdownComponent extends ValueComponent<string> {
	selectEl: HTMLSelectElement;
	private changeCallback: ((value: string) => unknown) | null = null;

	constructor(containerEl: HTMLElement) {
		super();
		this.selectEl = containerEl.createEl("select", { cls: "dropdown" });
		this.selectEl.addEventListener("change", () => {
			if (this.changeCallback) track(this.changeCallback(this.getValue()), "dropdown onChange");
		});
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.selectEl.disabled = disabled;
		return this;
	}

	addOption(value: string, display: string): this {
		this.selectEl.createEl("option", { value, text: display });
		return this;
	}

	addOptions(options: Record<string, string>): this {
		for (const [value, display] of Object.entries(options)) this.addOption(value, display);
		return this;
	}

	getValue(): string {
		return this.selectEl.value;
	}

	setValue(value: string): this {
		this.selectEl.value = value;
		return this;
	}

	onChange(callback: (value: string) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

/** A `.checkbox-container` holding an `<input type=checkbox>`; a click toggles it. */
export class ToggleComponent extends ValueComponent<boolean> {
	toggleEl: HTMLElement;
	/** Fake-only: the checkbox inside toggleEl. */
	inputEl: HTMLInputElement;
	private on = false;
	private changeCallback: ((value: boolean) => unknown) | null = null;

	constructor(containerEl: HTMLElement) {
		super();
		this.toggleEl = containerEl.createDiv({ cls: "checkbox-container" });
		this.inputEl = this.toggleEl.createEl("input", { type: "checkbox", attr: { tabindex: 0 } });
		this.toggleEl.addEventListener("click", () => this.onClick());
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.toggleEl.toggleClass("is-disabled", disabled);
		this.inputEl.disabled = disabled;
		return this;
	}

	getValue(): boolean {
		return this.on;
	}

	/** Like Obsidian, a change of value fires the onChange callback. */
	setValue(on: boolean): this {
		const changed = this.on !== on;
		this.on = on;
		this.toggleEl.toggleClass("is-enabled", on);
		this.inputEl.checked = on;
		if (changed && this.changeCallback) track(this.changeCallback(on), "toggle onChange");
		return this;
	}

	setTooltip(tooltip: string, options?: TooltipOptions): this {
		setTooltip(this.toggleEl, tooltip, options);
		return this;
	}

	onClick(): void {
		if (!this.disabled) this.setValue(!this.on);
	}

	onChange(callback: (value: boolean) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class SliderComponent extends ValueComponent<number> {
	sliderEl: HTMLInputElement;
	private instant = false;
	private format: (value: number) => string = (v) => String(v);
	private changeCallback: ((value: number) => unknown) | null = null;

	constructor(containerEl: HTMLElement) {
		super();
		this.sliderEl = containerEl.createEl("input", { type: "range", cls: "slider" });
		this.sliderEl.min = "0";
		this.sliderEl.max = "100";
		this.sliderEl.step = "1";
		const fire = (): void => {
			if (this.changeCallback) track(this.changeCallback(this.getValue()), "slider onChange");
		};
		this.sliderEl.addEventListener("input", () => {
			if (this.instant) fire();
		});
		this.sliderEl.addEventListener("change", fire);
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.sliderEl.disabled = disabled;
		return this;
	}

	setInstant(instant: boolean): this {
		this.instant = instant;
		return this;
	}

	setLimits(min: number | null, max: number | null, step: number | "any"): this {
		if (min !== null) this.sliderEl.min = String(min);
		if (max !== null) this.sliderEl.max = String(max);
		this.sliderEl.step = String(step);
		return this;
	}

	getValue(): number {
		return Number(this.sliderEl.value);
	}

	setValue(value: number): this {
		this.sliderEl.value = String(value);
		return this;
	}

	getValuePretty(): string {
		return this.format(this.getValue());
	}

	setDisplayFormat(format: (value: number) => string): this {
		this.format = format;
		return this;
	}

	setDynamicTooltip(): this {
		return this;
	}

	showTooltip(): void {}

	onChange(callback: (value: number) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class ColorComponent extends ValueComponent<string> {
	colorPickerEl: HTMLInputElement;
	private changeCallback: ((value: string) => unknown) | null = null;

	constructor(containerEl: HTMLElement) {
		super();
		this.colorPickerEl = containerEl.createEl("input", { type: "color" });
		this.colorPickerEl.addEventListener("change", () => {
			if (this.changeCallback) track(this.changeCallback(this.getValue()), "color onChange");
		});
	}

	getValue(): string {
		return this.colorPickerEl.value;
	}

	setValue(value: string): this {
		this.colorPickerEl.value = value;
		return this;
	}

	onChange(callback: (value: string) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class ProgressBarComponent extends ValueComponent<number> {
	progressBar: HTMLElement;
	private value = 0;

	constructor(containerEl: HTMLElement) {
		super();
		this.progressBar = containerEl.createDiv({ cls: "setting-progress-bar" });
	}

	getValue(): number {
		return this.value;
	}

	setValue(value: number): this {
		this.value = value;
		this.progressBar.setAttr("data-value", value);
		return this;
	}
}

export class ButtonComponent extends BaseComponent {
	buttonEl: HTMLButtonElement;
	private clickCallback: ((evt: MouseEvent) => unknown) | null = null;

	constructor(containerEl: HTMLElement) {
		super();
		this.buttonEl = containerEl.createEl("button");
		this.buttonEl.addEventListener("click", (evt) => {
			if (this.disabled || !this.clickCallback) return;
			track(this.clickCallback(evt), "button onClick");
		});
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.buttonEl.disabled = disabled;
		this.buttonEl.toggleClass("is-disabled", disabled);
		return this;
	}

	setCta(): this {
		this.buttonEl.addClass("mod-cta");
		return this;
	}

	removeCta(): this {
		this.buttonEl.removeClass("mod-cta");
		return this;
	}

	setWarning(): this {
		this.buttonEl.addClass("mod-warning");
		return this;
	}

	setDestructive(): this {
		this.buttonEl.addClass("mod-destructive");
		return this;
	}

	removeDestructive(): this {
		this.buttonEl.removeClass("mod-destructive");
		return this;
	}

	setTooltip(tooltip: string, options?: TooltipOptions): this {
		setTooltip(this.buttonEl, tooltip, options);
		return this;
	}

	setButtonText(name: string): this {
		this.buttonEl.setText(name);
		return this;
	}

	setIcon(icon: string): this {
		this.buttonEl.empty();
		setIcon(this.buttonEl, icon);
		return this;
	}

	setClass(cls: string): this {
		this.buttonEl.addClass(cls);
		return this;
	}

	onClick(callback: (evt: MouseEvent) => unknown): this {
		this.clickCallback = callback;
		return this;
	}
}

export class ExtraButtonComponent extends BaseComponent {
	extraSettingsEl: HTMLElement;
	private clickCallback: (() => unknown) | null = null;

	constructor(containerEl: HTMLElement) {
		super();
		this.extraSettingsEl = containerEl.createDiv({ cls: "clickable-icon extra-setting-button" });
		this.extraSettingsEl.addEventListener("click", () => {
			if (this.disabled || !this.clickCallback) return;
			track(this.clickCallback(), "extra button onClick");
		});
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.extraSettingsEl.toggleClass("is-disabled", disabled);
		return this;
	}

	setTooltip(tooltip: string, options?: TooltipOptions): this {
		setTooltip(this.extraSettingsEl, tooltip, options);
		return this;
	}

	setIcon(icon: string): this {
		setIcon(this.extraSettingsEl, icon);
		return this;
	}

	onClick(callback: () => unknown): this {
		this.clickCallback = callback;
		return this;
	}
}
