import { YamlError, parseYamlSafe } from "./frontmatter";
import { COMMUNICATION_DEFAULTS, DEFAULT_ROOT, FOLDER } from "./protocol";
import { safeRelativeFolder } from "./paths";
import { describeValue, isPlainObject } from "./text";

// registry.yaml (protocol section 2): the groups and the communication settings. A bad entry is
// reported and skipped; the rest of the registry keeps working.

const GROUP_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isGroupId(value: unknown): value is string {
	return typeof value === "string" && GROUP_ID.test(value);
}

export interface GroupEntry {
	id: string;
	description?: string;
	/** A folder of the group's own (vault-relative), when the registry gives one. */
	folder?: string;
}

export interface CommunicationSettings {
	max_hops: number;
	timeout_seconds: number;
	retry_attempts: number;
}

export interface RegistryError {
	/** The entry (its key or list position) or setting the error is about. */
	where: string;
	message: string;
}

export interface Registry {
	communication: CommunicationSettings;
	groups: Map<string, GroupEntry>;
	errors: RegistryError[];
	/** False when the file itself could not be read as a registry (then `groups` is empty). */
	usable: boolean;
}

export function emptyRegistry(errors: RegistryError[] = [], usable = true): Registry {
	return { communication: { ...COMMUNICATION_DEFAULTS }, groups: new Map(), errors, usable };
}

function readCommunication(raw: unknown, errors: RegistryError[]): CommunicationSettings {
	const settings: CommunicationSettings = { ...COMMUNICATION_DEFAULTS };
	if (raw === undefined || raw === null) return settings;
	if (!isPlainObject(raw)) {
		errors.push({ where: "communication", message: "must be a mapping; the defaults are used" });
		return settings;
	}
	const minimum: Record<keyof CommunicationSettings, number> = { max_hops: 1, timeout_seconds: 1, retry_attempts: 0 };
	for (const key of Object.keys(settings) as (keyof CommunicationSettings)[]) {
		const value = raw[key];
		if (value === undefined || value === null) continue;
		if (typeof value === "number" && Number.isInteger(value) && value >= minimum[key]) settings[key] = value;
		else errors.push({ where: `communication.${key}`, message: `must be an integer >= ${minimum[key]}, got ${describeValue(value)}; the default ${settings[key]} is used` });
	}
	return settings;
}

function readEntry(key: string | null, raw: unknown, where: string, errors: RegistryError[]): GroupEntry | null {
	const body = raw === null || raw === undefined ? {} : raw;
	if (!isPlainObject(body)) {
		errors.push({ where, message: `must be a mapping (description, folder, id), got ${describeValue(raw)}` });
		return null;
	}
	const id = body.id !== undefined ? body.id : key;
	if (!isGroupId(id)) {
		errors.push({ where, message: `group id ${describeValue(id)} is not valid: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit` });
		return null;
	}
	const entry: GroupEntry = { id };
	const description = body.description;
	if (typeof description === "string" || typeof description === "number" || typeof description === "boolean") entry.description = String(description);
	else if (description !== undefined && description !== null) errors.push({ where, message: `description must be text, got ${describeValue(description)}; it is ignored` });
	if (body.folder !== undefined && body.folder !== null) {
		const folder = typeof body.folder === "string" ? safeRelativeFolder(body.folder) : null;
		if (folder === null) {
			errors.push({ where, message: `folder ${describeValue(body.folder)} must be a relative vault folder without "..", dot-folders or a leading "/"` });
			return null;
		}
		entry.folder = folder;
	}
	return entry;
}

function overlaps(a: string, b: string): boolean {
	return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * `root` is the A2A root folder: a group's own folder may not overlap another group's, whether that
 * one is given in the registry or is the default `<root>/groups/<id>`.
 */
export function parseRegistry(text: string, root = DEFAULT_ROOT): Registry {
	let data: unknown;
	const errors: RegistryError[] = [];
	try {
		data = text.trim() === "" ? {} : parseYamlSafe(text, (path) => errors.push({ where: path, message: "is defined twice; only the first definition is used" }));
	} catch (error) {
		const message = error instanceof YamlError ? error.message : String(error);
		return emptyRegistry([{ where: "registry.yaml", message }], false);
	}
	if (data === null || data === undefined) data = {};
	if (!isPlainObject(data)) return emptyRegistry([{ where: "registry.yaml", message: "must be a mapping with communication and groups" }], false);
	const communication = readCommunication(data.communication, errors);
	const groups = new Map<string, GroupEntry>();
	const candidates: { entry: GroupEntry | null; where: string }[] = [];
	const rawGroups = data.groups;
	if (Array.isArray(rawGroups)) {
		rawGroups.forEach((item, i) => {
			const where = `groups[${i}]`;
			candidates.push({ entry: readEntry(null, item, where, errors), where });
		});
	} else if (isPlainObject(rawGroups)) {
		for (const [key, item] of Object.entries(rawGroups)) {
			const where = `groups.${key}`;
			candidates.push({ entry: readEntry(key, item, where, errors), where });
		}
	} else if (rawGroups !== undefined && rawGroups !== null) {
		errors.push({ where: "groups", message: `must be a mapping or a list of groups, got ${describeValue(rawGroups)}` });
	}
	for (const { entry, where } of candidates) {
		if (!entry) continue;
		if (groups.has(entry.id)) {
			errors.push({ where, message: `group id "${entry.id}" is defined twice; only the first definition is used` });
			continue;
		}
		const folderOf = (g: GroupEntry) => g.folder ?? `${root}/${FOLDER.groups}/${g.id}`;
		const clash = [...groups.values()].find((g) => overlaps(folderOf(g), folderOf(entry)));
		if (clash) {
			errors.push({ where, message: `folder "${entry.folder}" overlaps the folder of group "${clash.id}"` });
			continue;
		}
		groups.set(entry.id, entry);
	}
	return { communication, groups, errors, usable: true };
}

export function describeRegistryError(error: RegistryError): string {
	return `${error.where}: ${error.message}`;
}
