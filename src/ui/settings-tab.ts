import { PluginSettingTab, Setting, debounce } from "obsidian";
import type { App, Debouncer, Plugin, SettingDefinitionItem, SettingGroupItem } from "obsidian";
import type { ActionVault } from "../actions/vault";
import type { RelayState } from "../obsidian/relay-state";
import type { SettingsStore } from "../obsidian/settings-store";
import type { RelaySettings } from "../settings";
import { makeField } from "./modals/form";
import { GroupsEditor, RegistryLimits } from "./settings/groups-editor";
import { renderRootFolderRow } from "./settings/root-folder-row";
import { SECTIONS, dropdownChange, rowByKey } from "./settings-rows";
import type { Row } from "./settings-rows";

// The settings tab. Every row is described once (ROWS) and rendered two ways: by display() with
// Setting rows (Obsidian before 1.13), and as declarative definitions by getSettingDefinitions()
// (1.13 and later, where they also feed the settings search). A value is checked before it is
// saved: an invalid one is shown as an error next to its field and never stored. Every change goes
// through the settings store, one save at a time, and takes effect at once (a new root folder,
// applied only when confirmed, rebuilds the relay and rescans the agents). Two rows render
// themselves: the root folder (with a folder suggester), and the Groups editor and the answer
// timeout and retries (both written to the registry).

export class RelaySettingTab extends PluginSettingTab {
	/** Typed values waiting to be saved (flushed when the tab closes). */
	private readonly pending: Debouncer<[], Promise<void>>[] = [];

	constructor(
		app: App,
		plugin: Plugin,
		private readonly settings: SettingsStore,
		private readonly state: RelayState,
		private readonly vault: Pick<ActionVault, "read" | "replace">,
	) {
		super(app, plugin);
	}

	display(): void {
		const { containerEl } = this;
		containerEl.empty();
		this.pending.length = 0;
		containerEl.addClass("a2a-settings");
		for (const section of SECTIONS) {
			new Setting(containerEl).setName(section.heading).setHeading();
			for (const row of section.rows) this.renderRow(containerEl, row);
		}
	}

	hide(): void {
		for (const save of this.pending) void save.run();
		this.pending.length = 0;
		super.hide();
	}

	private save(change: Partial<RelaySettings>): Promise<void> {
		return this.settings.update(change);
	}

	/** The rows that render themselves, into a Setting (display() and the 1.13 definitions alike). */
	private renderCustom(setting: Setting, row: Extract<Row, { kind: "custom" }>): void {
		if (row.key === "rootFolder") {
			renderRootFolderRow(this.app, setting, this.settings);
			return;
		}
		setting.settingEl.addClass("a2a-groups-setting");
		const el = setting.settingEl.createDiv();
		if (row.key === "limits") void new RegistryLimits(this.app, el, this.state, this.vault).render();
		else void new GroupsEditor(this.app, el, this.state, this.vault).render();
	}

	private renderRow(containerEl: HTMLElement, row: Row): void {
		const settings = this.settings.current;
		if (row.kind === "custom") {
			this.renderCustom(new Setting(containerEl), row);
			return;
		}
		if (row.kind === "toggle") {
			new Setting(containerEl)
				.setName(row.name)
				.setDesc(row.desc)
				.addToggle((toggle) =>
					toggle.setValue(settings[row.key]).onChange(async (value) => {
						await this.save({ [row.key]: value });
					}),
				);
			return;
		}
		if (row.kind === "dropdown") {
			const field = makeField(
				containerEl,
				row.key,
				row.name,
				(setting) => {
					let select!: HTMLSelectElement;
					setting.addDropdown((dropdown) => {
						dropdown.addOptions(row.options).setValue(settings[row.key]);
						select = dropdown.selectEl;
					});
					return select;
				},
				{ desc: row.desc },
			);
			field.control.addEventListener("change", () => {
				const change = dropdownChange(row, field.value());
				if (change) void this.save(change);
			});
			return;
		}
		const field = makeField(
			containerEl,
			row.key,
			row.name,
			(setting) => {
				let input!: HTMLInputElement | HTMLTextAreaElement;
				if (row.kind === "textarea") {
					setting.addTextArea((text) => {
						input = text.inputEl;
						text.inputEl.rows = 3;
					});
				} else {
					setting.addText((text) => {
						input = text.inputEl;
					});
				}
				return input;
			},
			{ desc: row.desc, placeholder: row.placeholder, value: row.read(settings) },
		);
		const save = debounce(
			async () => {
				const parsed = row.parse(field.value(), this.settings.current);
				if (!parsed.ok) return;
				const current = this.settings.current;
				const changed = Object.entries(parsed.change).some(([k, v]) => JSON.stringify(current[k as keyof RelaySettings]) !== JSON.stringify(v));
				if (changed) await this.save(parsed.change);
			},
			600,
			true,
		);
		this.pending.push(save);
		field.control.addEventListener("input", () => {
			const parsed = row.parse(field.value(), this.settings.current);
			field.setError(parsed.ok ? null : parsed.error);
			if (parsed.ok) save();
			else save.cancel();
		});
		// Leaving the field (or Enter) saves at once.
		field.control.addEventListener("change", () => {
			if (!field.hasError()) void save.run();
		});
	}

	// ---- Obsidian 1.13+: the same rows as declarative definitions (also used by settings search) ----

	getSettingDefinitions(): SettingDefinitionItem[] {
		return SECTIONS.map((section) => ({
			type: "group" as const,
			heading: section.heading,
			items: section.rows.map((row) => this.definition(row)),
		}));
	}

	private definition(row: Row): SettingGroupItem {
		if (row.kind === "custom") return { name: row.name, desc: row.desc, render: (setting) => this.renderCustom(setting, row) };
		if (row.kind === "toggle") return { name: row.name, desc: row.desc, control: { type: "toggle", key: row.key } };
		if (row.kind === "dropdown") return { name: row.name, desc: row.desc, control: { type: "dropdown", key: row.key, options: row.options } };
		const validate = (value: string): string | undefined => {
			const parsed = row.parse(value, this.settings.current);
			return parsed.ok ? undefined : parsed.error;
		};
		if (row.kind === "textarea") return { name: row.name, desc: row.desc, control: { type: "textarea", key: row.key, placeholder: row.placeholder, rows: 3, validate } };
		return { name: row.name, desc: row.desc, control: { type: "text", key: row.key, placeholder: row.placeholder, validate } };
	}

	getControlValue(key: string): unknown {
		const row = rowByKey(key);
		const settings = this.settings.current;
		if (!row || row.kind === "custom") return undefined;
		if (row.kind === "text" || row.kind === "textarea") return row.read(settings);
		return settings[row.key];
	}

	async setControlValue(key: string, value: unknown): Promise<void> {
		const row = rowByKey(key);
		if (!row || row.kind === "custom") return;
		if (row.kind === "toggle") {
			if (typeof value === "boolean") await this.save({ [row.key]: value });
			return;
		}
		if (row.kind === "dropdown") {
			const change = dropdownChange(row, value);
			if (change) await this.save(change);
			return;
		}
		const parsed = row.parse(typeof value === "string" ? value : String(value), this.settings.current);
		if (parsed.ok) await this.save(parsed.change);
	}
}
