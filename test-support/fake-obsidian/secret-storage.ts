/**
 * Obsidian's secret storage (`app.secretStorage`, since 1.11.4) and `SecretComponent`. Secrets live
 * on the device, never in the vault: the fake keeps them in memory, per App. `setSecret` throws on
 * an id that is not lowercase letters, digits and dashes (like Obsidian); `getSecret` answers null
 * for an unknown id. The component is a `<select>` of the stored ids (first an empty "none" option);
 * choosing one fires onChange, `setValue` does not. Obsidian's own control also offers to create a
 * secret; the fake's `createSecret(id, value)` stands for that dialog (stores it, selects it, fires
 * onChange), and `SecretComponent.of(selectEl)` finds the component of a control a test sees in
 * the DOM.
 */
import type { App } from "./app";
import { BaseComponent } from "./components";
import { Events } from "./events";
import { currentRuntime } from "./runtime";

const SECRET_ID = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const components = new WeakMap<Element, SecretComponent>();

export class SecretStorage extends Events {
	private readonly secrets = new Map<string, string>();

	setSecret(id: string, secret: string): void {
		if (!SECRET_ID.test(id)) throw new Error(`Invalid secret ID: ${id}`);
		this.secrets.set(id, secret);
	}

	getSecret(id: string): string | null {
		return this.secrets.get(id) ?? null;
	}

	listSecrets(): string[] {
		return [...this.secrets.keys()].sort();
	}
}

export class SecretComponent extends BaseComponent {
	/** Fake-only: the control's element. */
	readonly selectEl: HTMLSelectElement;
	private changeCallback: ((value: string) => unknown) | null = null;

	constructor(
		private readonly app: App,
		containerEl: HTMLElement,
	) {
		super();
		this.selectEl = containerEl.createEl("select", { cls: "dropdown secret-component" });
		this.fill("");
		this.selectEl.addEventListener("change", () => this.fire());
		components.set(this.selectEl, this);
	}

	/** Fake-only: the component whose control is `el`. */
	static of(el: Element | null): SecretComponent | undefined {
		return el ? components.get(el) : undefined;
	}

	private fill(value: string): void {
		this.selectEl.empty();
		this.selectEl.createEl("option", { value: "", text: "None" });
		const ids = this.app.secretStorage.listSecrets();
		if (value !== "" && !ids.includes(value)) ids.push(value);
		for (const id of ids) this.selectEl.createEl("option", { value: id, text: id });
		this.selectEl.value = value;
	}

	private fire(): void {
		if (this.changeCallback) currentRuntime().track(this.changeCallback(this.selectEl.value), "secret onChange");
	}

	setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.selectEl.disabled = disabled;
		return this;
	}

	setValue(value: string): this {
		this.fill(value);
		return this;
	}

	onChange(cb: (value: string) => unknown): this {
		this.changeCallback = cb;
		return this;
	}

	/** Fake-only: what Obsidian's "create a secret" dialog does from this control. */
	createSecret(id: string, value: string): void {
		this.app.secretStorage.setSecret(id, value);
		this.fill(id);
		this.fire();
	}
}
