import { PluginSettingTab, Setting, debounce } from "obsidian";
import type { App, Debouncer, Plugin, SettingDefinitionItem, SettingGroupItem } from "obsidian";
import { safeRelativeFolder } from "../core/paths";
import { PRIORITIES } from "../core/protocol";
import type { Priority } from "../core/protocol";
import type { RelayServices } from "../services";
import { normaliseSettings, parseFolderList } from "../settings";
import type { RelaySettings } from "../settings";
import { makeField } from "./modals/form";

// The settings tab. Every row is described once (ROWS) and rendered two ways: by display() with
// Setting rows (Obsidian before 1.13), and as declarative definitions by getSettingDefinitions()
// (1.13 and later, where they also feed the settings search). A value is checked before it is
// saved: an invalid one is shown as an error next to its field and never stored. Every change goes
// through services.updateSettings, so it takes effect at once (a new root folder rebuilds the
// relay and rescans the agents).

type Change = { ok: true; change: Partial<RelaySettings> } | { ok: false; error: string };

interface TextRow {
	kind: "text" | "textarea";
	key: keyof RelaySettings;
	name: string;
	desc: string;
	placeholder?: string;
	read: (s: RelaySettings) => string;
	parse: (text: string, s: RelaySettings) => Change;
}

interface ToggleRow {
	kind: "toggle";
	key: "autoRoute" | "showNotices";
	name: string;
	desc: string;
}

interface DropdownRow {
	kind: "dropdown";
	key: "defaultPriority";
	name: string;
	desc: string;
	options: Record<string, string>;
}

type Row = TextRow | ToggleRow | DropdownRow;

interface Section {
	heading: string;
	rows: Row[];
}

/** A number in a range; `normaliseSettings` has the last word (it is what loading would keep). */
function numberChange(key: "staleMinutes" | "graceSeconds" | "defaultTimeoutSeconds", text: string, s: RelaySettings, error: string, integer: boolean): Change {
	const trimmed = text.trim();
	const value = /^(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
	if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return { ok: false, error };
	if (normaliseSettings({ ...s, [key]: value })[key] !== value) return { ok: false, error };
	return { ok: true, change: { [key]: value } };
}

function isPriority(value: unknown): value is Priority {
	return typeof value === "string" && (PRIORITIES as readonly string[]).includes(value);
}

const PRIORITY_LABELS: Record<string, string> = { low: "Low", medium: "Medium", high: "High" };

export const SECTIONS: Section[] = [
	{
		heading: "Folders",
		rows: [
			{
				kind: "text",
				key: "rootFolder",
				name: "Root folder",
				desc: "The folder that holds registry.yaml, the groups, agents, dead letters and the routing log.",
				placeholder: "A2A",
				read: (s) => s.rootFolder,
				parse: (text) => {
					const folder = safeRelativeFolder(text);
					return folder
						? { ok: true, change: { rootFolder: folder } }
						: { ok: false, error: 'Enter a folder inside the vault: not empty, no leading "/", no ".." and no folder starting with a dot.' };
				},
			},
			{
				kind: "textarea",
				key: "extraAgentFolders",
				name: "Extra agent folders",
				desc: "More folders whose notes with a status are agents (for example Runs). Separate them with commas or new lines.",
				placeholder: "Runs",
				read: (s) => s.extraAgentFolders.join("\n"),
				parse: (text) => {
					const { folders, rejected } = parseFolderList(text);
					if (rejected.length > 0) {
						return { ok: false, error: `Not usable as folders: ${rejected.join(", ")}. Use folders inside the vault, without ".." or a leading "/".` };
					}
					return { ok: true, change: { extraAgentFolders: folders } };
				},
			},
		],
	},
	{
		heading: "Routing",
		rows: [
			{ kind: "toggle", key: "autoRoute", name: "Automatic routing", desc: "Route outbox notes as they appear. When off, only the Route now command routes." },
			{
				kind: "text",
				key: "graceSeconds",
				name: "Grace period for half-written notes",
				desc: "Seconds a note that does not parse yet may wait for its writer to finish it before it is rejected (0 to 600).",
				placeholder: "5",
				read: (s) => String(s.graceSeconds),
				parse: (text, s) => numberChange("graceSeconds", text, s, "Enter a number of seconds from 0 to 600.", false),
			},
			{ kind: "toggle", key: "showNotices", name: "Routing notices", desc: "Show a notice when a message is rejected or times out, or when the registry has errors." },
		],
	},
	{
		heading: "New messages",
		rows: [
			{
				kind: "dropdown",
				key: "defaultPriority",
				name: "Default priority",
				desc: "The priority Compose message starts with.",
				options: Object.fromEntries(PRIORITIES.map((p) => [p, PRIORITY_LABELS[p] ?? p])),
			},
			{
				kind: "text",
				key: "defaultTimeoutSeconds",
				name: "Default timeout",
				desc: "Seconds a composed request waits for an answer; 0 uses the registry's timeout.",
				placeholder: "0",
				read: (s) => String(s.defaultTimeoutSeconds),
				parse: (text, s) => numberChange("defaultTimeoutSeconds", text, s, "Enter a whole number of seconds from 0 to 604800.", true),
			},
		],
	},
	{
		heading: "Agents",
		rows: [
			{
				kind: "text",
				key: "staleMinutes",
				name: "Stale limit",
				desc: "Minutes without an update after which an active or running agent is shown as stale (0.1 to 10080).",
				placeholder: "5",
				read: (s) => String(s.staleMinutes),
				parse: (text, s) => numberChange("staleMinutes", text, s, "Enter a number of minutes from 0.1 to 10080.", false),
			},
		],
	},
];

function rowByKey(key: string): Row | undefined {
	for (const section of SECTIONS) for (const row of section.rows) if (row.key === key) return row;
	return undefined;
}

export class RelaySettingTab extends PluginSettingTab {
	/** Typed values waiting to be saved (flushed when the tab closes). */
	private readonly pending: Debouncer<[], Promise<void>>[] = [];
	/** Saves run one after the other: two quick changes never write data.json at the same time. */
	private saving: Promise<void> = Promise.resolve();

	constructor(
		app: App,
		plugin: Plugin,
		private readonly services: RelayServices,
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
		this.saving = this.saving
			.then(() => this.services.updateSettings(change))
			.catch((error: unknown) => console.error("A2A Relay: could not save the settings", error));
		return this.saving;
	}

	private renderRow(containerEl: HTMLElement, row: Row): void {
		const settings = this.services.settings;
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
				const value = field.value();
				if (isPriority(value)) void this.save({ defaultPriority: value });
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
				const parsed = row.parse(field.value(), this.services.settings);
				if (!parsed.ok) return;
				const current = this.services.settings;
				const changed = Object.entries(parsed.change).some(([k, v]) => JSON.stringify(current[k as keyof RelaySettings]) !== JSON.stringify(v));
				if (changed) await this.save(parsed.change);
			},
			600,
			true,
		);
		this.pending.push(save);
		field.control.addEventListener("input", () => {
			const parsed = row.parse(field.value(), this.services.settings);
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
		if (row.kind === "toggle") return { name: row.name, desc: row.desc, control: { type: "toggle", key: row.key } };
		if (row.kind === "dropdown") return { name: row.name, desc: row.desc, control: { type: "dropdown", key: row.key, options: row.options } };
		const validate = (value: string): string | undefined => {
			const parsed = row.parse(value, this.services.settings);
			return parsed.ok ? undefined : parsed.error;
		};
		if (row.kind === "textarea") return { name: row.name, desc: row.desc, control: { type: "textarea", key: row.key, placeholder: row.placeholder, rows: 3, validate } };
		return { name: row.name, desc: row.desc, control: { type: "text", key: row.key, placeholder: row.placeholder, validate } };
	}

	getControlValue(key: string): unknown {
		const row = rowByKey(key);
		const settings = this.services.settings;
		if (!row) return undefined;
		if (row.kind === "text" || row.kind === "textarea") return row.read(settings);
		return settings[row.key];
	}

	async setControlValue(key: string, value: unknown): Promise<void> {
		const row = rowByKey(key);
		if (!row) return;
		if (row.kind === "toggle") {
			if (typeof value === "boolean") await this.save({ [row.key]: value });
			return;
		}
		if (row.kind === "dropdown") {
			if (isPriority(value)) await this.save({ defaultPriority: value });
			return;
		}
		const parsed = row.parse(typeof value === "string" ? value : String(value), this.services.settings);
		if (parsed.ok) await this.save(parsed.change);
	}
}
