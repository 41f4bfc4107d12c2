/** Setting: one `.setting-item` row (info: name + description, control: the components). */
import {
	BaseComponent,
	ButtonComponent,
	ColorComponent,
	DropdownComponent,
	ExtraButtonComponent,
	MomentFormatComponent,
	ProgressBarComponent,
	SearchComponent,
	SliderComponent,
	TextAreaComponent,
	TextComponent,
	ToggleComponent,
} from "./components";
import { setTooltip, type TooltipOptions } from "./utils";

export class DisplayValueComponent {
	valueEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		this.valueEl = containerEl.createDiv({ cls: "setting-display-value" });
	}
	setValue(value: string | DocumentFragment): this {
		this.valueEl.setText(value);
		return this;
	}
}

export class Setting {
	settingEl: HTMLElement;
	infoEl: HTMLElement;
	nameEl: HTMLElement;
	descEl: HTMLElement;
	controlEl: HTMLElement;
	components: BaseComponent[] = [];
	errorEl: HTMLElement | null = null;

	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv({ cls: "setting-item" });
		this.infoEl = this.settingEl.createDiv({ cls: "setting-item-info" });
		this.nameEl = this.infoEl.createDiv({ cls: "setting-item-name" });
		this.descEl = this.infoEl.createDiv({ cls: "setting-item-description" });
		this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
	}

	setName(name: string | DocumentFragment): this {
		this.nameEl.setText(name);
		return this;
	}

	setDesc(desc: string | DocumentFragment): this {
		this.descEl.setText(desc);
		return this;
	}

	setClass(cls: string): this {
		this.settingEl.addClass(cls);
		return this;
	}

	setTooltip(tooltip: string, options?: TooltipOptions): this {
		setTooltip(this.nameEl, tooltip, options);
		return this;
	}

	setHeading(): this {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.settingEl.toggleClass("is-disabled", disabled);
		for (const c of this.components) c.setDisabled(disabled);
		return this;
	}

	setErrorMessage(message: string | null): this {
		if (message === null) {
			this.errorEl?.detach();
			this.errorEl = null;
		} else {
			this.errorEl ??= this.infoEl.createDiv({ cls: "setting-item-error" });
			this.errorEl.setText(message);
		}
		return this;
	}

	addDisplayValue(cb: (component: DisplayValueComponent) => unknown): this {
		cb(new DisplayValueComponent(this.controlEl));
		return this;
	}

	private add<T extends BaseComponent>(component: T, cb: (component: T) => unknown): this {
		this.components.push(component);
		cb(component);
		return this;
	}

	addButton(cb: (component: ButtonComponent) => unknown): this {
		return this.add(new ButtonComponent(this.controlEl), cb);
	}

	addExtraButton(cb: (component: ExtraButtonComponent) => unknown): this {
		return this.add(new ExtraButtonComponent(this.controlEl), cb);
	}

	addToggle(cb: (component: ToggleComponent) => unknown): this {
		return this.add(new ToggleComponent(this.controlEl), cb);
	}

	addText(cb: (component: TextComponent) => unknown): this {
		return this.add(new TextComponent(this.controlEl), cb);
	}

	addSearch(cb: (component: SearchComponent) => unknown): this {
		return this.add(new SearchComponent(this.controlEl), cb);
	}

	addTextArea(cb: (component: TextAreaComponent) => unknown): this {
		return this.add(new TextAreaComponent(this.controlEl), cb);
	}

	addMomentFormat(cb: (component: MomentFormatComponent) => unknown): this {
		return this.add(new MomentFormatComponent(this.controlEl), cb);
	}

	addDropdown(cb: (component: DropdownComponent) => unknown): this {
		return this.add(new DropdownComponent(this.controlEl), cb);
	}

	addColorPicker(cb: (component: ColorComponent) => unknown): this {
		return this.add(new ColorComponent(this.controlEl), cb);
	}

	addProgressBar(cb: (component: ProgressBarComponent) => unknown): this {
		return this.add(new ProgressBarComponent(this.controlEl), cb);
	}

	addSlider(cb: (component: SliderComponent) => unknown): this {
		return this.add(new SliderComponent(this.controlEl), cb);
	}

	addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this {
		this.components.push(cb(this.controlEl));
		return this;
	}

	then(cb: (setting: this) => unknown): this {
		cb(this);
		return this;
	}

	clear(): this {
		this.controlEl.empty();
		this.components = [];
		return this;
	}
}
