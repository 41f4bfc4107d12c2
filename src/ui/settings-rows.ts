import { PRIORITY_LABELS } from "../core/labels";
import { PRIORITIES } from "../core/protocol";
import type { Priority } from "../core/protocol";
import { SETTINGS_TEXT } from "./strings";
import { ROUTE_ON_DEVICE_MODES } from "../core/lease";
import { normalizeSettings, parseFolderList } from "../settings";
import type { RelaySettings } from "../settings";

// Every row of the settings tab, described once: its name and description, how its value is
// read from the settings and how typed text is checked and turned into a change. The tab renders
// these rows two ways (settings-tab.ts).

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
	key: "autoRoute" | "showNotices" | "noticesForAll";
	name: string;
	desc: string;
}

interface DropdownRow {
	kind: "dropdown";
	key: "defaultPriority" | "routeOnDevice";
	name: string;
	desc: string;
	options: Record<string, string>;
}

/** A row the tab renders itself (the root folder with its suggester, the Groups editor). */
interface CustomRow {
	kind: "custom";
	key: "rootFolder" | "groups";
	name: string;
	desc: string;
}

export type Row = TextRow | ToggleRow | DropdownRow | CustomRow;

interface Section {
	heading: string;
	rows: Row[];
}

/** A number in a range; `normalizeSettings` has the last word (it is what loading would keep). */
function numberChange(key: "staleMinutes" | "graceSeconds" | "defaultTimeoutSeconds" | "syncMarginSeconds", text: string, s: RelaySettings, error: string, integer: boolean): Change {
	const trimmed = text.trim();
	const value = /^(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
	if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return { ok: false, error };
	if (normalizeSettings({ ...s, [key]: value })[key] !== value) return { ok: false, error };
	return { ok: true, change: { [key]: value } };
}

export function isPriority(value: unknown): value is Priority {
	return typeof value === "string" && (PRIORITIES as readonly string[]).includes(value);
}

/** The change a dropdown's value makes, or null when the value is not one of its options. */
export function dropdownChange(row: DropdownRow, value: unknown): Partial<RelaySettings> | null {
	if (row.key === "defaultPriority") return isPriority(value) ? { defaultPriority: value } : null;
	return (ROUTE_ON_DEVICE_MODES as readonly unknown[]).includes(value) ? { routeOnDevice: value as RelaySettings["routeOnDevice"] } : null;
}

export const SECTIONS: Section[] = [
	{
		heading: "Folders",
		rows: [
			{ kind: "custom", key: "rootFolder", name: "Root folder", desc: "The folder that holds the registry, the groups, agents, dead letters and the routing log." },
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
			{ kind: "toggle", key: "noticesForAll", name: SETTINGS_TEXT.noticesForAll, desc: SETTINGS_TEXT.noticesForAllDesc },
		],
	},
	{
		heading: SETTINGS_TEXT.deviceHeading,
		rows: [
			{ kind: "dropdown", key: "routeOnDevice", name: SETTINGS_TEXT.routeOnDevice, desc: SETTINGS_TEXT.routeOnDeviceDesc, options: SETTINGS_TEXT.routeModes },
			{
				kind: "text",
				key: "syncMarginSeconds",
				name: SETTINGS_TEXT.syncMargin,
				desc: SETTINGS_TEXT.syncMarginDesc,
				placeholder: "120",
				read: (s) => String(s.syncMarginSeconds),
				parse: (text, s) => numberChange("syncMarginSeconds", text, s, "Enter a number of seconds from 1 to 86400.", false),
			},
			{
				kind: "text",
				key: "deviceName",
				name: SETTINGS_TEXT.deviceName,
				desc: SETTINGS_TEXT.deviceNameDesc,
				placeholder: "Obsidian on this desktop",
				read: (s) => s.deviceName,
				parse: (text) => (text.length > 80 ? { ok: false, error: "Use at most 80 characters." } : { ok: true, change: { deviceName: text.trim() } }),
			},
		],
	},
	{
		heading: SETTINGS_TEXT.groupsHeading,
		rows: [{ kind: "custom", key: "groups", name: SETTINGS_TEXT.groupsHeading, desc: "" }],
	},
	{
		heading: "New messages",
		rows: [
			{
				kind: "dropdown",
				key: "defaultPriority",
				name: "Default priority",
				desc: "The priority Compose message starts with.",
				options: Object.fromEntries(PRIORITIES.map((p) => [p, PRIORITY_LABELS[p]])),
			},
			{
				kind: "text",
				key: "defaultTimeoutSeconds",
				name: "Default timeout",
				desc: "Seconds a composed request waits for an answer; 0 leaves the timeout field blank, so the registry's timeout applies.",
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

export function rowByKey(key: string): Row | undefined {
	for (const section of SECTIONS) for (const row of section.rows) if (row.key === key) return row;
	return undefined;
}
