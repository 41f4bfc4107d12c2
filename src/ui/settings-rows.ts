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
	key: "rootFolder" | "groups" | "limits";
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

/** The order people set up in: groups first, then where things live, new messages, agents, notices; the rest is advanced. */
export const SECTIONS: Section[] = [
	{
		heading: SETTINGS_TEXT.groupsHeading,
		rows: [{ kind: "custom", key: "groups", name: SETTINGS_TEXT.groupsHeading, desc: "" }],
	},
	{
		heading: SETTINGS_TEXT.foldersHeading,
		rows: [
			{ kind: "custom", key: "rootFolder", name: SETTINGS_TEXT.rootFolder, desc: SETTINGS_TEXT.rootFolderDesc },
			{
				kind: "textarea",
				key: "extraAgentFolders",
				name: SETTINGS_TEXT.extraFolders,
				desc: SETTINGS_TEXT.extraFoldersDesc,
				placeholder: SETTINGS_TEXT.placeholders.extraFolders,
				read: (s) => s.extraAgentFolders.join("\n"),
				parse: (text) => {
					const { folders, rejected } = parseFolderList(text);
					if (rejected.length > 0) {
						return { ok: false, error: SETTINGS_TEXT.notFolders(rejected) };
					}
					return { ok: true, change: { extraAgentFolders: folders } };
				},
			},
		],
	},
	{
		heading: SETTINGS_TEXT.newMessagesHeading,
		rows: [
			{ kind: "custom", key: "limits", name: SETTINGS_TEXT.limits, desc: "" },
			{
				kind: "dropdown",
				key: "defaultPriority",
				name: SETTINGS_TEXT.defaultPriority,
				desc: SETTINGS_TEXT.defaultPriorityDesc,
				options: Object.fromEntries(PRIORITIES.map((p) => [p, PRIORITY_LABELS[p]])),
			},
			{
				kind: "text",
				key: "defaultTimeoutSeconds",
				name: SETTINGS_TEXT.defaultTimeout,
				desc: SETTINGS_TEXT.defaultTimeoutDesc,
				placeholder: "0",
				read: (s) => String(s.defaultTimeoutSeconds),
				parse: (text, s) => numberChange("defaultTimeoutSeconds", text, s, SETTINGS_TEXT.defaultTimeoutError, true),
			},
		],
	},
	{
		heading: SETTINGS_TEXT.agentsHeading,
		rows: [
			{
				kind: "text",
				key: "staleMinutes",
				name: SETTINGS_TEXT.staleLimit,
				desc: SETTINGS_TEXT.staleLimitDesc,
				placeholder: "5",
				read: (s) => String(s.staleMinutes),
				parse: (text, s) => numberChange("staleMinutes", text, s, SETTINGS_TEXT.staleLimitError, false),
			},
		],
	},
	{
		heading: SETTINGS_TEXT.noticesHeading,
		rows: [
			{ kind: "toggle", key: "showNotices", name: SETTINGS_TEXT.notices, desc: SETTINGS_TEXT.noticesDesc },
			{ kind: "toggle", key: "noticesForAll", name: SETTINGS_TEXT.noticesForAll, desc: SETTINGS_TEXT.noticesForAllDesc },
		],
	},
	{
		heading: SETTINGS_TEXT.advancedHeading,
		rows: [
			{ kind: "toggle", key: "autoRoute", name: SETTINGS_TEXT.autoRoute, desc: SETTINGS_TEXT.autoRouteDesc },
			{ kind: "dropdown", key: "routeOnDevice", name: SETTINGS_TEXT.routeOnDevice, desc: SETTINGS_TEXT.routeOnDeviceDesc, options: SETTINGS_TEXT.routeModes },
			{
				kind: "text",
				key: "syncMarginSeconds",
				name: SETTINGS_TEXT.syncMargin,
				desc: SETTINGS_TEXT.syncMarginDesc,
				placeholder: "120",
				read: (s) => String(s.syncMarginSeconds),
				parse: (text, s) => numberChange("syncMarginSeconds", text, s, SETTINGS_TEXT.syncMarginError, false),
			},
			{
				kind: "text",
				key: "deviceName",
				name: SETTINGS_TEXT.deviceName,
				desc: SETTINGS_TEXT.deviceNameDesc,
				placeholder: SETTINGS_TEXT.placeholders.deviceName,
				read: (s) => s.deviceName,
				parse: (text) => (text.length > 80 ? { ok: false, error: SETTINGS_TEXT.deviceNameTooLong } : { ok: true, change: { deviceName: text.trim() } }),
			},
			{
				kind: "text",
				key: "graceSeconds",
				name: SETTINGS_TEXT.grace,
				desc: SETTINGS_TEXT.graceDesc,
				placeholder: "5",
				read: (s) => String(s.graceSeconds),
				parse: (text, s) => numberChange("graceSeconds", text, s, SETTINGS_TEXT.graceError, false),
			},
		],
	},
];

export function rowByKey(key: string): Row | undefined {
	for (const section of SECTIONS) for (const row of section.rows) if (row.key === key) return row;
	return undefined;
}
