import { DEFAULT_ROOT, PRIORITIES } from "./core/protocol";
import type { Priority } from "./core/protocol";
import { safeRelativeFolder } from "./core/paths";
import { DEFAULT_SYNC_MARGIN_MS, ROUTE_ON_DEVICE_MODES } from "./core/lease";
import type { RouteOnDevice } from "./core/lease";

// The plugin's settings, their defaults, and the cleaning of whatever data.json holds (it may have
// been edited by hand or by sync).

export interface RelaySettings {
	/** The A2A root folder. */
	rootFolder: string;
	/** Folders besides <root>/agents whose notes with a `status` are agents (e.g. `Runs`). */
	extraAgentFolders: string[];
	/** Minutes without an update after which an active or running agent is stale. */
	staleMinutes: number;
	/** Seconds a note that does not parse may wait to be completed before it is rejected. */
	graceSeconds: number;
	/** Route on vault events; off leaves only the Route now command. */
	autoRoute: boolean;
	defaultPriority: Priority;
	/** Default timeout of composed requests, in seconds; 0 uses the registry's. */
	defaultTimeoutSeconds: number;
	showNotices: boolean;
	/** Notices for every rejected or timed-out message, not only those written in this app. */
	noticesForAll: boolean;
	/** The agent status view was opened once (on first install). */
	viewShown: boolean;
	/** The group last used as sender in Compose message. */
	lastFromGroup: string;
	/** Whether this device routes (the lease decides which device does). */
	routeOnDevice: RouteOnDevice;
	/** Seconds another device's lease must be seen unchanged before this device takes over. */
	syncMarginSeconds: number;
	/** How this device is named in the lease note ("" for the default). */
	deviceName: string;
}

const DEFAULT_SETTINGS: RelaySettings = {
	rootFolder: DEFAULT_ROOT,
	extraAgentFolders: [],
	staleMinutes: 5,
	graceSeconds: 5,
	autoRoute: true,
	defaultPriority: "medium",
	defaultTimeoutSeconds: 0,
	showNotices: true,
	noticesForAll: false,
	viewShown: false,
	lastFromGroup: "",
	routeOnDevice: "automatic",
	syncMarginSeconds: DEFAULT_SYNC_MARGIN_MS / 1000,
	deviceName: "",
};

function num(value: unknown, fallback: number, min: number, max: number): number {
	return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max ? value : fallback;
}

export function normalizeSettings(raw: unknown): RelaySettings {
	const data = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
	const folders = Array.isArray(data.extraAgentFolders) ? data.extraAgentFolders : [];
	return {
		rootFolder: (typeof data.rootFolder === "string" && safeRelativeFolder(data.rootFolder)) || DEFAULT_SETTINGS.rootFolder,
		extraAgentFolders: [...new Set(folders.map((f) => (typeof f === "string" ? safeRelativeFolder(f) : null)).filter((f): f is string => f !== null))],
		staleMinutes: num(data.staleMinutes, DEFAULT_SETTINGS.staleMinutes, 0.1, 10080),
		graceSeconds: num(data.graceSeconds, DEFAULT_SETTINGS.graceSeconds, 0, 600),
		autoRoute: typeof data.autoRoute === "boolean" ? data.autoRoute : DEFAULT_SETTINGS.autoRoute,
		defaultPriority: (PRIORITIES as readonly unknown[]).includes(data.defaultPriority) ? (data.defaultPriority as Priority) : DEFAULT_SETTINGS.defaultPriority,
		defaultTimeoutSeconds: num(data.defaultTimeoutSeconds, DEFAULT_SETTINGS.defaultTimeoutSeconds, 0, 604800),
		showNotices: typeof data.showNotices === "boolean" ? data.showNotices : DEFAULT_SETTINGS.showNotices,
		noticesForAll: typeof data.noticesForAll === "boolean" ? data.noticesForAll : DEFAULT_SETTINGS.noticesForAll,
		viewShown: data.viewShown === true,
		lastFromGroup: typeof data.lastFromGroup === "string" ? data.lastFromGroup : "",
		routeOnDevice: (ROUTE_ON_DEVICE_MODES as readonly unknown[]).includes(data.routeOnDevice) ? (data.routeOnDevice as RouteOnDevice) : DEFAULT_SETTINGS.routeOnDevice,
		syncMarginSeconds: num(data.syncMarginSeconds, DEFAULT_SETTINGS.syncMarginSeconds, 1, 86400),
		deviceName: typeof data.deviceName === "string" ? data.deviceName.trim().slice(0, 80) : "",
	};
}

/** Parses the comma- or line-separated folder list of the settings tab. */
export function parseFolderList(text: string): { folders: string[]; rejected: string[] } {
	const folders: string[] = [];
	const rejected: string[] = [];
	for (const part of text.split(/[,\n]/).map((p) => p.trim()).filter((p) => p !== "")) {
		const folder = safeRelativeFolder(part);
		if (folder) folders.push(folder);
		else rejected.push(part);
	}
	return { folders: [...new Set(folders)], rejected };
}
